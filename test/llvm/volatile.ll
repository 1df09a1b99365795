; A volatile atomic stays one read-modify-write: no early-out load, and every
; emitted atomic is volatile.
; REQUIRES: llvm-plugin
; outline=off: the lowering written out at the atomic, where the checks
; see it next to its input (outline-helper-body.ll and outline-kinds.ll
; check the helper functions).
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' %s | %opt -passes=verify -disable-output

define float @volatile(ptr %p, float %v) {
; CHECK-LABEL: define float @volatile(
; CHECK-NOT:     load
; CHECK:         atomicrmw volatile min ptr %p, i32 {{%.*}} monotonic, align 4
; CHECK:         atomicrmw volatile umax ptr %p, i32 {{%.*}} monotonic, align 4
; CHECK:         cmpxchg volatile ptr %p
  %r = atomicrmw volatile fmin ptr %p, float %v monotonic, align 4
  ret float %r
}
