// aggregate=subgroup on the shapes real pipelines hand over: the helper
// function inlined into the loop by `spirv-opt -O` with OpLine debug info
// (glslang -g), and NonSemantic.Shader.DebugInfo.100 (glslang -gVS).  Both
// come out valid and aggregated, with their debug info kept.  (Not -gVS
// through `spirv-opt -O`: SPIRV-Tools 2023.1 makes that module invalid
// itself, so fatomic-opt refuses it as invalid input.)
// RUN: %glslang -g --target-env vulkan1.2 -V %s -o %t.g.spv
// RUN: %spirv-opt -O %t.g.spv -o %t.gO.spv
// RUN: %lower-and-check --env vulkan1.2 %t.gO.spv --lower-float-atomic-minmax=aggregate=subgroup | FileCheck --check-prefix=OPT %s
// RUN: %glslang -gVS --target-env vulkan1.2 -V %s -o %t.vs.spv
// RUN: %lower-and-check --env vulkan1.2 %t.vs.spv --lower-float-atomic-minmax=aggregate=subgroup | FileCheck --check-prefix=VS %s
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
// OPT: OpLoopMerge
// OPT: OpGroupNonUniformUMin %uint %uint_3 Reduce
// OPT: OpGroupNonUniformUMax %uint %uint_3 Reduce
// OPT: OpGroupNonUniformElect
// OPT: OpGroupNonUniformBroadcastFirst
// OPT: OpGroupNonUniformUMax %uint %uint_3 ExclusiveScan
// OPT: OpLine
// VS: NonSemantic.Shader.DebugInfo.100
// VS: OpGroupNonUniformUMax %uint %uint_3 Reduce
// VS: DebugLine
