// f32 and f64 atomic max on the same bytes, through two blocks at one
// binding: each is a writer of the other's memory that is not a lowered
// atomic of its kind (the order maps differ), so neither gets the
// proof-dependent forms; here that shows as no bound cache (no Private
// variables).  (Before, kinds were told apart by op only, and the f32
// loop got a cache that an f64 max could make stale.)
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax | FileCheck %s
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax=writers=module | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer D32 { float x[]; } d32;
layout(std430, set = 0, binding = 0) buffer D64 { double y[]; } d64;
layout(std430, set = 0, binding = 1) readonly buffer Vals { float v[]; } vals;
void main() {
  uint i = gl_GlobalInvocationID.x;
  for (uint k = 0u; k < 64u; ++k)
    atomicMax(d32.x[i & 7u], vals.v[i * 64u + k]);
  atomicMax(d64.y[i & 3u], double(vals.v[i]));
}
// CHECK-NOT: Private
// CHECK: OpAtomicLoad %uint
// CHECK-NOT: Private
// CHECK: OpAtomicLoad %ulong
// CHECK-NOT: Private
