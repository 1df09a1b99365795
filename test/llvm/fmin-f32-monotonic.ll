; atomicrmw fmin float monotonic, default options (nan=number, dispatch,
; early-out): the whole shape of the lowering.
;  - the operand's bits, a NaN operand replaced by the identity 0x7FFFFFFF;
;  - an atomic load (same ordering);
;  - the early-out test: would the integer atomic the operand dispatches to
;    change memory (slt for min's smin, ugt for its umax: the U-order
;    comparison of the model, one compare per sign)?  A NaN in memory goes
;    to the atomic too (one test: only a negative NaN needs it);
;  - exactly one of atomicrmw min / umax, chosen by the sign bit;
;  - the fix-up for a NaN the atomic could not displace (for min a negative
;    one: above -inf as unsigned): a cmpxchg from it to the operand (to
;    itself if the operand is a NaN too), and the atomic again if that
;    fails;
;  - the result, the value the operation took effect on, bitcast to float.
; REQUIRES: llvm-plugin
; outline=off: the lowering written out at the atomic, where the checks
; see it next to its input (outline-helper-body.ll and outline-kinds.ll
; check the helper functions).
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' %s | %opt -passes=verify -disable-output

define float @fmin(ptr %p, float %v) {
; CHECK-LABEL: define float @fmin(
; CHECK-NOT:     atomicrmw fmin
; CHECK:         [[FRZBITS:%.*]] = freeze float %v
; CHECK-NEXT:    [[BITS:%.*]] = bitcast float [[FRZBITS]] to i32
; CHECK-NEXT:    [[MAG:%.*]] = and i32 [[BITS]], 2147483647
; CHECK-NEXT:    [[VNAN:%.*]] = icmp ugt i32 [[MAG]], 2139095040
; CHECK-NEXT:    [[OP:%.*]] = select i1 [[VNAN]], i32 2147483647, i32 [[BITS]]
; CHECK-NEXT:    [[NEG:%.*]] = icmp slt i32 [[OP]], 0
; CHECK-NEXT:    [[CUR:%.*]] = load atomic i32, ptr %p monotonic, align 4
; CHECK-NEXT:    [[SLT:%.*]] = icmp slt i32 [[OP]], [[CUR]]
; CHECK-NEXT:    [[UGT:%.*]] = icmp ugt i32 [[OP]], [[CUR]]
; CHECK-NEXT:    [[WINS:%.*]] = select i1 [[NEG]], i1 [[UGT]], i1 [[SLT]]
; A negative NaN in memory (above -inf as unsigned) is one that neither
; atomic displaces; it goes to the atomic all the same, and from there to
; the fix-up.  (A positive one: the operand wins over it already.)
; CHECK-NEXT:    [[CNAN:%.*]] = icmp ugt i32 [[CUR]], -8388608
; CHECK-NEXT:    [[GO:%.*]] = or i1 [[WINS]], [[CNAN]]
; CHECK-NEXT:    br i1 [[GO]], label %[[RMW:fatomic.rmw]], label %[[DONE:fatomic.done]]
; CHECK:       [[RMW]]:
; CHECK-NEXT:    br i1 [[NEG]], label %[[UMAX:.*]], label %[[SMIN:.*]]
; CHECK:       [[SMIN]]:
; CHECK-NEXT:    [[O1:%.*]] = atomicrmw min ptr %p, i32 [[OP]] monotonic, align 4
; CHECK-NEXT:    [[S1:%.*]] = icmp ugt i32 [[O1]], -8388608
; CHECK-NEXT:    br i1 [[S1]], label %[[FIXUP:fatomic.fixup]], label %[[DONE]], !prof [[UNLIKELY:![0-9]+]]
; CHECK:       [[UMAX]]:
; CHECK-NEXT:    [[O2:%.*]] = atomicrmw umax ptr %p, i32 [[OP]] monotonic, align 4
; CHECK-NEXT:    [[S2:%.*]] = icmp ugt i32 [[O2]], -8388608
; CHECK-NEXT:    br i1 [[S2]], label %[[FIXUP]], label %[[DONE]], !prof [[UNLIKELY]]
; CHECK:       [[FIXUP]]:
; CHECK-NEXT:    [[STUCK:%.*]] = phi i32 [ [[O1]], %[[SMIN]] ], [ [[O2]], %[[UMAX]] ]
; A NaN operand exchanges the NaN for itself.
; CHECK-NEXT:    [[DESIRED:%.*]] = select i1 [[VNAN]], i32 [[STUCK]], i32 [[BITS]]
; CHECK-NEXT:    [[PAIR:%.*]] = cmpxchg ptr %p, i32 [[STUCK]], i32 [[DESIRED]] monotonic monotonic, align 4
; CHECK-NEXT:    [[OK:%.*]] = extractvalue { i32, i1 } [[PAIR]], 1
; CHECK-NEXT:    br i1 [[OK]], label %[[DONE]], label %[[RMW]]
; CHECK:       [[DONE]]:
; The result is the word the operation took effect on: the loaded one, the
; atomic's old word, or the NaN the fix-up replaced (or left).
; CHECK-NEXT:    [[RES:%.*]] = phi i32 [ [[CUR]], %0 ], [ [[O1]], %[[SMIN]] ], [ [[O2]], %[[UMAX]] ], [ [[STUCK]], %[[FIXUP]] ]
; CHECK-NEXT:    [[F:%.*]] = bitcast i32 [[RES]] to float
; CHECK-NEXT:    ret float [[F]]
  %r = atomicrmw fmin ptr %p, float %v monotonic, align 4
  ret float %r
}

; CHECK: [[UNLIKELY]] = !{!"branch_weights", i32 1, i32 {{[0-9]+}}}
