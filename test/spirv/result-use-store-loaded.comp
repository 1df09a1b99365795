// The result stored into a local variable that is read afterwards (glslang
// without optimization: a store into a Function variable, then a load of
// it): the store is not dead, so the pass keeps the used form.
// RUN: %glslang --target-env vulkan1.2 -V %s -o %t.spv
// RUN: %spirv-dis %t.spv | FileCheck --check-prefix=INPUT %s
// INPUT: %[[A:[0-9]+]] = OpAtomicFMaxEXT %float
// INPUT-NEXT: OpStore %r %[[A]]
// INPUT: OpLoad %float %r
// RUN: %lower-and-check --env vulkan1.2 %t.spv --lower-float-atomic-minmax | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Dst { float dst[]; };
layout(std430, set = 0, binding = 1) buffer Out { float o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  float r = atomicMax(dst[i & 7u], float(i));
  o[i] = r;
}
// CHECK: %[[L:[0-9]+]] = OpAtomicLoad %uint %[[P:[0-9]+]] %uint_1 %uint_0
// CHECK: %[[R1:[0-9]+]] = OpAtomicSMax %uint %[[P]] %uint_1 %uint_0
// CHECK: %[[R2:[0-9]+]] = OpAtomicUMin %uint %[[P]] %uint_1 %uint_0
// CHECK: %[[OLD:[0-9]+]] = OpPhi %uint %[[R1]] %{{[0-9]+}} %[[R2]] %{{[0-9]+}}
// The sticky-NaN test reads the integer atomic's result.
// CHECK-NEXT: OpBitwiseAnd %uint %[[OLD]] %uint_2147483648
// CHECK: OpAtomicCompareExchange %uint %[[P]]
// CHECK: OpFunctionEnd
