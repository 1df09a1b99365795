// An exchange on a buffer of another binding does not write the lowered
// atomic's memory: every writer of `dst` is a lowered atomicMax, so the
// cheaper form stays (the NaN fix-up decided from the early-out's load;
// the integer atomics' results unused).
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float : require
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Dst { float x[]; } dst;
layout(std430, set = 0, binding = 1) buffer Other { float y[]; } other;
void main() {
  uint i = gl_GlobalInvocationID.x;
  atomicMax(dst.x[i / 2u], float(i));
  atomicExchange(other.y[i], 1.0);
}
// CHECK: %[[L:[0-9]+]] = OpAtomicLoad %uint %[[P:[0-9]+]] %uint_1 %uint_0
// CHECK: OpBitwiseAnd %uint %[[L]] %uint_2147483648
// CHECK: OpAtomicCompareExchange %uint %[[P]]
// CHECK: %[[R1:[0-9]+]] = OpAtomicSMax %uint %[[P]] %uint_1 %uint_0
// CHECK: %[[R2:[0-9]+]] = OpAtomicUMin %uint %[[P]] %uint_1 %uint_0
// CHECK-NOT: %[[R1]]
// CHECK-NOT: %[[R2]]
// CHECK: OpFunctionEnd
