; strategy=cas: an atomic load (the early-out's, same ordering), then a
; cmpxchg loop that leaves without exchanging when the combination equals
; the current bits; the loop compares bits, never floats.
; REQUIRES: llvm-plugin
; outline=off: the lowering written out at the atomic, where the checks
; see it next to its input (outline-helper-body.ll and outline-kinds.ll
; check the helper functions).
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<strategy=cas;outline=off>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<strategy=cas;outline=off>' %s | %opt -passes=verify -disable-output

define float @fmax(ptr %p, float %v) {
; CHECK-LABEL: define float @fmax(
; CHECK-NOT:     atomicrmw
; CHECK:         [[FRZBITS:%.*]] = freeze float %v
; CHECK-NEXT:    [[BITS:%.*]] = bitcast float [[FRZBITS]] to i32
; CHECK:         [[INIT:%.*]] = load atomic i32, ptr %p acquire, align 4
; CHECK:         br label %[[LOOP:.*]]
; CHECK:       [[LOOP]]:
; CHECK-NEXT:    [[CUR:%.*]] = phi i32 [ [[INIT]], %0 ], [ [[SEEN:%.*]], %[[CAS:.*]] ]
; CHECK-NOT:     fcmp
; CHECK:         [[NEW:%.*]] = select i1 {{%.*}}, i32 [[BITS]], i32 [[CUR]]
; CHECK-NEXT:    [[SAME:%.*]] = icmp eq i32 [[NEW]], [[CUR]]
; CHECK-NEXT:    br i1 [[SAME]], label %fatomic.done, label %[[CAS]]
; CHECK:       [[CAS]]:
; CHECK-NEXT:    [[PAIR:%.*]] = cmpxchg ptr %p, i32 [[CUR]], i32 [[NEW]] acquire acquire, align 4
; CHECK-NEXT:    [[SEEN]] = extractvalue { i32, i1 } [[PAIR]], 0
; CHECK-NEXT:    [[OK:%.*]] = extractvalue { i32, i1 } [[PAIR]], 1
; CHECK-NEXT:    br i1 [[OK]], label %fatomic.done, label %[[LOOP]]
; CHECK:       fatomic.done:
; CHECK-NEXT:    [[RES:%.*]] = phi i32 [ [[CUR]], %[[LOOP]] ], [ [[CUR]], %[[CAS]] ]
; CHECK-NEXT:    bitcast i32 [[RES]] to float
; CHECK-NOT:     atomicrmw
  %r = atomicrmw fmax ptr %p, float %v acquire, align 4
  ret float %r
}

; With a release part there is no early-out: every iteration exchanges, and
; the first load is monotonic.
define float @fmax_seq_cst(ptr %p, float %v) {
; CHECK-LABEL: define float @fmax_seq_cst(
; CHECK:         [[INIT:%.*]] = load atomic i32, ptr %p monotonic, align 4
; CHECK:       [[LOOP:fatomic.cas.loop]]:
; CHECK-NEXT:    [[CUR:%.*]] = phi i32 [ [[INIT]], %0 ], [ [[SEEN:%.*]], %[[LOOP]] ]
; CHECK-NOT:     icmp eq
; CHECK:         [[PAIR:%.*]] = cmpxchg ptr %p, i32 [[CUR]], i32 {{%.*}} seq_cst seq_cst, align 4
; CHECK-NEXT:    [[SEEN]] = extractvalue { i32, i1 } [[PAIR]], 0
; CHECK-NEXT:    [[OK:%.*]] = extractvalue { i32, i1 } [[PAIR]], 1
; CHECK-NEXT:    br i1 [[OK]], label %fatomic.done, label %[[LOOP]]
  %r = atomicrmw fmax ptr %p, float %v seq_cst, align 4
  ret float %r
}
