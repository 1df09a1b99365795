; NVPTX before sm_70 has no atomic load stronger than monotonic: llc aborts
; on one ("PTX does not support "atomic" for orderings different than
; "NotAtomic" or "Monotonic" for sm_60 or older").  There the early-out of
; an acquire float atomic loads monotonic, and its exit, where that load's
; value is the atomic's result, gets an acquire fence of the atomic's
; syncscope (a monotonic load and then an acquire fence synchronise at
; least as an acquire load does); the integer atomics keep acquire and
; need no fence.  The fence is there whether the result is used or not.
; A function that names no target-cpu counts as older (llc's default cpu is);
; nvptx-acquire-sm70.ll checks that sm_70 keeps the acquire load.  A
; seq_cst atomic has no early-out, and its loop's first load is monotonic.
; REQUIRES: nvptx
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off;strategy=cas>' -S %s | FileCheck %s --check-prefix=CAS
; Every form compiles, for sm_60, llc's default cpu and sm_70; helpers too.
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' %s | %llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_60 | FileCheck %s --check-prefix=PTX
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' %s | %llc -mtriple=nvptx64-nvidia-cuda -o /dev/null
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' %s | %llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_70 -o /dev/null
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off;strategy=cas>' %s | %llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_60 -o /dev/null
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' %s | %llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_60 -o /dev/null

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define float @no_cpu(
; CHECK:         [[CUR:%.*]] = load atomic i32, ptr addrspace(1) %p monotonic, align 4
; CHECK:         br i1 {{%.*}}, label %fatomic.rmw, label %fatomic.acquire
; CHECK:       fatomic.acquire:
; CHECK-NEXT:    fence acquire
; CHECK-NEXT:    br label %fatomic.done
; CHECK:         atomicrmw max ptr addrspace(1) %p, i32 {{%.*}} acquire, align 4
; CHECK:         atomicrmw umin ptr addrspace(1) %p, i32 {{%.*}} acquire, align 4
; CHECK:         cmpxchg ptr addrspace(1) %p, i32 {{%.*}}, i32 {{%.*}} acquire acquire, align 4
; CHECK:       fatomic.done:
; CHECK-NEXT:    phi i32 [ [[CUR]], %fatomic.acquire ],
; CHECK-NOT:     fence
; CHECK:         ret float
;
; CAS-LABEL: define float @no_cpu(
; CAS:         [[INIT:%.*]] = load atomic i32, ptr addrspace(1) %p monotonic, align 4
; CAS:       fatomic.cas.loop:
; CAS-NEXT:    [[CUR:%.*]] = phi i32 [ [[INIT]], {{%.*}} ]
; CAS:         br i1 {{%.*}}, label %fatomic.acquire, label %fatomic.cas
; CAS:       fatomic.cas:
; CAS-NEXT:    cmpxchg ptr addrspace(1) %p, i32 [[CUR]], i32 {{%.*}} acquire acquire, align 4
; CAS:       fatomic.acquire:
; CAS-NEXT:    fence acquire
; CAS-NEXT:    br label %fatomic.done
; CAS:       fatomic.done:
; CAS-NEXT:    phi i32 [ [[CUR]], %fatomic.acquire ], [ [[CUR]], %fatomic.cas ]
;
; PTX-LABEL: no_cpu(
; PTX-NOT:     ld.acquire
; PTX:         ld.volatile.global.b32
; PTX:       // %fatomic.acquire
; PTX-NEXT:    membar.sys;
define float @no_cpu(ptr addrspace(1) %p, float %v) {
  %r = atomicrmw fmax ptr addrspace(1) %p, float %v acquire, align 4
  ret float %r
}

; CHECK-LABEL: define void @sm60_block_unused(
; CHECK:         load atomic i64, ptr addrspace(3) %p syncscope("block") monotonic, align 8
; CHECK:       fatomic.acquire:
; CHECK-NEXT:    fence syncscope("block") acquire
; CHECK-NEXT:    br label %fatomic.done
; CHECK:         atomicrmw min ptr addrspace(3) %p, i64 {{%.*}} syncscope("block") acquire, align 8
;
; CAS-LABEL: define void @sm60_block_unused(
; CAS:         load atomic i64, ptr addrspace(3) %p syncscope("block") monotonic, align 8
; CAS:       fatomic.acquire:
; CAS-NEXT:    fence syncscope("block") acquire
;
; PTX-LABEL: sm60_block_unused(
; PTX-NOT:     ld.acquire
; PTX:       // %fatomic.acquire
; PTX-NEXT:    membar.cta;
define void @sm60_block_unused(ptr addrspace(3) %p, double %v) #0 {
  %r = atomicrmw fmin ptr addrspace(3) %p, double %v syncscope("block") acquire, align 8
  ret void
}

; CHECK-LABEL: define float @seq_cst(
; CHECK:         load atomic i32, ptr addrspace(1) %p monotonic, align 4
; CHECK-NOT:     fence
; CHECK:         cmpxchg ptr addrspace(1) %p, i32 {{%.*}}, i32 {{%.*}} seq_cst seq_cst, align 4
; CHECK-NOT:     fence
; CHECK:         ret float
define float @seq_cst(ptr addrspace(1) %p, float %v) {
  %r = atomicrmw fminimum ptr addrspace(1) %p, float %v seq_cst, align 4
  ret float %r
}

attributes #0 = { "target-cpu"="sm_60" }
