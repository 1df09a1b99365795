// The helper-wrapped atomic called twice, once as a statement and once for
// its value: one call reads the helper's return value, so the atomic keeps
// the used form.
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Dst { float dst[]; };
layout(std430, set = 0, binding = 1) buffer Out { float o[]; };
float op(uint a, float v) { return atomicMax(dst[a], v); }
void main() {
  uint i = gl_GlobalInvocationID.x;
  op(i & 7u, float(i));
  o[i] = op((i + 1u) & 7u, float(i));
}
// CHECK: %[[L:[0-9]+]] = OpAtomicLoad %uint %[[P:[0-9]+]] %uint_1 %uint_0
// CHECK: %[[R1:[0-9]+]] = OpAtomicSMax %uint %[[P]] %uint_1 %uint_0
// CHECK: %[[R2:[0-9]+]] = OpAtomicUMin %uint %[[P]] %uint_1 %uint_0
// CHECK: %[[OLD:[0-9]+]] = OpPhi %uint %[[R1]] %{{[0-9]+}} %[[R2]] %{{[0-9]+}}
// The sticky-NaN test reads the integer atomic's result.
// CHECK-NEXT: OpBitwiseAnd %uint %[[OLD]] %uint_2147483648
// CHECK: OpAtomicCompareExchange %uint %[[P]]
// CHECK: OpFunctionEnd
