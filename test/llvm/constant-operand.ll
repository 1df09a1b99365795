; A constant operand folds the sign test: one integer atomic, no branch on
; the sign.  (Without the early-out the atomic still gets a block of its
; own: the target of the NaN fix-up's retry.)
; REQUIRES: llvm-plugin
; outline=off: the lowering written out at the atomic, where the checks
; see it next to its input (outline-helper-body.ll and outline-kinds.ll
; check the helper functions).
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' %s | %opt -passes=verify -disable-output

define float @negative(ptr %p) {
; CHECK-LABEL: define float @negative(
; CHECK:         [[CUR:%.*]] = load atomic i32, ptr %p monotonic, align 4
; CHECK:       fatomic.rmw:
; CHECK-NEXT:    [[OLD:%.*]] = atomicrmw umax ptr %p, i32 -1082130432 monotonic, align 4
; CHECK-NOT:     atomicrmw
; CHECK:         ret float
  %r = atomicrmw fmin ptr %p, float -1.0 monotonic, align 4
  ret float %r
}

define float @positive_zero(ptr %p) {
; CHECK-LABEL: define float @positive_zero(
; CHECK-NEXT:    br label %fatomic.rmw
; CHECK:       fatomic.rmw:
; CHECK-NEXT:    [[OLD:%.*]] = atomicrmw max ptr %p, i32 0 release, align 4
; CHECK-NOT:     atomicrmw
; CHECK:         ret float
  %r = atomicrmw fmax ptr %p, float 0.0 release, align 4
  ret float %r
}

; -0.0 has its sign bit set: it takes umin for max (a `v >= 0` test would
; send it to smax, where 0x80000000 is the smallest integer).
define float @negative_zero(ptr %p) {
; CHECK-LABEL: define float @negative_zero(
; CHECK-NEXT:    br label %fatomic.rmw
; CHECK:       fatomic.rmw:
; CHECK-NEXT:    [[OLD:%.*]] = atomicrmw umin ptr %p, i32 -2147483648 release, align 4
; CHECK-NOT:     atomicrmw
; CHECK:         ret float
  %r = atomicrmw fmax ptr %p, float -0.0 release, align 4
  ret float %r
}
