// aggregate=subgroup leaves an atomic with Release semantics to the
// per-invocation lowering: the invocations that would not do an atomic of
// their own would not perform their release.  No group operation, no
// GroupNonUniform capability.
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax=aggregate=subgroup | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Dst { float peak; } dst;
void main() {
  atomicMax(dst.peak, float(gl_GlobalInvocationID.x), gl_ScopeDevice,
            gl_StorageSemanticsBuffer, gl_SemanticsRelease);
}
// CHECK-NOT: GroupNonUniform
// CHECK: OpAtomicSMax
// CHECK-NOT: GroupNonUniform
