// OpenCL kernel, strategy=cas.  AcquireRelease (0x8) moves to barriers around
// a Relaxed CAS loop (0x204 Release|CrossWorkgroupMemory before, 0x202 after);
// SequentiallyConsistent (0x10) has no barrier form of its total order, so
// the compare-exchange keeps it and the loads take the acquire part (0x2).
// RUN: %lower-and-check --env spv1.4 %s --lower-float-atomic-minmax=strategy=cas | FileCheck %s
kernel void k(global float *p, global float *q, global float *v) {
  size_t i = get_global_id(0);
  v[i] = __scoped_atomic_fetch_min(p, v[i], __ATOMIC_SEQ_CST, __MEMORY_SCOPE_DEVICE);
  v[i] += __scoped_atomic_fetch_max(q, v[i], __ATOMIC_ACQ_REL, __MEMORY_SCOPE_DEVICE);
}
// CHECK: OpMemoryModel Physical64 OpenCL
// CHECK-NOT: OpMemoryBarrier
// CHECK: OpAtomicLoad %uint %[[P:[0-9]+]] %uint_1 %uint_2
// CHECK-NOT: OpMemoryBarrier
// CHECK: OpAtomicCompareExchange %uint %[[P]] %uint_1 %uint_16 %uint_2
// CHECK-NOT: OpAtomic
// CHECK: OpMemoryBarrier %uint_1 %uint_516
// CHECK-NEXT: OpAtomicLoad %uint %[[Q:[0-9]+]] %uint_1 %uint_0
// CHECK: OpAtomicCompareExchange %uint %[[Q]] %uint_1 %uint_0 %uint_0
// CHECK-NOT: OpAtomic
// CHECK: OpMemoryBarrier %uint_1 %uint_514
// CHECK-NOT: OpAtomicF{{Min|Max}}EXT
