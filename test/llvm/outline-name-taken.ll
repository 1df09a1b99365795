; A helper's name that the module already uses gets a number appended; the
; existing function is left as it is.
; REQUIRES: llvm-plugin
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' %s | %opt -passes=verify -disable-output

define i32 @fatomic.fmin.f32.monotonic(i32 %x) {
; CHECK-LABEL: define i32 @fatomic.fmin.f32.monotonic(i32 %x)
; CHECK-NEXT:    ret i32 %x
  ret i32 %x
}

define float @user(ptr %p, float %v) {
; CHECK-LABEL: define float @user(
; CHECK-NEXT:    [[FZV:%[0-9]+]] = freeze float %v
; CHECK-NEXT:    %r = call float @fatomic.fmin.f32.monotonic.1(ptr %p, float [[FZV]])
  %r = atomicrmw fmin ptr %p, float %v monotonic, align 4
  ret float %r
}
; CHECK: define internal float @fatomic.fmin.f32.monotonic.1(ptr %p, float noundef %v)
