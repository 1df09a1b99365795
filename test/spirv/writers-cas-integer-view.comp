// A second block at the same DescriptorSet/Binding (the shader's own integer
// view of the float buffer) is written by atomicCompSwap: the lowered
// atomicMin's memory has another writer, so the NaN fix-up is decided from
// the integer atomic's result, not from the early-out's load.
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Dst { float x[]; } dst;
layout(std430, set = 0, binding = 0) buffer DstU { uint u[]; } dstu;
layout(std430, set = 0, binding = 1) buffer Ret { uint r[]; } ret;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if ((i & 1u) == 0u)
    atomicMin(dst.x[i / 2u], 5.0);
  else
    ret.r[i] = atomicCompSwap(dstu.u[i / 2u], 0x42C80000u, 0xFFC00000u);
}
// CHECK: OpAtomicCompareExchange %uint %{{[0-9]+}} %uint_1 %uint_0 %uint_0 %uint_4290772992 %uint_1120403456
// CHECK: %[[L:[0-9]+]] = OpAtomicLoad %uint %[[P:[0-9]+]] %uint_1 %uint_0
// CHECK: %[[R1:[0-9]+]] = OpAtomicSMin %uint %[[P]] %uint_1 %uint_0
// CHECK: %[[R2:[0-9]+]] = OpAtomicUMax %uint %[[P]] %uint_1 %uint_0
// CHECK: %[[OLD:[0-9]+]] = OpPhi %uint %[[R1]] %{{[0-9]+}} %[[R2]] %{{[0-9]+}}
// CHECK-NEXT: OpBitwiseAnd %uint %[[OLD]] %uint_2147483648
// CHECK: OpFunctionEnd
