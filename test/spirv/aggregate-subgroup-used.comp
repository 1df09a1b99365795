// aggregate=subgroup, result used, address from a run-time index: the
// index is tested for equality across the subgroup (its minimum and
// maximum agree; no vote); where it is equal the
// operands are reduced in the U order, the elected invocation does the
// lowered atomic, and each invocation's result is rebuilt from the atomic's
// result (broadcast) and an exclusive scan of the keys.  Otherwise the
// per-invocation lowering.  The capabilities come with it.
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax=aggregate=subgroup > %t.spvasm
// RUN: FileCheck %s < %t.spvasm
// RUN: FileCheck --check-prefix=NOVOTE %s < %t.spvasm
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Dst { float x[]; } dst;
layout(std430, binding = 1) buffer Out { float r[]; } res;
void main() {
  uint i = gl_GlobalInvocationID.x;
  res.r[i] = atomicMax(dst.x[i / 64u], float(i));
}
// CHECK-DAG: OpCapability GroupNonUniform{{$}}
// CHECK-DAG: OpCapability GroupNonUniformArithmetic
// CHECK-DAG: OpCapability GroupNonUniformBallot
// NOVOTE-NOT: GroupNonUniformVote
// CHECK: %[[MIN:[0-9]+]] = OpGroupNonUniformUMin %uint %uint_3 Reduce %[[IDX:[0-9]+]]
// CHECK-NEXT: %[[MAX:[0-9]+]] = OpGroupNonUniformUMax %uint %uint_3 Reduce %[[IDX]]
// CHECK-NEXT: %[[EQ:[0-9]+]] = OpIEqual %bool %[[MIN]] %[[MAX]]
// CHECK: OpBranchConditional %[[EQ]] %[[AGG:[0-9]+]] %[[ONE:[0-9]+]]
// CHECK: %[[AGG]] = OpLabel
// CHECK: %[[R:[0-9]+]] = OpGroupNonUniformUMax %uint %uint_3 Reduce %[[KEY:[0-9]+]]
// CHECK: %[[E:[0-9]+]] = OpGroupNonUniformElect %bool %uint_3
// CHECK: OpBranchConditional %[[E]]
// CHECK: OpAtomicSMax
// CHECK: OpGroupNonUniformBroadcastFirst %float %uint_3
// CHECK: OpGroupNonUniformUMax %uint %uint_3 ExclusiveScan %[[KEY]]
// CHECK: %[[ONE]] = OpLabel
// CHECK: OpAtomicSMax
// CHECK: OpPhi %float
