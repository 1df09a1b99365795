// A plain store to the same buffer: memory may move down, so a bound seen
// once is no bound later, and there is no bound cache (the writer analysis
// withholds it like the other proof-dependent forms).
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Dst { float x[]; } dst;
layout(std430, set = 0, binding = 1) readonly buffer Vals { float v[]; } vals;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i == 0u)
    dst.x[3] = -1.0;
  for (uint k = 0u; k < 64u; ++k)
    atomicMax(dst.x[i & 7u], vals.v[i * 64u + k]);
}
// CHECK-NOT: Private
// CHECK: OpAtomicLoad %uint
// CHECK-NOT: Private
