; Two functions whose float calls use different handle types: the first
; function's lowering declares dx.op.atomicBinOp.i32 with its handle type,
; and the second's call, which needs another, is reported with both types
; (the declaration the message names is the one the first function's
; lowering made).
; REQUIRES: llvm-plugin
; RUN: not %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}in function b {{.*}}lower-float-atomic-minmax: cannot lower dx.op.atomicBinOp.f32.o: the module already has a function named dx.op.atomicBinOp.i32 of type i32 (i32, %dx.types.Handle, i32, i32, i32, i32, i32), not the type the lowering calls (i32 (i32, %other.Handle, i32, i32, i32, i32, i32))

%dx.types.Handle = type { ptr }
%other.Handle = type { ptr, i32 }
declare float @dx.op.atomicBinOp.f32(i32, %dx.types.Handle, i32, i32, i32, i32, float)
declare float @dx.op.atomicBinOp.f32.o(i32, %other.Handle, i32, i32, i32, i32, float)

define float @a(%dx.types.Handle %h, float %v) {
  %r = call float @dx.op.atomicBinOp.f32(i32 78, %dx.types.Handle %h, i32 4, i32 0, i32 0, i32 0, float %v)
  ret float %r
}

define float @b(%other.Handle %h, float %v) {
  %r = call float @dx.op.atomicBinOp.f32.o(i32 78, %other.Handle %h, i32 4, i32 0, i32 0, i32 0, float %v)
  ret float %r
}
