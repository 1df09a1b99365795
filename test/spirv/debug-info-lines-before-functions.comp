// glslang -gVS writes an OpLine before each OpFunction, the first one right
// after the globals.  The lowering adds its types and constants before that
// line, and each line stays in front of its function, so spirv-opt's passes
// that run after the lowering (-O, --compact-ids, ADCE) leave a valid module.
// (Before, the new globals followed the first function's line and the line
// of the second function moved up among the globals; spirv-opt then wrote
// DebugNoLine among the globals, which is invalid.)
// RUN: %glslang -gVS --target-env vulkan1.2 -V %s -o %t.spv
// RUN: %lower-and-check --env vulkan1.2 %t.spv --lower-float-atomic-minmax | FileCheck %s
// RUN: %lower-and-check --env vulkan1.2 %t.spv --lower-float-atomic-minmax -O | FileCheck --check-prefix=PASSES %s
// RUN: %lower-and-check --env vulkan1.2 %t.spv --lower-float-atomic-minmax --compact-ids | FileCheck --check-prefix=PASSES %s
// RUN: %lower-and-check --env vulkan1.2 %t.spv --lower-float-atomic-minmax --eliminate-dead-code-aggressive | FileCheck --check-prefix=PASSES %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Dst { float x[]; } dst;
layout(std430, binding = 1) buffer Vals { float v[]; } vals;
float op(uint a, float v) { return atomicMax(dst.x[a], v); }
void main() {
  uint i = gl_GlobalInvocationID.x;
  vals.v[i] = op(i & 7u, vals.v[i]);
}
// -gVS copies this text into the module: the patterns start at a line's
// start so that they do not match themselves.
// CHECK: {{^ *}}%uint_4294967295 = OpConstant %uint 4294967295
// CHECK-NEXT: {{^ *}}OpLine %[[F:[0-9]+]] 19 11
// CHECK-NEXT: {{^ *}}%main = OpFunction %void None
// CHECK: {{^ *}}OpFunctionEnd
// CHECK-NEXT: {{^ *}}OpLine %[[F]] 18 25
// CHECK-NEXT: {{^ *}}%op_u1_f1_ = OpFunction %float None
// PASSES-NOT: {{^ *}}%{{[0-9]+}} = OpAtomicFMaxEXT
// PASSES: {{^ *}}%{{[0-9]+}} = OpAtomicSMax %uint
