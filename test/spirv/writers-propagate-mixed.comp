// nan=propagate with atomicMin and atomicMax on one address: min's sticky
// NaN pattern is not sticky for max's integer atomic, so neither gets the
// single-RMW form; both are CAS loops that keep a NaN found in memory.
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax=nan=propagate | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Dst { float x; } dst;
layout(std430, set = 0, binding = 1) buffer Vals { float v[]; } vals;
void main() {
  float v = vals.v[gl_GlobalInvocationID.x];
  if ((gl_GlobalInvocationID.x & 1u) == 0u)
    atomicMin(dst.x, v);
  else
    atomicMax(dst.x, v);
}
// CHECK-NOT: OpAtomicSMin
// CHECK-NOT: OpAtomicSMax
// CHECK-NOT: OpAtomicUMin
// CHECK-NOT: OpAtomicUMax
// CHECK: OpLoopMerge
// CHECK: OpAtomicCompareExchange %uint
// CHECK: OpLoopMerge
// CHECK: OpAtomicCompareExchange %uint
// CHECK-NOT: OpAtomicSMin
// CHECK-NOT: OpAtomicSMax
// CHECK-NOT: OpAtomicUMin
// CHECK-NOT: OpAtomicUMax
