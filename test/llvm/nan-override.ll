; nan= overrides the operation's default: fmin under propagate stores the
; sticky pattern from a compare-exchange loop (the writers of %p are
; unknown) and has no integer min/max; fminimum under number gets the
; identity pattern, the sign-dispatched atomic and the fix-up.
; REQUIRES: llvm-plugin
; outline=off: the lowering written out at the atomic, where the checks
; see it next to its input (outline-helper-body.ll and outline-kinds.ll check
; the helper functions).
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<nan=propagate;outline=off>' -S %s | FileCheck %s --check-prefix=PROPAGATE
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<nan=number;outline=off>' -S %s | FileCheck %s --check-prefix=NUMBER
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<nan=propagate;outline=off>' %s | %opt -passes=verify -disable-output
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<nan=number;outline=off>' %s | %opt -passes=verify -disable-output

define float @fmin(ptr %p, float %v) {
; PROPAGATE-LABEL: define float @fmin(
; PROPAGATE:         select i1 {{%.*}}, i32 -1, i32
; PROPAGATE-NOT:     atomicrmw
; PROPAGATE:         cmpxchg
; PROPAGATE-NOT:     atomicrmw
; PROPAGATE:         ret float
; NUMBER-LABEL:    define float @fmin(
; NUMBER:            select i1 {{%.*}}, i32 2147483647, i32
; NUMBER:            atomicrmw min
; NUMBER:            cmpxchg
  %r = atomicrmw fmin ptr %p, float %v monotonic, align 4
  ret float %r
}

define float @fminimum(ptr %p, float %v) {
; PROPAGATE-LABEL: define float @fminimum(
; PROPAGATE:         select i1 {{%.*}}, i32 -1, i32
; PROPAGATE-NOT:     atomicrmw
; PROPAGATE:         cmpxchg
; PROPAGATE-NOT:     atomicrmw
; PROPAGATE:         ret float
; NUMBER-LABEL:    define float @fminimum(
; NUMBER:            select i1 {{%.*}}, i32 2147483647, i32
; NUMBER:            atomicrmw min
; NUMBER:            cmpxchg
  %r = atomicrmw fminimum ptr %p, float %v monotonic, align 4
  ret float %r
}
