; release, acq_rel and seq_cst have a release part: no early-out load.  The
; dispatched atomic carries the ordering, the fix-up cmpxchg has it as its
; success ordering and the strongest legal failure ordering.
; REQUIRES: llvm-plugin
; outline=off: the lowering written out at the atomic, where the checks
; see it next to its input (outline-helper-body.ll and outline-kinds.ll
; check the helper functions).
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' %s | %opt -passes=verify -disable-output

define float @release(ptr %p, float %v) {
; CHECK-LABEL: define float @release(
; CHECK-NOT:     load atomic
; CHECK:         atomicrmw min ptr %p, i32 {{%.*}} release, align 4
; CHECK:         atomicrmw umax ptr %p, i32 {{%.*}} release, align 4
; CHECK:         cmpxchg ptr %p, i32 {{%.*}}, i32 {{%.*}} release monotonic, align 4
  %r = atomicrmw fmin ptr %p, float %v release, align 4
  ret float %r
}

define float @acq_rel(ptr %p, float %v) {
; CHECK-LABEL: define float @acq_rel(
; CHECK-NOT:     load atomic
; CHECK:         atomicrmw max ptr %p, i32 {{%.*}} acq_rel, align 4
; CHECK:         atomicrmw umin ptr %p, i32 {{%.*}} acq_rel, align 4
; CHECK:         cmpxchg ptr %p, i32 {{%.*}}, i32 {{%.*}} acq_rel acquire, align 4
  %r = atomicrmw fmax ptr %p, float %v acq_rel, align 4
  ret float %r
}

define float @seq_cst(ptr %p, float %v) {
; CHECK-LABEL: define float @seq_cst(
; CHECK-NOT:     load atomic
; CHECK:         atomicrmw min ptr %p, i32 {{%.*}} seq_cst, align 4
; CHECK:         atomicrmw umax ptr %p, i32 {{%.*}} seq_cst, align 4
; CHECK:         cmpxchg ptr %p, i32 {{%.*}}, i32 {{%.*}} seq_cst seq_cst, align 4
  %r = atomicrmw fmin ptr %p, float %v seq_cst, align 4
  ret float %r
}
