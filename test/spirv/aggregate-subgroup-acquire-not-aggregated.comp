// aggregate=subgroup leaves atomics with Acquire or AcquireRelease semantics
// to the per-invocation lowering: the
// invocations that would not do an atomic of their own would not perform
// their acquire (aggregate-subgroup-release-not-aggregated.comp: release).
// No group operation, no GroupNonUniform capability.
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax=aggregate=subgroup | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Dst { float a, b; } dst;
void main() {
  float v = float(gl_GlobalInvocationID.x);
  atomicMax(dst.a, v, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire);
  atomicMax(dst.b, v, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
}
// CHECK-NOT: GroupNonUniform
// CHECK-COUNT-2: OpAtomicSMax
// CHECK-NOT: GroupNonUniform
