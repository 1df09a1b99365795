// The cache-first aggregated form (result unused, cache=on by default) on
// the shapes real pipelines hand over: the helper that returns its value,
// called as a statement, inlined into the loop by `spirv-opt -O` with
// OpLine debug info (glslang -g), and NonSemantic.Shader.DebugInfo.100
// (glslang -gVS).  Both come out valid, with the uniformity test before
// the cache's test and the cache's Private variables in the interface.
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
layout(std430, binding = 3) buffer Par { uint mask; uint iters; } par;
float op(uint a, float v) { return atomicMax(dst.x[a], v); }
void main() {
  uint i = gl_GlobalInvocationID.x;
  for (uint k = 0u; k < par.iters; ++k) {
    uint a = ((i * 2654435761u + k * 40503u) >> 7) & par.mask;
    op(a, vals.v[i] + float(k));
  }
}
// OPT: OpEntryPoint GLCompute %main "main" {{.*}} %[[KEY:[0-9]+]] %[[BOUND:[0-9]+]]{{$}}
// OPT: %[[KEY]] = OpVariable %_ptr_Private_uint Private %uint_0
// OPT: OpLine
// OPT: OpLoopMerge
// OPT: %[[MIN:[0-9]+]] = OpGroupNonUniformUMin %uint %uint_3 Reduce %[[IDX:[0-9]+]]
// OPT-NEXT: %[[MAX:[0-9]+]] = OpGroupNonUniformUMax %uint %uint_3 Reduce %[[IDX]]
// OPT: OpLoad %uint %[[KEY]]
// OPT: OpLoad %uint %[[BOUND]]
// OPT: OpGroupNonUniformUMax %uint %uint_3 Reduce
// OPT: OpGroupNonUniformElect
// OPT: OpStore %[[BOUND]]
// VS: NonSemantic.Shader.DebugInfo.100
// VS: OpGroupNonUniformUMin %uint %uint_3 Reduce
// VS: OpLoad %uint
// VS: OpGroupNonUniformUMax %uint %uint_3 Reduce
// VS: DebugLine
