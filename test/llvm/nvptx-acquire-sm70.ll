; NVPTX from sm_70 on has acquire loads (ld.acquire): there an acquire float
; atomic's early-out load stays acquire and no fence is added, in both
; strategies (nvptx-acquire-before-sm70.ll: older targets load monotonic and
; fence the early-out's exit).
; REQUIRES: nvptx
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off;strategy=cas>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' %s | %llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_70 | FileCheck %s --check-prefix=PTX
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off;strategy=cas>' %s | %llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_70 -o /dev/null
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' %s | %llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_70 -o /dev/null

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define float @sm70(
; CHECK:         load atomic i32, ptr addrspace(1) %p syncscope("block") acquire, align 4
; CHECK-NOT:     fatomic.acquire
; CHECK-NOT:     fence
; CHECK:         ret float
;
; PTX-LABEL: sm70(
; PTX:         ld.acquire.cta.global.b32
; PTX-NOT:     membar
; PTX:         ret;
define float @sm70(ptr addrspace(1) %p, float %v) #0 {
  %r = atomicrmw fmax ptr addrspace(1) %p, float %v syncscope("block") acquire, align 4
  ret float %r
}

attributes #0 = { "target-cpu"="sm_70" }
