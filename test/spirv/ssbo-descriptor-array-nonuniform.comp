// A descriptor array indexed non-uniformly: the alias keeps the array shape;
// the helper function rebuilds the access chain on it from the indices it is
// called with (the NonUniform-decorated one first), and the rebuilt chain is
// decorated NonUniform.
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Vals { float vals[]; };
layout(std430, set = 1, binding = 2) buffer Dst { float mn[]; } dst[8];
void main() {
  uint i = gl_GlobalInvocationID.x;
  atomicMin(dst[nonuniformEXT(i & 7u)].mn[i], vals[i]);
}
// CHECK-DAG: OpDecorate %[[ALIAS:[0-9]+]] Binding 2
// CHECK-DAG: OpDecorate %[[ALIAS]] DescriptorSet 1
// CHECK-DAG: OpDecorate %[[IDX:[0-9]+]] NonUniform
// CHECK-DAG: OpDecorate %[[CHAIN:[0-9]+]] NonUniform
// CHECK-DAG: OpDecorate %_runtimearr_uint ArrayStride 4
// CHECK: %[[RTA:[_a-z0-9]+]] = OpTypeRuntimeArray %uint
// CHECK: %[[BLK:[_a-z0-9]+]] = OpTypeStruct %[[RTA]]
// CHECK: %[[DARR:[_a-z0-9]+]] = OpTypeArray %[[BLK]] %uint_8
// CHECK: %[[ALIAS]] = OpVariable
// CHECK: OpFunctionCall %float %[[FN:[0-9]+]] %[[IDX]] %[[I:[0-9]+]] %{{[0-9]+}}
// CHECK: %[[FN]] = OpFunction %float Inline
// CHECK-NEXT: %[[P0:[0-9]+]] = OpFunctionParameter %uint
// CHECK-NEXT: %[[P1:[0-9]+]] = OpFunctionParameter %uint
// CHECK-NEXT: OpFunctionParameter %float
// CHECK: %[[CHAIN]] = OpAccessChain %_ptr_StorageBuffer_uint %[[ALIAS]] %[[P0]] %int_0 %[[P1]]
// CHECK: OpAtomicSMin %uint %[[CHAIN]]
