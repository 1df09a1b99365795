// Acquire semantics keep the early-out (an atomic load with the same
// semantics) but get no bound cache: an acquire needs the load that the
// cache would skip.
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Dst { float x[]; } dst;
layout(std430, set = 0, binding = 1) readonly buffer Vals { float v[]; } vals;
void main() {
  uint i = gl_GlobalInvocationID.x;
  for (uint k = 0u; k < 64u; ++k)
    atomicMax(dst.x[i & 7u], vals.v[i * 64u + k], gl_ScopeDevice,
              gl_StorageSemanticsBuffer, gl_SemanticsAcquire);
}
// CHECK-NOT: Private
// CHECK: OpAtomicLoad %uint %{{[0-9]+}} %int_1 %uint_66
// CHECK-NOT: Private
