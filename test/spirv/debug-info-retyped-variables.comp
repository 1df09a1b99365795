// Shader debug information (glslangValidator -gVS,
// NonSemantic.Shader.DebugInfo.100) names the Workgroup variable and the
// image that are retyped to integers: the DebugGlobalVariables keep naming
// them (their memory still holds the float bits that the debug types
// describe) and move after the retyped variables, which move after their
// new types.
// RUN: %glslang --target-env vulkan1.2 -gVS %s -o %t.spv
// RUN: %spirv-dis %t.spv | FileCheck --check-prefix=INPUT %s
// RUN: %lower-and-check --env vulkan1.2 %t.spv --lower-float-atomic-minmax=images=retype \
// RUN:   | FileCheck %s --implicit-check-not='{{^ *%[0-9a-zA-Z_]+ = OpAtomicFM(in|ax)EXT}}'
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Vals { float vals[]; };
layout(set = 0, binding = 1, r32f) uniform image2D img;
shared float m;
void main() {
  if (gl_LocalInvocationID.x == 0u) m = -1.0 / 0.0;
  barrier();
  float v = vals[gl_GlobalInvocationID.x];
  atomicMax(m, v);
  imageAtomicMin(img, ivec2(gl_LocalInvocationID.xy), v);
  barrier();
  if (gl_LocalInvocationID.x == 0u) vals[gl_WorkGroupID.x] = m;
}
// -gVS copies this text into the module (OpSource): the patterns start at a
// line's start so that they cannot match these lines; no float atomic is
// left anywhere in the output (--implicit-check-not).
// INPUT: {{^ *}}%{{[0-9]+}} = OpExtInst %void %{{[0-9]+}} DebugGlobalVariable {{.*}} %m %
// INPUT: {{^ *}}%{{[0-9]+}} = OpExtInst %void %{{[0-9]+}} DebugGlobalVariable {{.*}} %img %
// CHECK-DAG: {{^ *}}%m = OpVariable %_ptr_Workgroup_uint Workgroup
// CHECK-DAG: {{^ *}}%img = OpVariable %{{[_a-zA-Z0-9]+}} UniformConstant
// CHECK-DAG: {{^ *}}%{{[0-9]+}} = OpExtInst %void %{{[0-9]+}} DebugGlobalVariable {{.*}} %m %
// CHECK-DAG: {{^ *}}%{{[0-9]+}} = OpExtInst %void %{{[0-9]+}} DebugGlobalVariable {{.*}} %img %
// CHECK-DAG: {{^ *}}%{{[0-9]+}} = OpAtomicSMax %uint
// CHECK-DAG: {{^ *}}%{{[0-9]+}} = OpAtomicUMin %uint
