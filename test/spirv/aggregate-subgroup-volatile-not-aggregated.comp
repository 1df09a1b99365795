// aggregate=subgroup leaves an atomic on Volatile memory (a volatile buffer:
// OpMemberDecorate ... Volatile) to the per-invocation lowering: every
// invocation's access must happen.  The same shader without `volatile` is
// aggregated (aggregate-subgroup-constant-address.comp).
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax=aggregate=subgroup | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) volatile buffer Dst { float peak; } dst;
layout(std430, binding = 1) buffer Vals { float v[]; } vals;
void main() {
  atomicMax(dst.peak, vals.v[gl_GlobalInvocationID.x]);
}
// CHECK: OpMemberDecorate %Dst 0 Volatile
// CHECK-NOT: GroupNonUniform
// CHECK: OpAtomicSMax
// CHECK-NOT: GroupNonUniform
