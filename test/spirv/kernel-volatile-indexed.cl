// A volatile kernel argument: clang decorates the parameter Volatile, and
// an atomic on an element reaches it through OpInBoundsPtrAccessChain.  No
// early-out for either atomic (a volatile read-modify-write is not to be
// replaced by a plain load); before, only the atomic on the parameter
// itself lost its early-out, and the one on x[i] kept it.  The atomic on the
// non-volatile y[i] keeps its early-out.
// RUN: %lower-and-check --env spv1.4 %s --lower-float-atomic-minmax=outline=off | FileCheck %s
kernel void k(volatile global atomic_float *x, global atomic_float *y,
              global float *o, float v) {
  size_t i = get_global_id(0);
  __opencl_atomic_fetch_max(&x[i], v, memory_order_relaxed, memory_scope_device);
  o[i] = __opencl_atomic_fetch_min(x, v, memory_order_relaxed, memory_scope_device);
  __opencl_atomic_fetch_max(&y[i], v, memory_order_relaxed, memory_scope_device);
}
// Each atomic starts at its pointer's bitcast; an early-out loads before
// the integer atomic.
// CHECK-LABEL: %k = OpFunction
// CHECK: OpBitcast %_ptr_CrossWorkgroup_uint
// CHECK-NOT: OpAtomicLoad
// CHECK: OpAtomicSMax %uint
// CHECK: OpBitcast %_ptr_CrossWorkgroup_uint
// CHECK-NOT: OpAtomicLoad
// CHECK: OpAtomicSMin %uint
// CHECK: OpBitcast %_ptr_CrossWorkgroup_uint
// CHECK-NOT: OpAtomicSMax
// CHECK: OpAtomicLoad %uint
// CHECK: OpAtomicSMax %uint
