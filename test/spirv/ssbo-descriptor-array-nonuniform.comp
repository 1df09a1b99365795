// A descriptor array indexed non-uniformly: the alias keeps the array shape
// and the rebuilt access chain uses the same NonUniform-decorated index.
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
// CHECK-DAG: OpDecorate %_runtimearr_uint ArrayStride 4
// CHECK: %[[RTA:[_a-z0-9]+]] = OpTypeRuntimeArray %uint
// CHECK: %[[BLK:[_a-z0-9]+]] = OpTypeStruct %[[RTA]]
// CHECK: %[[DARR:[_a-z0-9]+]] = OpTypeArray %[[BLK]] %uint_8
// CHECK: %[[ALIAS]] = OpVariable
// CHECK: %[[CHAIN:[0-9]+]] = OpAccessChain %_ptr_StorageBuffer_uint %[[ALIAS]] %[[IDX]] %int_0
// CHECK: OpAtomicSMin %uint %[[CHAIN]]
