// The cache-first aggregated form (result unused, cache=on by default) on
// the shapes real pipelines hand over: the helper that returns its value,
// called as a statement, inlined into the loop by `spirv-opt -O` with
// OpLine debug info (glslang -g), and NonSemantic.Shader.DebugInfo.100
// (glslang -gVS).  Both come out valid and aggregated, with the uniformity
// test before the cache's test and the cache's Private variables in the
// interface.  (Under -gVS the DebugFunctionDefinition that names the helper
// reads no value; it made the result count as used before.)
// RUN: %glslang -g --target-env vulkan1.2 -V %s -o %t.g.spv
// RUN: %spirv-opt -O %t.g.spv -o %t.gO.spv
// RUN: %lower-and-check --env vulkan1.2 %t.gO.spv --lower-float-atomic-minmax=aggregate=subgroup \
// RUN:   | FileCheck --check-prefix=OPT %s \
// RUN:   --implicit-check-not='{{^ *%[0-9a-zA-Z_]+ = OpAtomicFM(in|ax)EXT}}'
// RUN: %glslang -gVS --target-env vulkan1.2 -V %s -o %t.vs.spv
// RUN: %lower-and-check --env vulkan1.2 %t.vs.spv --lower-float-atomic-minmax=aggregate=subgroup \
// RUN:   | FileCheck --check-prefix=VS %s \
// RUN:   --implicit-check-not='{{^ *%[0-9a-zA-Z_]+ = OpAtomicFM(in|ax)EXT}}'
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Dst { float x[]; } dst;
layout(std430, binding = 1) buffer Vals { float v[]; } vals;
layout(std430, binding = 3) buffer Par { uint mask; uint iters; } par;
float op(uint a, float v) { return atomicMax(dst.x[a], v); }
void main() {
  uint i = gl_GlobalInvocationID.x;
  for (uint k = 0u; k < par.iters; ++k) {
    uint a = ((i * 2654435761u + k * 40503u) >> 7) & par.mask;
    op(a, vals.v[i] + float(k));
  }
}
// -g and -gVS copy this text into the module (OpSource): the patterns start
// at a line's start so that they cannot match these lines, and no float
// atomic is left anywhere in either output (--implicit-check-not).
// OPT: {{^ *}}OpEntryPoint GLCompute %main "main" {{.*}} %[[KEY:[0-9]+]] %[[BOUND:[0-9]+]]{{$}}
// OPT: {{^ *}}%[[KEY]] = OpVariable %_ptr_Private_uint Private %uint_0
// OPT: {{^ *}}OpLine %{{[0-9]+}} {{[0-9]+}} {{[0-9]+$}}
// OPT: {{^ *}}OpLoopMerge
// OPT: {{^ *}}%[[MIN:[0-9]+]] = OpGroupNonUniformUMin %uint %uint_3 Reduce %[[IDX:[0-9]+]]
// OPT-NEXT: {{^ *}}%[[MAX:[0-9]+]] = OpGroupNonUniformUMax %uint %uint_3 Reduce %[[IDX]]
// OPT: {{^ *}}%{{[0-9]+}} = OpLoad %uint %[[KEY]]
// OPT: {{^ *}}%{{[0-9]+}} = OpLoad %uint %[[BOUND]]
// OPT: {{^ *}}%{{[0-9]+}} = OpGroupNonUniformUMax %uint %uint_3 Reduce
// OPT: {{^ *}}%{{[0-9]+}} = OpGroupNonUniformElect
// OPT: {{^ *}}OpStore %[[BOUND]]
// VS: {{^ *}}%{{[0-9]+}} = OpExtInstImport "NonSemantic.Shader.DebugInfo.100"
// VS: {{^ *}}OpEntryPoint GLCompute %main "main" {{.*}} %[[KEY:[0-9]+]] %[[BOUND:[0-9]+]]{{$}}
// VS: {{^ *}}%[[KEY]] = OpVariable %_ptr_Private_uint Private %uint_0
// VS: {{^ *}}%{{[0-9]+}} = OpExtInst %void %{{[0-9]+}} DebugLine
// VS: {{^ *}}%{{[0-9]+}} = OpGroupNonUniformUMin %uint %uint_3 Reduce %[[IDX:[0-9]+]]
// VS-NEXT: {{^ *}}%{{[0-9]+}} = OpGroupNonUniformUMax %uint %uint_3 Reduce %[[IDX]]
// VS: {{^ *}}%{{[0-9]+}} = OpLoad %uint %[[KEY]]
// VS: {{^ *}}%{{[0-9]+}} = OpLoad %uint %[[BOUND]]
// VS: {{^ *}}%{{[0-9]+}} = OpGroupNonUniformElect
// VS: {{^ *}}OpStore %[[BOUND]]
