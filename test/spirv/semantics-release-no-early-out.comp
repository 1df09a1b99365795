// Release and AcquireRelease semantics forbid the early-out (a skipped RMW
// would drop the release): the integer atomics keep the original scope and
// semantics ids; loads and the unequal case of the fix-up drop the release
// part (0x44 -> 0x40; 0x48 -> 0x42).  Results used: the fix-up is decided
// from the atomic's result, so no load comes before it.
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
// CHECK: OpAtomicSMin %uint %{{[0-9]+}} %int_5 %uint_68
// CHECK: OpAtomicUMax %uint %{{[0-9]+}} %int_5 %uint_68
// CHECK: OpAtomicLoad %uint %{{[0-9]+}} %int_5 %uint_64
// CHECK: OpAtomicCompareExchange %uint %{{[0-9]+}} %int_5 %uint_68 %uint_64
// CHECK: OpAtomicSMax %uint %{{[0-9]+}} %int_2 %uint_72
// CHECK: OpAtomicUMin %uint %{{[0-9]+}} %int_2 %uint_72
// CHECK: OpAtomicLoad %uint %{{[0-9]+}} %int_2 %uint_66
// CHECK: OpAtomicCompareExchange %uint %{{[0-9]+}} %int_2 %uint_72 %uint_66
