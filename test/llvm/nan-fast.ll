; nan=fast: no NaN test anywhere; the operand goes to the dispatched atomic
; as it is and there is no fix-up.
; REQUIRES: llvm-plugin
; outline=off: the lowering written out at the atomic, where the checks
; see it next to its input (outline-helper-body.ll and outline-kinds.ll
; check the helper functions).
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<nan=fast;outline=off>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<nan=fast;outline=off>' %s | %opt -passes=verify -disable-output

define float @fast(ptr %p, float %v) {
; CHECK-LABEL: define float @fast(
; CHECK-NEXT:    [[FRZBITS:%.*]] = freeze float %v
; CHECK-NEXT: [[BITS:%.*]] = bitcast float [[FRZBITS]] to i32
; CHECK-NEXT:    [[NEG:%.*]] = icmp slt i32 [[BITS]], 0
; CHECK-NEXT:    [[CUR:%.*]] = load atomic i32, ptr %p monotonic, align 4
; CHECK-NOT:     2139095040
; CHECK:         icmp slt i32 [[BITS]], [[CUR]]
; CHECK:         br i1 [[NEG]], label %fatomic.umax, label %fatomic.smin
; CHECK:         atomicrmw min ptr %p, i32 [[BITS]] monotonic
; CHECK:         atomicrmw umax ptr %p, i32 [[BITS]] monotonic
; CHECK-NOT:     cmpxchg
; CHECK-NOT:     2139095040
; CHECK:         ret float
  %r = atomicrmw fminimum ptr %p, float %v monotonic, align 4
  ret float %r
}
