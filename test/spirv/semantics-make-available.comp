// Vulkan memory model: Release|MakeAvailable on the atomic.  The integer
// atomics keep it; the fix-up's CAS loop is Relaxed after a release barrier
// that carries the MakeAvailable (0x2044), and no acquire barrier follows.
// (Result used: the fix-up is decided from the atomic's result.)
// RUN: %lower-and-check --env vulkan1.3 %s --lower-float-atomic-minmax | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Dst { float mn; } dst;
layout(std430, set = 0, binding = 1) buffer Out { float o[]; };
void main() {
  o[gl_GlobalInvocationID.x] = atomicMin(dst.mn, float(gl_GlobalInvocationID.x), gl_ScopeQueueFamily,
            gl_StorageSemanticsBuffer, gl_SemanticsRelease | gl_SemanticsMakeAvailable);
}
// CHECK: OpAtomicSMin %uint %[[P:[0-9]+]] %int_5 %uint_8260
// CHECK: OpAtomicUMax %uint %[[P]] %int_5 %uint_8260
// CHECK: OpMemoryBarrier %int_5 %uint_8260
// CHECK-NEXT: OpAtomicLoad %uint %[[P]] %int_5 %uint_0
// CHECK: OpAtomicCompareExchange %uint %[[P]] %int_5 %uint_0 %uint_0
// CHECK-NOT: OpMemoryBarrier
// CHECK: OpFunctionEnd
