// Workgroup memory that only lowered atomicMax writes (retyped to uint):
// the bound cache applies as on a buffer, and in SPIR-V 1.5 the Private
// variables join the interface beside the Workgroup variable.
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 1) readonly buffer Vals { float v[]; } vals;
shared float peak[4];
void main() {
  uint i = gl_LocalInvocationID.x;
  for (uint k = 0u; k < 16u; ++k)
    atomicMax(peak[i & 3u], vals.v[i * 16u + k]);
}
// CHECK: OpEntryPoint GLCompute %main "main" {{.*}}%peak {{.*}}%[[KEY:[0-9]+]] %[[BOUND:[0-9]+]]{{$}}
// CHECK: %peak = OpVariable %_ptr_Workgroup__arr_uint_uint_4 Workgroup
// CHECK: %[[KEY]] = OpVariable %_ptr_Private_uint Private %uint_0
// CHECK: %[[BOUND]] = OpVariable %_ptr_Private_uint Private %uint_0
// CHECK: OpLoad %uint %[[BOUND]]
// CHECK: OpAtomicLoad %uint
// CHECK: OpStore %[[BOUND]]
