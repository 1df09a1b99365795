; When the atomic's result is unused no result phi or bitcast is built.
; REQUIRES: llvm-plugin
; outline=off: the lowering written out at the atomic, where the checks
; see it next to its input (outline-helper-body.ll and outline-kinds.ll
; check the helper functions).
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' %s | %opt -passes=verify -disable-output

define void @unused(ptr %p, float %v) {
; CHECK-LABEL: define void @unused(
; CHECK-NOT:     bitcast i32
; CHECK-NOT:     phi i32 [ %{{[0-9]+}}, %fatomic.check ]
; CHECK:       fatomic.done:
; CHECK-NEXT:    ret void
  %r = atomicrmw fmax ptr %p, float %v acquire, align 4
  ret void
}
