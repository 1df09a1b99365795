; writers=any: other modules, shaders or the host may write the memory, so
; nothing is proven and every propagate atomic, even on an internal global
; that only fminimum uses, gets the compare-exchange loop.  The function form
; of the pass sees one function and proves nothing either.
; REQUIRES: llvm-plugin
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -S %s | FileCheck %s --check-prefix=MODULE
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<writers=any>' -S %s | FileCheck %s --check-prefix=ANY
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='function(lower-float-atomic-minmax)' -S %s | FileCheck %s --check-prefix=ANY
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<writers=any>' %s | %opt -passes=verify -disable-output

@slot = internal global float 0.0

define float @f(float %v) {
  %r = atomicrmw fminimum ptr @slot, float %v monotonic, align 4
  ret float %r
}
; MODULE: atomicrmw umax
; MODULE-NOT: cmpxchg
; ANY-NOT: atomicrmw {{u?}}m
; ANY: cmpxchg ptr {{.*}} monotonic monotonic
; ANY-NOT: atomicrmw {{u?}}m
