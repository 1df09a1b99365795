; In a function that uses convergence control, a float atomic that comes
; before its block's convergence.entry (in the entry block) or
; convergence.loop (in a loop header): the lowering splits the block at the
; atomic, so the intrinsic is first moved in front of the atomic, and it
; stays in the entry block or the header (the verifier, which opt runs on
; its output, requires that).  In place, through the bound cache and warp
; aggregation, and through a helper.
; REQUIRES: nvptx
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off;aggregate=off;cache=off>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -S %s | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @entry_after(ptr addrspace(1) %p, float %v) #0 {
entry:
  %a = atomicrmw fmax ptr addrspace(1) %p, float %v monotonic, align 4
  %t = call token @llvm.experimental.convergence.entry()
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0) [ "convergencectrl"(token %t) ]
  ret void
}

; CHECK-LABEL: define ptx_kernel void @entry_after(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %t = call token @llvm.experimental.convergence.entry()

define ptx_kernel void @loop_after(ptr addrspace(1) %p, float %v, i32 %n) #0 {
entry:
  %t = call token @llvm.experimental.convergence.entry()
  br label %header

header:
  %i = phi i32 [ 0, %entry ], [ %next, %header ]
  %a = atomicrmw fmin ptr addrspace(1) %p, float %v monotonic, align 4
  %h = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %t) ]
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0) [ "convergencectrl"(token %h) ]
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %header, label %exit

exit:
  ret void
}

; CHECK-LABEL: define ptx_kernel void @loop_after(
; CHECK:       header:
; CHECK-NEXT:    %i = phi i32
; CHECK-NEXT:    %h = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %t) ]

declare token @llvm.experimental.convergence.entry()
declare token @llvm.experimental.convergence.loop()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
attributes #0 = { convergent "target-cpu"="sm_90" }
