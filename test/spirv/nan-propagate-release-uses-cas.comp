// nan=propagate without a legal early-out: a foreign NaN in memory could be
// displaced by a dispatched atomic, so the CAS loop is used instead.
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax=nan=propagate,early-out=off | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Dst { float mx; } dst;
void main() { atomicMax(dst.mx, float(gl_GlobalInvocationID.x)); }
// CHECK-NOT: OpAtomicSMax
// CHECK-NOT: OpAtomicUMin
// CHECK: OpLoopMerge
// CHECK: OpSelect %uint %{{[0-9]+}} %uint_2147483647
// CHECK: OpAtomicCompareExchange %uint
