// Workgroup memory: the variable's float leaves become integers and every
// load and store of it is rewritten with value bitcasts; no alias variable.
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Vals { float vals[]; };
shared float smin[4];
void main() {
  uint i = gl_LocalInvocationID.x;
  if (i < 4u) smin[i] = 1.0;
  barrier();
  atomicMin(smin[i & 3u], vals[gl_GlobalInvocationID.x]);
  barrier();
  if (i < 4u) vals[i] = smin[i];
}
// CHECK-NOT: OpDecorate {{.*}} Aliased
// CHECK: %[[ARR:[_a-z0-9]+]] = OpTypeArray %uint %uint_4
// CHECK: %[[PTR:[_a-zA-Z0-9]+]] = OpTypePointer Workgroup %[[ARR]]
// CHECK: %smin = OpVariable %[[PTR]] Workgroup
// CHECK: %[[ST:[0-9]+]] = OpBitcast %uint %float_1
// CHECK-NEXT: OpStore %{{[0-9]+}} %[[ST]]
// CHECK: OpFunctionCall %float %[[FN:[0-9]+]]
// CHECK: %[[L:[0-9]+]] = OpLoad %uint %{{[0-9]+}}
// CHECK-NEXT: %{{[0-9]+}} = OpBitcast %float %[[L]]
// CHECK: %[[FN]] = OpFunction %float Inline
// CHECK: OpAtomicSMin %uint
