// early-out=off, result used: no atomic load before the dispatched atomic;
// the number fix-up is decided from the atomic's result.
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax=early-out=off | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Dst { float mx; } dst;
layout(std430, set = 0, binding = 1) buffer Out { float o[]; };
void main() { o[gl_GlobalInvocationID.x] = atomicMax(dst.mx, float(gl_GlobalInvocationID.x)); }
// CHECK-NOT: OpAtomicLoad
// CHECK: OpAtomicSMax %uint
// CHECK: OpAtomicUMin %uint
// The number policy's NaN fix-up loop starts with an atomic load.
// CHECK: OpAtomicLoad %uint
// CHECK: OpAtomicCompareExchange
