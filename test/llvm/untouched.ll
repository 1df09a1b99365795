; Left alone: other FP atomics, integer min/max, fp128 (no integer atomic
; of its width is assumed), vectors wider than 64 bits.  A function without
; float min/max atomics comes out unchanged.
; REQUIRES: llvm-plugin
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' %s | %opt -passes=verify -disable-output

define void @untouched(ptr %p, float %f, i32 %n, fp128 %q, <4 x float> %w) {
; CHECK-LABEL: define void @untouched(
; CHECK-NEXT:    %a = atomicrmw fadd ptr %p, float %f monotonic, align 4
; CHECK-NEXT:    %b = atomicrmw fsub ptr %p, float %f monotonic, align 4
; CHECK-NEXT:    %c = atomicrmw xchg ptr %p, float %f monotonic, align 4
; CHECK-NEXT:    %d = atomicrmw min ptr %p, i32 %n monotonic, align 4
; CHECK-NEXT:    %e = atomicrmw fmin ptr %p, fp128 %q monotonic, align 16
; CHECK-NEXT:    %h = atomicrmw fmin ptr %p, <4 x float> %w monotonic, align 16
; CHECK-NEXT:    ret void
  %a = atomicrmw fadd ptr %p, float %f monotonic, align 4
  %b = atomicrmw fsub ptr %p, float %f monotonic, align 4
  %c = atomicrmw xchg ptr %p, float %f monotonic, align 4
  %d = atomicrmw min ptr %p, i32 %n monotonic, align 4
  %e = atomicrmw fmin ptr %p, fp128 %q monotonic, align 16
  %h = atomicrmw fmin ptr %p, <4 x float> %w monotonic, align 16
  ret void
}
