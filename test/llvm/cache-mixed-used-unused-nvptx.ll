; The exact slot in an NVPTX kernel whose loop has an unused fmax and a used
; one (one kind, so one slot).  After the unused atomic's aggregated group,
; whose lanes other than the elected one learn only the reduced key, the
; slot keeps a bound but marks its word unknown (false), so the used
; atomic's next test cannot hit and return a word memory never held; after
; either atomic's per-lane path the word is known (true).  The used atomic
; is not aggregated (WarpAggregate.h): it takes the per-lane path behind
; the cache's test.
; REQUIRES: nvptx
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' %s | %opt -passes=verify -disable-output

target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr addrspace(1) %dst, ptr addrspace(1) %sink, float %v, float %w, i32 %n) "target-cpu"="sm_90" {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %unused = atomicrmw fmax ptr addrspace(1) %dst, float %v syncscope("device") monotonic, align 4
  %used = atomicrmw fmax ptr addrspace(1) %dst, float %w syncscope("device") monotonic, align 4
  %acc.next = fadd float %acc, %used
  %i.next = add i32 %i, 1
  %more = icmp ult i32 %i.next, %n
  br i1 %more, label %loop, label %exit
exit:
  store float %acc.next, ptr addrspace(1) %sink, align 4
  ret void
}

; The unused atomic: its hit does not ask for the word.
; CHECK-LABEL: define ptx_kernel void @k(
; CHECK:       loop:
; CHECK:       [[HIT1:%fatomic.cache.hit[0-9]*]] = and i1 {{%[0-9]+}}, {{%[0-9]+}}
; CHECK-NEXT:  br i1 [[HIT1]], label %fatomic.warp.done, label %fatomic.warp.check
; CHECK:       fatomic.warp.done:
; CHECK:       [[VALID:%fatomic.cache.valid[.0-9]*]] = phi i1 [ {{%fatomic.cache.valid[.0-9]*}}, %loop ], [ false, %fatomic.warp.join ], [ true, %{{fatomic.done[0-9]*}} ]
; The used atomic: its hit needs the word known.
; CHECK:       [[HIT2:%fatomic.cache.hit[0-9]*]] = and i1 [[VALID]], {{%[0-9]+}}
; CHECK-NEXT:  br i1 [[HIT2]], label %fatomic.cache.done, label %fatomic.cache.miss
; CHECK:       fatomic.cache.miss:
; CHECK-NOT:   @llvm.nvvm.
; CHECK:       fatomic.cache.done:
; CHECK:       phi i1 [ [[VALID]], %fatomic.warp.done ], [ true, %fatomic.done ]
