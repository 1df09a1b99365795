// Vulkan 1.0 style SSBO (Uniform + BufferBlock): the alias block keeps
// BufferBlock and the Uniform storage class.
// RUN: %lower-and-check --env vulkan1.0 %s --lower-float-atomic-minmax | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 1) buffer Dst { float mx; } dst;
void main() {
  atomicMax(dst.mx, float(gl_GlobalInvocationID.x));
}
// CHECK-DAG: OpDecorate %[[BLK:[_a-z0-9]+]] BufferBlock
// CHECK-DAG: OpDecorate %[[ALIAS:[0-9]+]] Aliased
// CHECK: %[[BLK]] = OpTypeStruct %uint
// CHECK: %[[ALIAS]] = OpVariable %{{[_a-zA-Z0-9]+}} Uniform
// CHECK: OpAccessChain %_ptr_Uniform_uint %[[ALIAS]]
// CHECK: OpAtomicSMax %uint
