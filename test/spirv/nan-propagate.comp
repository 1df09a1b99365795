// nan=propagate: a NaN operand is replaced by the sticky pattern (all ones
// for min) and a NaN found by the early-out load is kept.
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax=nan=propagate | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Dst { float mn; } dst;
layout(std430, set = 0, binding = 1) buffer Vals { float vals[]; };
void main() { atomicMin(dst.mn, vals[gl_GlobalInvocationID.x]); }
// CHECK: %[[V:[0-9]+]] = OpBitcast %uint
// CHECK: %[[VNAN:[0-9]+]] = OpUGreaterThan %bool %{{[0-9]+}} %uint_2139095040
// CHECK: %[[OPND:[0-9]+]] = OpSelect %uint %[[VNAN]] %uint_4294967295 %[[V]]
// CHECK: OpAtomicLoad %uint
// CHECK: OpLogicalOr %bool
// CHECK: OpAtomicSMin %uint %{{[0-9]+}} %uint_1 %uint_0 %[[OPND]]
// CHECK-NOT: OpAtomicCompareExchange
