// nan=propagate, early-out on, and a plain store to the same Workgroup
// variable of a value that may be a NaN (read from a buffer): a NaN another
// writer stores is not sticky for the integer atomic, so the atomic is a CAS
// loop (which skips its exchange when nothing changes) instead of the
// single-RMW form, although the store comes before a barrier.  (A constant
// without NaNs stored there keeps the single RMW: shared-init-barrier-exec.)
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax=nan=propagate | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Dst { float x; } dst;
shared float s;
void main() {
  if (gl_LocalInvocationIndex == 0u)
    s = dst.x;
  barrier();
  atomicMin(s, float(gl_LocalInvocationIndex));
  barrier();
  if (gl_LocalInvocationIndex == 0u)
    dst.x = s;
}
// CHECK-NOT: OpAtomicSMin
// CHECK-NOT: OpAtomicUMax
// CHECK: OpAtomicLoad %uint
// CHECK: OpLoopMerge
// CHECK: OpBranchConditional
// CHECK: OpAtomicCompareExchange %uint
// CHECK-NOT: OpAtomicSMin
// CHECK-NOT: OpAtomicUMax
