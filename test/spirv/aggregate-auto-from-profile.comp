// aggregate=auto, the default: an atomic is aggregated where the target
// profile shows the subgroup operations it needs in compute shaders (the
// bundled NVIDIA profile does), and not where nothing is known of them (no
// profile) or where the profile lacks them; aggregate=off turns it off,
// aggregate=subgroup turns it on without a profile but not against one.
// RUN: %lower-and-check --env vulkan1.2 %s --target-profile=%profiles/nvidia-h200.json --lower-float-atomic-minmax | FileCheck --check-prefix=AGG %s
// RUN: %lower-and-check --env vulkan1.2 %s --target-profile=%profiles/nvidia-h200.json --lower-float-atomic-minmax=aggregate=auto | FileCheck --check-prefix=AGG %s
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax | FileCheck --check-prefix=ONE %s
// RUN: %lower-and-check --env vulkan1.2 %s --target-profile=%profiles/nvidia-h200.json --lower-float-atomic-minmax=aggregate=off | FileCheck --check-prefix=ONE %s
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax=aggregate=subgroup | FileCheck --check-prefix=AGG %s
//
// The same profile without VK_SUBGROUP_FEATURE_ARITHMETIC_BIT (in both of
// its property structs): neither auto nor subgroup aggregates.
// RUN: sed '/VK_SUBGROUP_FEATURE_ARITHMETIC_BIT/d' %profiles/nvidia-h200.json > %t.noarith.json
// RUN: %lower-and-check --env vulkan1.2 %s --target-profile=%t.noarith.json --lower-float-atomic-minmax | FileCheck --check-prefix=ONE %s
// RUN: %lower-and-check --env vulkan1.2 %s --target-profile=%t.noarith.json --lower-float-atomic-minmax=aggregate=subgroup | FileCheck --check-prefix=ONE %s
//
// Without VK_SUBGROUP_FEATURE_VOTE_BIT it aggregates: the uniformity test
// is two reductions, not a vote.
// RUN: sed '/VK_SUBGROUP_FEATURE_VOTE_BIT/d' %profiles/nvidia-h200.json > %t.novote.json
// RUN: %lower-and-check --env vulkan1.2 %s --target-profile=%t.novote.json --lower-float-atomic-minmax | FileCheck --check-prefix=AGG %s
//
// Without VK_SUBGROUP_FEATURE_BALLOT_BIT: the used result needs
// BroadcastFirst, so it is not aggregated either.
// RUN: sed '/VK_SUBGROUP_FEATURE_BALLOT_BIT/d' %profiles/nvidia-h200.json > %t.noballot.json
// RUN: %lower-and-check --env vulkan1.2 %s --target-profile=%t.noballot.json --lower-float-atomic-minmax | FileCheck --check-prefix=ONE %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Dst { float x[]; } dst;
layout(std430, binding = 1) buffer Out { float r[]; } res;
void main() {
  uint i = gl_GlobalInvocationID.x;
  res.r[i] = atomicMax(dst.x[i / 64u], float(i));
}
// AGG: OpCapability GroupNonUniformArithmetic
// AGG: OpGroupNonUniformUMin
// AGG: OpGroupNonUniformUMax %uint %uint_3 Reduce
// AGG: OpGroupNonUniformBroadcastFirst
// ONE-NOT: GroupNonUniform
// ONE: OpAtomicSMax
// ONE-NOT: GroupNonUniform
