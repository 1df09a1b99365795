; Atomics that warp aggregation leaves to the per-lane lowering, on an
; sm_90 target: orderings stronger than monotonic, volatile, single-thread
; scope, local memory (addrspace 5, one address per lane), types other than
; float and double, and vectors.  Each is still lowered.
; REQUIRES: llvm-plugin
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s
; CHECK-NOT: nvvm
; CHECK-NOT: atomicrmw f

target triple = "nvptx64-nvidia-cuda"

define void @acq_rel(ptr addrspace(1) %p, float %v) "target-cpu"="sm_90" {
  atomicrmw fmax ptr addrspace(1) %p, float %v syncscope("device") acq_rel
  ret void
}

define void @acquire(ptr addrspace(1) %p, float %v) "target-cpu"="sm_90" {
  atomicrmw fmax ptr addrspace(1) %p, float %v acquire
  ret void
}

define void @volatile(ptr addrspace(1) %p, float %v) "target-cpu"="sm_90" {
  atomicrmw volatile fmax ptr addrspace(1) %p, float %v monotonic
  ret void
}

define void @single_thread(ptr addrspace(1) %p, float %v) "target-cpu"="sm_90" {
  atomicrmw fmax ptr addrspace(1) %p, float %v syncscope("singlethread") monotonic
  ret void
}

define void @local(ptr addrspace(5) %p, float %v) "target-cpu"="sm_90" {
  atomicrmw fmax ptr addrspace(5) %p, float %v monotonic
  ret void
}

define void @half(ptr addrspace(1) %p, half %v) "target-cpu"="sm_90" {
  atomicrmw fmin ptr addrspace(1) %p, half %v monotonic
  ret void
}

define void @vector(ptr addrspace(1) %p, <2 x half> %v) "target-cpu"="sm_90" {
  atomicrmw fmin ptr addrspace(1) %p, <2 x half> %v monotonic
  ret void
}
