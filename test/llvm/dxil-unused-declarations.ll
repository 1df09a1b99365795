; A float dx.op.atomicBinOp overload is not DXIL: once every call to it is
; rewritten, its declaration goes too.  A declaration still called (here by
; an Add, op code 0, which is not a min/max) stays, and so does one that had
; no calls before the pass.  A declaration shared by two functions goes once
; the second has been lowered.
; REQUIRES: llvm-plugin
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -S %s -o %t.ll
; RUN: %opt -passes=verify -disable-output %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: FileCheck %s --check-prefix=DECL < %t.ll
; RUN: FileCheck %s --check-prefix=GONE < %t.ll

%dx.types.Handle = type { ptr }
declare float @dx.op.atomicBinOp.f32(i32, %dx.types.Handle, i32, i32, i32, i32, float)
declare double @dx.op.atomicBinOp.f64(i32, %dx.types.Handle, i32, i32, i32, i32, double)
declare half @dx.op.atomicBinOp.f16(i32, %dx.types.Handle, i32, i32, i32, i32, half)

; CHECK-LABEL: define float @min_f32(
; CHECK:         call i32 @dx.op.atomicBinOp.i32(i32 78, %dx.types.Handle %h, i32 4,
define float @min_f32(%dx.types.Handle %h, i32 %i, float %v) {
  %r = call float @dx.op.atomicBinOp.f32(i32 78, %dx.types.Handle %h, i32 4, i32 %i, i32 0, i32 0, float %v)
  ret float %r
}

; CHECK-LABEL: define double @max_f64(
; CHECK:         call i64 @dx.op.atomicBinOp.i64(i32 78, %dx.types.Handle %h, i32 5,
define double @max_f64(%dx.types.Handle %h, i32 %i, double %v) {
  %r = call double @dx.op.atomicBinOp.f64(i32 78, %dx.types.Handle %h, i32 5, i32 %i, i32 0, i32 0, double %v)
  ret double %r
}

; CHECK-LABEL: define double @max_f64_again(
; CHECK:         call i64 @dx.op.atomicBinOp.i64(i32 78, %dx.types.Handle %h, i32 5,
define double @max_f64_again(%dx.types.Handle %h, i32 %i, double %v) {
  %r = call double @dx.op.atomicBinOp.f64(i32 78, %dx.types.Handle %h, i32 7, i32 %i, i32 1, i32 0, double %v)
  ret double %r
}

; CHECK-LABEL: define float @add_f32(
; CHECK:         call float @dx.op.atomicBinOp.f32(i32 78, %dx.types.Handle %h, i32 0,
define float @add_f32(%dx.types.Handle %h, i32 %i, float %v) {
  %r = call float @dx.op.atomicBinOp.f32(i32 78, %dx.types.Handle %h, i32 0, i32 %i, i32 0, i32 0, float %v)
  ret float %r
}

; DECL-DAG:  declare float @dx.op.atomicBinOp.f32(
; DECL-DAG:  declare half @dx.op.atomicBinOp.f16(
; DECL-DAG:  declare i32 @dx.op.atomicBinOp.i32(
; DECL-DAG:  declare i64 @dx.op.atomicBinOp.i64(
; GONE-NOT:  @dx.op.atomicBinOp.f64
