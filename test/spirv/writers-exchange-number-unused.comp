// nan=number, result unused, but an atomicExchange writes the same buffer:
// the NaN fix-up is decided from the integer atomic's own result (an
// exchange that stores a NaN between the early-out load and the integer
// atomic returns the value it replaced), not from the early-out's load.
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float : require
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Dst { float x[]; } dst;
layout(std430, set = 0, binding = 1) buffer Ret { float r[]; } ret;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if ((i & 1u) == 0u)
    atomicMax(dst.x[i / 2u], float(i));
  else
    ret.r[i] = atomicExchange(dst.x[i / 2u], uintBitsToFloat(0xFFC00000u));
}
// CHECK: OpAtomicExchange %float
// CHECK: %[[L:[0-9]+]] = OpAtomicLoad %uint %[[P:[0-9]+]] %uint_1 %uint_0
// CHECK: %[[R1:[0-9]+]] = OpAtomicSMax %uint %[[P]] %uint_1 %uint_0
// CHECK: %[[R2:[0-9]+]] = OpAtomicUMin %uint %[[P]] %uint_1 %uint_0
// CHECK: %[[OLD:[0-9]+]] = OpPhi %uint %[[R1]] %{{[0-9]+}} %[[R2]] %{{[0-9]+}}
// The sticky-NaN test reads the integer atomic's result.
// CHECK-NEXT: OpBitwiseAnd %uint %[[OLD]] %uint_2147483648
// CHECK: OpAtomicCompareExchange %uint %[[P]]
// CHECK: OpFunctionEnd
