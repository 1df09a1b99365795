// Result unused, number policy, early-out=off: an atomic load decides the
// NaN fix-up before the one dispatched atomic (never skipping it), so the
// integer atomics' results stay unused.
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax=early-out=off | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Dst { float mx; } dst;
void main() {
  atomicMax(dst.mx, float(gl_GlobalInvocationID.x));
}
// CHECK: %[[L:[0-9]+]] = OpAtomicLoad %uint %[[P:[0-9]+]] %uint_1 %uint_0
// CHECK: OpBitwiseAnd %uint %[[L]] %uint_2147483648
// CHECK: OpBranchConditional %{{[0-9]+}} %[[FIX:[0-9]+]] %[[PLAIN:[0-9]+]]
// CHECK: %[[FIX]] = OpLabel
// CHECK: OpAtomicCompareExchange %uint %[[P]]
// CHECK: %[[PLAIN]] = OpLabel
// CHECK: %[[R1:[0-9]+]] = OpAtomicSMax %uint %[[P]] %uint_1 %uint_0
// CHECK: %[[R2:[0-9]+]] = OpAtomicUMin %uint %[[P]] %uint_1 %uint_0
// CHECK-NOT: %[[R1]]
// CHECK-NOT: %[[R2]]
// CHECK: OpFunctionEnd
