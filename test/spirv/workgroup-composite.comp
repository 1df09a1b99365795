// A Workgroup struct loaded and stored whole: composite values are converted
// element by element (vectors in one bitcast), integer members untouched.
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Vals { float vals[]; };
struct S { float a; uint n; vec2 b; };
shared S s;
void main() {
  if (gl_LocalInvocationID.x == 0u) s = S(0.0, 0u, vec2(1.0));
  barrier();
  atomicMax(s.a, vals[gl_GlobalInvocationID.x]);
  atomicAdd(s.n, 1u);
  barrier();
  S copy = s;
  vals[gl_GlobalInvocationID.x] = copy.a + copy.b.y + float(copy.n);
}
// CHECK: %[[S:[_a-z0-9]+]] = OpTypeStruct %uint %uint %v2uint
// CHECK: %s = OpVariable %{{[_a-zA-Z0-9]+}} Workgroup
// CHECK: OpCompositeExtract %float
// CHECK: OpBitcast %uint
// CHECK: OpCompositeExtract %v2float
// CHECK: OpBitcast %v2uint
// CHECK: OpCompositeConstruct %[[S]]
// CHECK: OpFunctionCall %float %[[FN:[0-9]+]]
// CHECK: OpAtomicIAdd %uint
// CHECK: %[[L:[0-9]+]] = OpLoad %[[S]] %s
// CHECK: OpCompositeExtract %uint %[[L]] 0
// CHECK: OpBitcast %float
// CHECK: OpCompositeConstruct %S
// CHECK: %[[FN]] = OpFunction %float Inline
// CHECK: OpAtomicSMax %uint
