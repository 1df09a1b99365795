// Acquire semantics allow the early-out: the atomic load uses the same scope
// and semantics ids as the original atomic.  The NaN fix-up's CAS loop is
// Relaxed and an acquire barrier of the same scope follows it; no release
// barrier precedes it.  (Result used: the fix-up is decided from the
// atomic's result.)
// RUN: %lower-and-check --env vulkan1.3 %s --lower-float-atomic-minmax | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Dst { float mx; } dst;
layout(std430, set = 0, binding = 1) buffer Out { float o[]; };
void main() {
  o[gl_GlobalInvocationID.x] = atomicMax(dst.mx, float(gl_GlobalInvocationID.x), gl_ScopeWorkgroup,
            gl_StorageSemanticsBuffer, gl_SemanticsAcquire);
}
// CHECK: OpAtomicLoad %uint %[[P:[0-9]+]] %int_2 %uint_66
// CHECK: OpAtomicSMax %uint %[[P]] %int_2 %uint_66
// CHECK: OpAtomicUMin %uint %[[P]] %int_2 %uint_66
// CHECK-NOT: OpMemoryBarrier
// CHECK: OpAtomicLoad %uint %[[P]] %int_2 %uint_0
// CHECK: OpLoopMerge %[[MERGE:[0-9]+]]
// CHECK: OpAtomicCompareExchange %uint %[[P]] %int_2 %uint_0 %uint_0
// CHECK: %[[MERGE]] = OpLabel
// CHECK-NEXT: OpMemoryBarrier %int_2 %uint_66
