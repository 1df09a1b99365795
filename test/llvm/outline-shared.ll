; outline=on (the default): every atomicrmw of one kind becomes a call of one
; helper function, shared across the module's functions; each kind
; (operation, type, ordering) has its own.  The call keeps the atomic's name.
; REQUIRES: llvm-plugin
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=on>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' %s | %opt -passes=verify -disable-output

define float @bounds(ptr %p, float %v) {
; CHECK-LABEL: define float @bounds(
; CHECK-NEXT:    [[FZV:%[0-9]+]] = freeze float %v
; CHECK-NEXT:    %lo = call float @fatomic.fmin.f32.monotonic(ptr %p, float [[FZV]])
; CHECK-NEXT:    %hi = call float @fatomic.fmax.f32.monotonic(ptr %p, float [[FZV]])
; CHECK-NEXT:    ret float %lo
  %lo = atomicrmw fmin ptr %p, float %v monotonic, align 4
  %hi = atomicrmw fmax ptr %p, float %v monotonic, align 4
  ret float %lo
}

define void @other(ptr %q, float %w, double %d) {
; CHECK-LABEL: define void @other(
; CHECK-NEXT:    [[FZW:%[0-9]+]] = freeze float %w
; CHECK-NEXT:    [[FZD:%[0-9]+]] = freeze double %d
; CHECK-NEXT:    %x = call float @fatomic.fmin.f32.monotonic(ptr %q, float [[FZW]])
; CHECK-NEXT:    %y = call float @fatomic.fmin.f32.seq_cst(ptr %q, float [[FZW]])
; CHECK-NEXT:    %z = call double @fatomic.fmin.f64.monotonic(ptr %q, double [[FZD]])
; CHECK-NEXT:    %m = call float @fatomic.fminimum.f32.monotonic(ptr %q, float [[FZW]])
; CHECK-NEXT:    ret void
  %x = atomicrmw fmin ptr %q, float %w monotonic, align 4
  %y = atomicrmw fmin ptr %q, float %w seq_cst, align 4
  %z = atomicrmw fmin ptr %q, double %d monotonic, align 8
  %m = atomicrmw fminimum ptr %q, float %w monotonic, align 4
  ret void
}

; One definition per kind, in the order of first use, after the input's
; functions.
; CHECK:     define internal float @fatomic.fmin.f32.monotonic(ptr %p, float noundef %v) unnamed_addr [[ATTRS:#[0-9]+]] {
; CHECK:     define internal float @fatomic.fmax.f32.monotonic(ptr %p, float noundef %v) unnamed_addr [[ATTRS]] {
; CHECK:     define internal float @fatomic.fmin.f32.seq_cst(ptr %p, float noundef %v) unnamed_addr [[ATTRS]] {
; CHECK:     define internal double @fatomic.fmin.f64.monotonic(ptr %p, double noundef %v) unnamed_addr [[ATTRS]] {
; CHECK:     define internal float @fatomic.fminimum.f32.monotonic(ptr %p, float noundef %v) unnamed_addr [[ATTRS]] {
; CHECK-NOT: define
; CHECK:     attributes [[ATTRS]] = { alwaysinline nounwind }
