// aggregate=subgroup on the shapes real pipelines hand over: the helper
// function inlined into the loop by `spirv-opt -O` with OpLine debug info
// (glslang -g), and NonSemantic.Shader.DebugInfo.100 (glslang -gVS).  Both
// come out valid and aggregated, with their debug info kept.  (Not -gVS
// through `spirv-opt -O`: SPIRV-Tools 2023.1 makes that module invalid
// itself, so fatomic-opt refuses it as invalid input.)
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
layout(std430, binding = 2) buffer Out { float r[]; } res;
layout(std430, binding = 3) buffer Par { uint mask; uint iters; } par;
float op(uint a, float v) { return atomicMax(dst.x[a], v); }
void main() {
  uint i = gl_GlobalInvocationID.x;
  float acc = 0.0;
  for (uint k = 0u; k < par.iters; ++k) {
    uint a = ((i * 2654435761u + k * 40503u) >> 7) & par.mask;
    acc += op(a, vals.v[i] + float(k));
  }
  res.r[i] = acc;
}
// -g and -gVS copy this text into the module (OpSource): the patterns start
// at a line's start so that they cannot match these lines, and no float
// atomic is left anywhere in either output (--implicit-check-not).
// The inlined loop keeps its OpLines in main; the aggregated form is in the
// outlined helper after it.
// OPT: {{^ *}}OpLine %{{[0-9]+}} {{[0-9]+}} {{[0-9]+$}}
// OPT: {{^ *}}OpLoopMerge
// OPT: {{^ *}}%{{[0-9]+}} = OpGroupNonUniformUMin %uint %uint_3 Reduce
// OPT: {{^ *}}%{{[0-9]+}} = OpGroupNonUniformUMax %uint %uint_3 Reduce
// OPT: {{^ *}}%{{[0-9]+}} = OpGroupNonUniformElect
// OPT: {{^ *}}%{{[0-9]+}} = OpGroupNonUniformBroadcastFirst
// OPT: {{^ *}}%{{[0-9]+}} = OpGroupNonUniformUMax %uint %uint_3 ExclusiveScan
// The same with -gVS's DebugLines.
// VS: {{^ *}}%{{[0-9]+}} = OpExtInstImport "NonSemantic.Shader.DebugInfo.100"
// VS: {{^ *}}%{{[0-9]+}} = OpExtInst %void %{{[0-9]+}} DebugLine
// VS: {{^ *}}%{{[0-9]+}} = OpGroupNonUniformUMin %uint %uint_3 Reduce
// VS: {{^ *}}%{{[0-9]+}} = OpGroupNonUniformUMax %uint %uint_3 Reduce
// VS: {{^ *}}%{{[0-9]+}} = OpGroupNonUniformElect
