; atomicrmw fmaximum: propagate's sticky pattern for max is 0x7FFFFFFF (the
; NaN above every number under smax).  Through a pointer argument the
; writers of the memory are unknown: the compare-exchange loop, no
; sign-dispatched max/umin (fminimum-propagate.ll says why).
; REQUIRES: llvm-plugin
; outline=off: the lowering written out at the atomic, where the checks
; see it next to its input (outline-helper-body.ll and outline-kinds.ll check
; the helper functions).
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' %s | %opt -passes=verify -disable-output

define float @fmaximum(ptr %p, float %v) {
; CHECK-LABEL: define float @fmaximum(
; CHECK:         [[OP:%.*]] = select i1 {{%.*}}, i32 2147483647, i32 {{%.*}}
; CHECK:         load atomic i32, ptr %p acquire, align 4
; CHECK:         select i1 {{%.*}}, i32 [[OP]], i32
; CHECK:         cmpxchg ptr %p, i32 {{%.*}}, i32 {{%.*}} acquire acquire, align 4
; CHECK-NOT:     atomicrmw
; CHECK:         ret float
  %r = atomicrmw fmaximum ptr %p, float %v acquire, align 4
  ret float %r
}
