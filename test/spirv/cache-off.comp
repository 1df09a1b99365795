// cache=off: the same loop as cache-bound-loop.comp, no bound cache (no
// Private variable); the early-out's load comes first.
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax=cache=off | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Dst { float x[]; } dst;
layout(std430, set = 0, binding = 1) readonly buffer Vals { float v[]; } vals;
void main() {
  uint i = gl_GlobalInvocationID.x;
  for (uint k = 0u; k < 64u; ++k)
    atomicMax(dst.x[(i >> 5) & 7u], vals.v[i * 64u + k]);
}
// CHECK-NOT: Private
// CHECK: OpFunction %float Inline
// CHECK-NOT: OpLoad
// CHECK: OpAtomicLoad %uint
// CHECK-NOT: Private
