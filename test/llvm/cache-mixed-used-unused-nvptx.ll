; The exact slot in an NVPTX kernel whose loop has an unused fmax and a used
; one (one kind, so one slot).  After the unused atomic's aggregated group,
; whose lanes other than the elected one learn only the reduced key, the
; slot keeps a bound but marks its word unknown (false), so the used
; atomic's next test cannot hit and return a word memory never held; after
; either atomic's per-lane path, and after the used atomic's group (every
; lane of a full warp learns the word the group left), the word is known
; (true).  The used atomic tests the cache twice: in a full warp, which
; skips the atomic only where every lane hits, and on the per-lane path.
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
; CHECK-NEXT:  br i1 [[HIT1]], label %[[DONE1:fatomic.warp.done[0-9]*]], label %{{fatomic.warp.check[0-9]*}}
; CHECK:       [[DONE1]]:
; CHECK:       [[VALID:%fatomic.cache.valid[.0-9]*]] = phi i1 [ {{%fatomic.cache.valid[.0-9]*}}, %loop ], [ false, %{{fatomic.warp.join[0-9]*}} ], [ true, %{{fatomic.done[0-9]*}} ]
; The used atomic: its hits need the word known.
; CHECK:       [[HIT2:%fatomic.cache.hit[0-9]*]] = and i1 [[VALID]], {{%[0-9]+}}
; CHECK-NEXT:  [[MISS2:%[0-9]+]] = xor i1 [[HIT2]], true
; CHECK-NEXT:  [[ANYMISS:%[0-9]+]] = call i1 @llvm.nvvm.vote.any.sync(i32 -1, i1 [[MISS2]])
; CHECK-NEXT:  br i1 [[ANYMISS]], label %fatomic.warp.check{{[0-9]*}}, label %fatomic.warp.done{{[0-9]*}}
; CHECK:       fatomic.warp.single{{[0-9]*}}:
; CHECK:       [[HIT3:%fatomic.cache.hit[0-9]*]] = and i1 [[VALID]], {{%[0-9]+}}
; CHECK-NEXT:  br i1 [[HIT3]], label %[[CDONE:fatomic.cache.done[0-9]*]], label %[[CMISS:fatomic.cache.miss[0-9]*]]
; CHECK:       [[CMISS]]:
; CHECK-NOT:   @llvm.nvvm.
; CHECK:       [[CDONE]]:
; CHECK:       [[VALID3:%fatomic.cache.valid[.0-9]*]] = phi i1 [ [[VALID]], %fatomic.warp.single{{[0-9]*}} ], [ true, %{{fatomic.done[0-9]*}} ]
; CHECK:       fatomic.warp.done{{[0-9]*}}:
; CHECK-NEXT:  phi i1 [ true, %fatomic.warp.join{{[0-9]*}} ], [ [[VALID3]], %[[CDONE]] ], [ [[VALID]], %{{fatomic.warp.full[0-9]*}} ]
