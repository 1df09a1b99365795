; Warp aggregation (WarpAggregate.h) in functions that use convergence
; control tokens (llvm.experimental.convergence.*): a function may not mix
; controlled and uncontrolled convergent operations, so each aggregated
; form starts with an llvm.experimental.convergence.anchor of its own, at
; the atomic's place, and every convergent call of the form (activemask,
; match/vote/redux/shfl.sync, bar.warp.sync) carries a "convergencectrl"
; bundle with that token.  The anchor states what the form assumes: it
; works on whichever lanes reach the atomic together (activemask), and
; needs no more convergence than that.  The function's own tokens are left
; as they are: @unused uses its entry token after the atomic, @used_loop
; runs the atomic (result used, with the bound cache) under a loop heart.
; REQUIRES: nvptx
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' %s | %opt -passes=verify -disable-output
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax,default<O3>' %s | %opt -passes=verify -disable-output
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' %s | %llc -O3 -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 | FileCheck %s --check-prefix=PTX

target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @unused(ptr addrspace(1) %p, float %v) #0 {
entry:
  %t = call token @llvm.experimental.convergence.entry()
  %a = atomicrmw fmax ptr addrspace(1) %p, float %v monotonic, align 4
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0) [ "convergencectrl"(token %t) ]
  ret void
}

; CHECK-LABEL: define ptx_kernel void @unused(
; CHECK:       %t = call token @llvm.experimental.convergence.entry()
; CHECK-NEXT:  freeze float %v
; CHECK-NEXT:  [[A:%[0-9]+]] = call token @llvm.experimental.convergence.anchor()
; CHECK-NEXT:  [[MASK:%[0-9]+]] = call i32 @llvm.nvvm.activemask() [ "convergencectrl"(token [[A]]) ]
; CHECK:       call { i32, i1 } @llvm.nvvm.match.all.sync.i64p(i32 [[MASK]], i64 {{%[0-9]+}}) [ "convergencectrl"(token [[A]]) ]
; CHECK:     fatomic.warp.reduce:
; CHECK:       call i32 @llvm.nvvm.redux.sync.umax(i32 {{%[0-9]+}}, i32 [[MASK]]) [ "convergencectrl"(token [[A]]) ]
; CHECK:       call i32 @llvm.nvvm.read.ptx.sreg.laneid(){{$}}
; CHECK:       call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0) [ "convergencectrl"(token %t) ]

define ptx_kernel void @used_loop(ptr addrspace(1) %p, ptr addrspace(1) %vals, ptr addrspace(1) %sum, i32 %n) #0 {
entry:
  %t = call token @llvm.experimental.convergence.entry()
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %l = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %t) ]
  %vp = getelementptr inbounds float, ptr addrspace(1) %vals, i32 %i
  %v = load float, ptr addrspace(1) %vp, align 4
  %old = atomicrmw fmax ptr addrspace(1) %p, float %v monotonic, align 4
  %acc.next = fadd float %acc, %old
  %i.next = add i32 %i, 1
  %more = icmp ult i32 %i.next, %n
  br i1 %more, label %loop, label %exit
exit:
  store float %acc.next, ptr addrspace(1) %sum, align 4
  ret void
}

; CHECK-LABEL: define ptx_kernel void @used_loop(
; CHECK:     loop:
; CHECK:       %l = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %t) ]
; CHECK:       [[A:%[0-9]+]] = call token @llvm.experimental.convergence.anchor()
; CHECK-NEXT:  [[ACTIVE:%[0-9]+]] = call i32 @llvm.nvvm.activemask() [ "convergencectrl"(token [[A]]) ]
; CHECK:     fatomic.warp.full:
; CHECK:       call i1 @llvm.nvvm.vote.any.sync(i32 -1, i1 {{%[0-9]+}}) [ "convergencectrl"(token [[A]]) ]
; CHECK:     fatomic.warp.check:
; CHECK:       call { i32, i1 } @llvm.nvvm.match.all.sync.i64p(i32 -1, i64 {{%[0-9]+}}) [ "convergencectrl"(token [[A]]) ]
; CHECK:     fatomic.warp.reduce:
; CHECK:       call i32 @llvm.nvvm.redux.sync.umax(i32 {{%[0-9]+}}, i32 -1) [ "convergencectrl"(token [[A]]) ]
; CHECK:     fatomic.warp.join:
; CHECK:       call void @llvm.nvvm.bar.warp.sync(i32 -1) [ "convergencectrl"(token [[A]]) ]
; CHECK-NEXT:  call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 {{%[0-9]+}}, i32 0, i32 31) [ "convergencectrl"(token [[A]]) ]
; CHECK-NEXT:  icmp eq i32
; CHECK-NEXT:  call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 {{%[0-9]+}}) [ "convergencectrl"(token [[A]]) ]

; PTX-LABEL: .entry unused(
; PTX:         activemask.b32
; PTX:         redux.sync.max.u32
; PTX-LABEL: .entry used_loop(
; PTX:         redux.sync.max.u32
; PTX:         shfl.sync.idx.b32

declare token @llvm.experimental.convergence.entry()
declare token @llvm.experimental.convergence.loop()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)

attributes #0 = { convergent "target-cpu"="sm_90" }
