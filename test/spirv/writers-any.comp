// writers=any: other shaders may write the memory, so no atomic gets the
// proof-dependent form: with the result unused, the NaN fix-up is still
// decided from the integer atomic's result (compare
// unused-result-early-out.comp, the same shader with writers=module).
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax=writers=any | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Dst { float mx; } dst;
void main() { atomicMax(dst.mx, float(gl_GlobalInvocationID.x)); }
// CHECK: OpAtomicLoad %uint %[[P:[0-9]+]] %uint_1 %uint_0
// CHECK: %[[R1:[0-9]+]] = OpAtomicSMax %uint %[[P]] %uint_1 %uint_0
// CHECK: %[[R2:[0-9]+]] = OpAtomicUMin %uint %[[P]] %uint_1 %uint_0
// CHECK: %[[OLD:[0-9]+]] = OpPhi %uint %[[R1]] %{{[0-9]+}} %[[R2]] %{{[0-9]+}}
// CHECK-NEXT: OpBitwiseAnd %uint %[[OLD]] %uint_2147483648
// CHECK: OpFunctionEnd
