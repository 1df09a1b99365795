// aggregate=subgroup on one constant address (a global maximum), result
// unused: every invocation of a subgroup hits it, so there is no
// uniformity test (no GroupNonUniformVote), no scan and no broadcast (no
// GroupNonUniformBallot): a reduction, and the lowered atomic in the
// elected invocation only.
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax=aggregate=subgroup | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Dst { float peak; } dst;
layout(std430, binding = 1) buffer Vals { float v[]; } vals;
void main() {
  atomicMin(dst.peak, vals.v[gl_GlobalInvocationID.x]);
}
// CHECK-NOT: GroupNonUniformVote
// CHECK-NOT: GroupNonUniformBallot
// CHECK: OpCapability GroupNonUniform{{$}}
// CHECK: OpCapability GroupNonUniformArithmetic
// CHECK-NOT: OpGroupNonUniformAllEqual
// CHECK: OpGroupNonUniformUMin %uint %uint_3 Reduce
// CHECK: %[[E:[0-9]+]] = OpGroupNonUniformElect %bool %uint_3
// CHECK: OpBranchConditional %[[E]]
// CHECK-NOT: ExclusiveScan
// CHECK-NOT: OpGroupNonUniformBroadcastFirst
// CHECK: OpFunctionEnd
