; atomicrmw fminimum defaults to nan=propagate.  Through a pointer argument
; the pass cannot know who else writes the memory (an exchange storing a NaN,
; a compare-exchange, an integer atomic, an fmaximum), so the atomic becomes
; the compare-exchange loop, which is linearizable against any writer: a NaN
; operand becomes the sticky all-ones pattern, a NaN in memory is kept and
; returned, and the loop's first compare (the early-out) leaves without an
; exchange when nothing would change.  No sign-dispatched integer atomic:
; it would displace a NaN that another writer stored after the load
; (propagate-exclusive-global.ll has the case where that is proven not to
; happen; test/llvm/race has the races).
; REQUIRES: llvm-plugin
; outline=off: the lowering written out at the atomic, where the checks
; see it next to its input (outline-helper-body.ll and outline-kinds.ll check
; the helper functions).
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' %s | %opt -passes=verify -disable-output

define float @fminimum(ptr %p, float %v) {
; CHECK-LABEL: define float @fminimum(
; CHECK:         [[VNAN:%.*]] = icmp ugt i32 {{%.*}}, 2139095040
; CHECK-NEXT:    [[OP:%.*]] = select i1 [[VNAN]], i32 -1, i32 {{%.*}}
; CHECK:         [[INIT:%.*]] = load atomic i32, ptr %p monotonic, align 4
; CHECK-NEXT:    br label %fatomic.cas.loop
; CHECK:       fatomic.cas.loop:
; CHECK-NEXT:    [[CUR:%.*]] = phi i32 [ [[INIT]], %0 ], [ [[SEEN:%.*]], %fatomic.cas ]
; CHECK:         [[BETTER:%.*]] = select i1 {{%.*}}, i32 [[OP]], i32 [[CUR]]
; CHECK-NEXT:    [[CMAG:%.*]] = and i32 [[CUR]], 2147483647
; CHECK-NEXT:    [[CNAN:%.*]] = icmp ugt i32 [[CMAG]], 2139095040
; A NaN in memory is kept.
; CHECK-NEXT:    [[NEW:%.*]] = select i1 [[CNAN]], i32 [[CUR]], i32 [[BETTER]]
; CHECK-NEXT:    [[SAME:%.*]] = icmp eq i32 [[NEW]], [[CUR]]
; CHECK-NEXT:    br i1 [[SAME]], label %fatomic.done, label %fatomic.cas
; CHECK:       fatomic.cas:
; CHECK-NEXT:    [[PAIR:%.*]] = cmpxchg ptr %p, i32 [[CUR]], i32 [[NEW]] monotonic monotonic, align 4
; CHECK-NEXT:    [[SEEN]] = extractvalue { i32, i1 } [[PAIR]], 0
; CHECK-NEXT:    [[OK:%.*]] = extractvalue { i32, i1 } [[PAIR]], 1
; CHECK-NEXT:    br i1 [[OK]], label %fatomic.done, label %fatomic.cas.loop
; CHECK:       fatomic.done:
; CHECK-NEXT:    [[RES:%.*]] = phi i32 [ [[CUR]], %fatomic.cas.loop ], [ [[CUR]], %fatomic.cas ]
; CHECK-NEXT:    bitcast i32 [[RES]] to float
; CHECK-NOT:     atomicrmw
  %r = atomicrmw fminimum ptr %p, float %v monotonic, align 4
  ret float %r
}
