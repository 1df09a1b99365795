// Result unused, number policy, Release semantics (early-out not allowed):
// an atomic load without the release part (0x44 -> 0x40) decides the NaN
// fix-up; the one dispatched integer atomic keeps the release semantics and
// its result stays unused.
// RUN: %lower-and-check --env vulkan1.3 %s --lower-float-atomic-minmax | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Dst { float mx; } dst;
void main() {
  atomicMax(dst.mx, float(gl_GlobalInvocationID.x), gl_ScopeQueueFamily,
            gl_StorageSemanticsBuffer, gl_SemanticsRelease);
}
// CHECK: %[[L:[0-9]+]] = OpAtomicLoad %uint %[[P:[0-9]+]] %int_5 %uint_64
// CHECK: OpBitwiseAnd %uint %[[L]] %uint_2147483648
// CHECK: OpBranchConditional %{{[0-9]+}} %[[FIX:[0-9]+]] %[[PLAIN:[0-9]+]]
// CHECK: %[[FIX]] = OpLabel
// CHECK: OpAtomicCompareExchange %uint %[[P]] %int_5 %uint_68 %uint_64
// CHECK: %[[PLAIN]] = OpLabel
// CHECK: %[[R1:[0-9]+]] = OpAtomicSMax %uint %[[P]] %int_5 %uint_68
// CHECK: %[[R2:[0-9]+]] = OpAtomicUMin %uint %[[P]] %int_5 %uint_68
// CHECK-NOT: %[[R1]]
// CHECK-NOT: %[[R2]]
// CHECK: OpFunctionEnd
