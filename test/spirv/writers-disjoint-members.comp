// Writers of other members of the same buffer do not count: atomicMin on
// `lo`, atomicMax on `hi` and atomicAdd on `n` write disjoint memory (their
// access chains differ in a constant member index), so both float atomics
// keep the cheaper form (NaN fix-up decided from the early-out's load, the
// integer atomics' results unused).  With an unknown index the analysis
// could not tell them apart: see writers-exchange-number-unused.comp.
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax=outline=off | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Bounds { float lo; float hi; uint n; } b;
void main() {
  float v = float(gl_GlobalInvocationID.x);
  atomicMin(b.lo, v);
  atomicMax(b.hi, v);
  atomicAdd(b.n, 1u);
}
// CHECK: %[[L1:[0-9]+]] = OpAtomicLoad %uint %[[P1:[0-9]+]] %uint_1 %uint_0
// CHECK: OpBitwiseAnd %uint %[[L1]] %uint_2147483648
// CHECK: %[[A1:[0-9]+]] = OpAtomicSMin %uint %[[P1]] %uint_1 %uint_0
// CHECK: %[[B1:[0-9]+]] = OpAtomicUMax %uint %[[P1]] %uint_1 %uint_0
// CHECK-NOT: %[[A1]]
// CHECK-NOT: %[[B1]]
// CHECK: %[[L2:[0-9]+]] = OpAtomicLoad %uint %[[P2:[0-9]+]] %uint_1 %uint_0
// CHECK: OpBitwiseAnd %uint %[[L2]] %uint_2147483648
// CHECK: %[[A2:[0-9]+]] = OpAtomicSMax %uint %[[P2]] %uint_1 %uint_0
// CHECK: %[[B2:[0-9]+]] = OpAtomicUMin %uint %[[P2]] %uint_1 %uint_0
// CHECK-NOT: %[[A2]]
// CHECK-NOT: %[[B2]]
// CHECK: OpAtomicIAdd %uint
// CHECK: OpFunctionEnd
