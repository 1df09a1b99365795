// Release and AcquireRelease semantics forbid the early-out (a skipped RMW
// would drop the release): the integer atomics keep the original scope and
// semantics ids.  The NaN fix-up's CAS loop is Relaxed, between a release
// barrier of the same scope before it (0x44; AcquireRelease 0x48 -> 0x44)
// and, for AcquireRelease, an acquire barrier after it (0x42).
// Results used: the fix-up is decided from the atomic's result, so no load
// comes before it.
// RUN: %lower-and-check --env vulkan1.3 %s --lower-float-atomic-minmax | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Dst { float mn; float mx; } dst;
layout(std430, set = 0, binding = 1) buffer Out { float o[]; };
void main() {
  float v = float(gl_GlobalInvocationID.x);
  o[2u * gl_GlobalInvocationID.x] = atomicMin(dst.mn, v, gl_ScopeQueueFamily, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
  o[2u * gl_GlobalInvocationID.x + 1u] = atomicMax(dst.mx, v, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
}
// CHECK: OpMemoryModel Logical Vulkan
// CHECK-NOT: OpAtomicLoad
// CHECK: OpAtomicSMin %uint %[[P:[0-9]+]] %int_5 %uint_68
// CHECK: OpAtomicUMax %uint %[[P]] %int_5 %uint_68
// CHECK: OpMemoryBarrier %int_5 %uint_68
// CHECK-NEXT: OpAtomicLoad %uint %[[P]] %int_5 %uint_0
// CHECK: OpLoopMerge
// CHECK: OpAtomicCompareExchange %uint %[[P]] %int_5 %uint_0 %uint_0
// CHECK-NOT: OpMemoryBarrier
// CHECK: OpAtomicSMax %uint %[[Q:[0-9]+]] %int_2 %uint_72
// CHECK: OpAtomicUMin %uint %[[Q]] %int_2 %uint_72
// CHECK: OpMemoryBarrier %int_2 %uint_68
// CHECK-NEXT: OpAtomicLoad %uint %[[Q]] %int_2 %uint_0
// CHECK: OpLoopMerge %[[MERGE:[0-9]+]]
// CHECK: OpAtomicCompareExchange %uint %[[Q]] %int_2 %uint_0 %uint_0
// CHECK: %[[MERGE]] = OpLabel
// CHECK-NEXT: OpMemoryBarrier %int_2 %uint_66
