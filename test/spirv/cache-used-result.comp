// A used result gets no bound cache: a skipped operation would have no
// value to return but a stale one.
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Dst { float x[]; } dst;
layout(std430, set = 0, binding = 1) buffer Vals { float v[]; } vals;
void main() {
  uint i = gl_GlobalInvocationID.x;
  float sum = 0.0;
  for (uint k = 0u; k < 64u; ++k)
    sum += atomicMax(dst.x[i & 7u], vals.v[i * 64u + k]);
  vals.v[i] = sum;
}
// CHECK-NOT: Private
// CHECK: OpAtomicLoad %uint
// CHECK: OpFunctionEnd
