// nan=fast: no NaN tests at all; the early-out compare and one atomic.
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax=nan=fast | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Dst { float mn; } dst;
void main() { atomicMin(dst.mn, float(gl_GlobalInvocationID.x)); }
// CHECK-NOT: %uint_2139095040
// CHECK-NOT: OpAtomicCompareExchange
// CHECK: OpAtomicLoad %uint
// CHECK: OpUGreaterThanEqual %bool
// CHECK: OpAtomicSMin %uint
// CHECK: OpAtomicUMax %uint
