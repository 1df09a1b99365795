// An OpenCL kernel from clang-22 (Physical64 addressing): pointer bitcasts
// to integer pointers in CrossWorkgroup and Workgroup memory; f64 included.
// RUN: %lower-and-check --env spv1.4 %s --lower-float-atomic-minmax | FileCheck %s
kernel void k(global float *p, global double *d, local float *l, global float *v) {
  size_t i = get_global_id(0);
  __scoped_atomic_fetch_min(p, v[i], __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
  __scoped_atomic_fetch_max(d, (double)v[i], __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
  v[i] = __scoped_atomic_fetch_min(l, v[i], __ATOMIC_RELAXED, __MEMORY_SCOPE_WRKGRP);
}
// CHECK: OpCapability Int64Atomics
// CHECK-NOT: AtomicFloat
// CHECK: OpMemoryModel Physical64 OpenCL
// CHECK: OpBitcast %_ptr_CrossWorkgroup_uint
// CHECK: OpAtomicSMin %uint
// CHECK: OpBitcast %_ptr_CrossWorkgroup_ulong
// CHECK: OpAtomicSMax %ulong
// CHECK: OpBitcast %_ptr_Workgroup_uint
// CHECK: OpAtomicUMax %uint
// CHECK-NOT: OpAtomicF{{Min|Max}}EXT
