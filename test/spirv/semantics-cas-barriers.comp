// strategy=cas with AcquireRelease|WorkgroupMemory (0x108) on Workgroup
// memory: the CAS loop's atomics are Relaxed, between a release barrier
// (0x104: Release|WorkgroupMemory) and an acquire barrier (0x102), both of
// the atomic's scope.  The input names a storage class: Acquire/Release
// semantics that name none are invalid in Vulkan
// (VUID-StandaloneSpirv-MemorySemantics-10870).
// RUN: %glslang --target-env vulkan1.2 -V %s -o %t.spv
// RUN: %spirv-dis %t.spv | FileCheck --check-prefix=INPUT %s
// INPUT: OpAtomicFMaxEXT %float %{{[0-9]+}} %int_2 %uint_264
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax=strategy=cas | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 64) in;
shared float s[64];
layout(std430, set = 0, binding = 0) buffer Dst { float mx[]; } dst;
void main() {
  uint i = gl_LocalInvocationID.x;
  s[i] = 0.0;
  barrier();
  float r = atomicMax(s[63 - i], float(i), gl_ScopeWorkgroup, gl_StorageSemanticsShared,
                      gl_SemanticsAcquireRelease);
  barrier();
  dst.mx[i] = s[i] + r;
}
// CHECK: OpControlBarrier
// CHECK-NOT: OpAtomic
// CHECK: OpMemoryBarrier %int_2 %uint_260
// CHECK-NEXT: OpAtomicLoad %uint %[[P:[0-9]+]] %int_2 %uint_0
// CHECK: OpLoopMerge %[[MERGE:[0-9]+]]
// CHECK-NOT: OpMemoryBarrier
// CHECK: OpAtomicCompareExchange %uint %[[P]] %int_2 %uint_0 %uint_0
// CHECK-NOT: OpMemoryBarrier
// CHECK: %[[MERGE]] = OpLabel
// CHECK-NEXT: OpMemoryBarrier %int_2 %uint_258
// CHECK-NOT: OpAtomic
// CHECK: OpFunctionEnd
