; The lowering is required: it also runs on optnone functions.
; REQUIRES: llvm-plugin
; outline=off: the lowering written out at the atomic, where the checks
; see it next to its input (outline-helper-body.ll and outline-kinds.ll
; check the helper functions).
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' %s | %opt -passes=verify -disable-output

define float @optnone(ptr %p, float %v) noinline optnone {
; CHECK-LABEL: define float @optnone(
; CHECK-NOT:     atomicrmw fmin
; CHECK:         atomicrmw min ptr %p, i32
  %r = atomicrmw fmin ptr %p, float %v monotonic, align 4
  ret float %r
}
