// aggregate=subgroup needs SPIR-V 1.3 (group non-uniform operations): the
// shader of aggregate-subgroup-constant-address.comp compiled for Vulkan 1.0
// (SPIR-V 1.0) gets the per-invocation lowering and stays valid for
// vulkan1.0.
// RUN: %lower-and-check --env vulkan1.0 %s --lower-float-atomic-minmax=aggregate=subgroup | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Dst { float peak; } dst;
layout(std430, binding = 1) buffer Vals { float v[]; } vals;
void main() {
  atomicMax(dst.peak, vals.v[gl_GlobalInvocationID.x]);
}
// CHECK: ; Version: 1.0
// CHECK-NOT: GroupNonUniform
// CHECK: OpAtomicSMax
// CHECK-NOT: GroupNonUniform
