// A descriptor array indexed by one run-time id on both paths (spirv-opt -O
// merges the two loads of k): the atomic on bufs[k].a and the exchange on
// bufs[k].b are not apart, since another workgroup's k names another
// descriptor, which may be bound 256 bytes further into the same buffer,
// where its a is this b.  So no proof: no bound cache (no Private
// variable), and the NaN fix-up is decided from the integer atomic's own
// result.  (Before, the same id was taken for the same descriptor.)
// RUN: %glslang --target-env vulkan1.2 -V %s -o %t.spv
// RUN: %spirv-opt -O %t.spv -o %t.O.spv
// RUN: %lower-and-check --env vulkan1.2 %t.O.spv --lower-float-atomic-minmax | FileCheck %s
// RUN: %lower-and-check --env vulkan1.2 %t.O.spv --lower-float-atomic-minmax=writers=any > %t.any
// RUN: %lower-and-check --env vulkan1.2 %t.O.spv --lower-float-atomic-minmax > %t.module
// RUN: diff %t.any %t.module
// CHECK-NOT: Private
// CHECK: OpAtomicLoad
// CHECK: OpAtomicSMax
#version 450
#extension GL_EXT_shader_atomic_float : require
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer B { float a; float pad[63]; float b; } bufs[2];
void main() {
  uint k = gl_WorkGroupID.x & 1u;
  atomicMax(bufs[k].a, float(gl_LocalInvocationIndex));
  atomicExchange(bufs[k].b, uintBitsToFloat(0x7fc00000u));
}
