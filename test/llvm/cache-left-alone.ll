; Functions the bound cache leaves alone (BoundCache.h): a skipped atomic
; is exact only where the thread synchronizes with nothing and touches the
; memory only through the cached atomics.  Each function below breaks one
; condition, and its atomics are lowered without the cache's test: not a
; kernel; one atomic that no loop repeats; an ordering above monotonic; a
; fence between the atomics, or before them (a release there would let a
; reader synchronize with a skipped atomic); a barrier (a call); another
; atomic; an atomic load; a store to memory other than a private alloca;
; fmin and fmax in one kernel; two types; cache=off.  A store into an
; alloca that only loads and stores use keeps the cache (@private_store),
; and so does anything after the last atomic (@store_after).
; REQUIRES: nvptx
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off;cache=off>' -S %s | FileCheck %s --check-prefix=OFF
; OFF-NOT: fatomic.cache

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define void @not_kernel(
; CHECK-NOT:   fatomic.cache
; CHECK-LABEL: define ptx_kernel void @once(
define void @not_kernel(ptr addrspace(1) %p, float %v, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %r = atomicrmw fmax ptr addrspace(1) %p, float %v monotonic
  %i.next = add i32 %i, 1
  %more = icmp ult i32 %i.next, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

; CHECK-NOT:   fatomic.cache
; CHECK-LABEL: define ptx_kernel void @acquire(
define ptx_kernel void @once(ptr addrspace(1) %p, float %v) {
  %r = atomicrmw fmax ptr addrspace(1) %p, float %v monotonic
  ret void
}

; CHECK-NOT:   fatomic.cache
; CHECK-LABEL: define ptx_kernel void @fence(
define ptx_kernel void @acquire(ptr addrspace(1) %p, float %v) {
  %r = atomicrmw fmax ptr addrspace(1) %p, float %v acquire
  %s = atomicrmw fmax ptr addrspace(1) %p, float %v acquire
  ret void
}

; CHECK-NOT:   fatomic.cache
; CHECK-LABEL: define ptx_kernel void @fence_first(
define ptx_kernel void @fence(ptr addrspace(1) %p, float %v) {
  %r = atomicrmw fmax ptr addrspace(1) %p, float %v monotonic
  fence syncscope("device") acquire
  %s = atomicrmw fmax ptr addrspace(1) %p, float %v monotonic
  ret void
}

; CHECK-NOT:   fatomic.cache
; CHECK-LABEL: define ptx_kernel void @barrier(
define ptx_kernel void @fence_first(ptr addrspace(1) %p, float %v) {
  fence syncscope("device") release
  %r = atomicrmw fmax ptr addrspace(1) %p, float %v monotonic
  %s = atomicrmw fmax ptr addrspace(1) %p, float %v monotonic
  ret void
}

; CHECK-NOT:   fatomic.cache
; CHECK-LABEL: define ptx_kernel void @other_atomic(
define ptx_kernel void @barrier(ptr addrspace(1) %p, float %v) {
  %r = atomicrmw fmax ptr addrspace(1) %p, float %v monotonic
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %s = atomicrmw fmax ptr addrspace(1) %p, float %v monotonic
  ret void
}

; CHECK-NOT:   fatomic.cache
; CHECK-LABEL: define ptx_kernel void @atomic_load(
define ptx_kernel void @other_atomic(ptr addrspace(1) %p, ptr addrspace(1) %q, float %v) {
  %r = atomicrmw fmax ptr addrspace(1) %p, float %v monotonic
  %x = atomicrmw xchg ptr addrspace(1) %q, float %v monotonic
  %s = atomicrmw fmax ptr addrspace(1) %p, float %v monotonic
  ret void
}

; CHECK-NOT:   fatomic.cache
; CHECK-LABEL: define ptx_kernel void @global_store(
define ptx_kernel void @atomic_load(ptr addrspace(1) %p, ptr addrspace(1) %q, float %v) {
  %r = atomicrmw fmax ptr addrspace(1) %p, float %v monotonic
  %x = load atomic float, ptr addrspace(1) %q monotonic, align 4
  %s = atomicrmw fmax ptr addrspace(1) %p, float %x monotonic
  ret void
}

; CHECK-NOT:   fatomic.cache
; CHECK-LABEL: define ptx_kernel void @min_and_max(
define ptx_kernel void @global_store(ptr addrspace(1) %p, ptr addrspace(1) %q, float %v) {
  %r = atomicrmw fmax ptr addrspace(1) %p, float %v monotonic
  store float %v, ptr addrspace(1) %q
  %s = atomicrmw fmax ptr addrspace(1) %p, float %v monotonic
  ret void
}

; CHECK-NOT:   fatomic.cache
; CHECK-LABEL: define ptx_kernel void @two_types(
define ptx_kernel void @min_and_max(ptr addrspace(1) %p, ptr addrspace(1) %q, float %v) {
  %r = atomicrmw fmin ptr addrspace(1) %p, float %v monotonic
  %s = atomicrmw fmax ptr addrspace(1) %q, float %v monotonic
  ret void
}

; CHECK-NOT:   fatomic.cache
; CHECK-LABEL: define ptx_kernel void @store_after(
define ptx_kernel void @two_types(ptr addrspace(1) %p, ptr addrspace(1) %q, float %v, double %w) {
  %r = atomicrmw fmax ptr addrspace(1) %p, float %v monotonic
  %s = atomicrmw fmax ptr addrspace(1) %q, double %w monotonic
  ret void
}

; CHECK:       fatomic.cache.miss{{[0-9]*}}:
; CHECK:       fatomic.cache.miss{{[0-9]*}}:
; CHECK:       fence
; CHECK-LABEL: define ptx_kernel void @private_store(
define ptx_kernel void @store_after(ptr addrspace(1) %p, ptr addrspace(1) %q, float %v) {
  %r = atomicrmw fmax ptr addrspace(1) %p, float %v monotonic
  %s = atomicrmw fmax ptr addrspace(1) %p, float %v monotonic
  store float %s, ptr addrspace(1) %q
  fence seq_cst
  ret void
}

; CHECK:       fatomic.cache.miss{{[0-9]*}}:
; CHECK:       fatomic.cache.miss{{[0-9]*}}:
define ptx_kernel void @private_store(ptr addrspace(1) %p, float %v) {
  %slot = alloca float, align 4
  store float %v, ptr %slot
  %r = atomicrmw fmax ptr addrspace(1) %p, float %v monotonic
  %w = load float, ptr %slot
  %s = atomicrmw fmax ptr addrspace(1) %p, float %w monotonic
  ret void
}

declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
