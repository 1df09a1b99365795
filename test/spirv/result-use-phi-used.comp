// The result read through an OpPhi (after `spirv-opt -O`: the local r
// becomes a phi of 0.0 and the atomic's result, stored to a buffer): the
// value is used, so the pass keeps the used form (the NaN fix-up reads the
// integer atomic's result), although a dead store of it remains too.
// RUN: %glslang --target-env vulkan1.2 -V %s -o %t.spv
// RUN: %spirv-opt -O %t.spv -o %t.opt.spv
// RUN: %spirv-dis %t.opt.spv | FileCheck --check-prefix=INPUT %s
// INPUT: %[[A:[0-9]+]] = OpAtomicFMaxEXT %float
// INPUT: %[[PHI:[0-9]+]] = OpPhi %float %float_0 %{{[0-9]+}} %[[A]] %{{[0-9]+}}
// INPUT: OpStore %{{[0-9]+}} %[[PHI]]
// RUN: %lower-and-check --env vulkan1.2 %t.opt.spv --lower-float-atomic-minmax | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Dst { float dst[]; };
layout(std430, set = 0, binding = 1) buffer Out { float o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  float r = 0.0;
  if ((i & 1u) == 0u)
    r = atomicMax(dst[i & 7u], float(i));
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
