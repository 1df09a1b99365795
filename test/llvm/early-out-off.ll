; early-out=off: no atomic load before the dispatched atomic, even where one
; would be legal.
; REQUIRES: llvm-plugin
; outline=off: the lowering written out at the atomic, where the checks
; see it next to its input (outline-helper-body.ll and outline-kinds.ll
; check the helper functions).
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<early-out=off;outline=off>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<early-out=off;outline=off>' %s | %opt -passes=verify -disable-output

define float @fmin(ptr %p, float %v) {
; CHECK-LABEL: define float @fmin(
; CHECK-NOT:     load
; CHECK:         atomicrmw min ptr %p, i32 {{%.*}} monotonic
; CHECK:         atomicrmw umax ptr %p, i32 {{%.*}} monotonic
; CHECK:         cmpxchg
  %r = atomicrmw fmin ptr %p, float %v monotonic, align 4
  ret float %r
}
