; The typed-resource check refuses only what it sees is a float format: a
; typed UAV of U32 components (RWBuffer<uint> holding float bits), a raw
; buffer (RWByteAddressBuffer, kind 11) and a structured buffer (kind 12),
; through !dx.resources and through dx.op.annotateHandle, a handle whose
; origin is not visible (an argument), and one whose annotation is malformed
; (a scalar where the two property words belong) are lowered.
; REQUIRES: llvm-plugin
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -S %s | FileCheck %s
; CHECK-LABEL: define void @typed_u32(
; CHECK:         call i32 @dx.op.atomicBinOp.i32(i32 78, %dx.types.Handle %h, i32 4,
; CHECK-LABEL: define void @raw(
; CHECK:         call i32 @dx.op.atomicBinOp.i32(i32 78, %dx.types.Handle %h, i32 4,
; CHECK-LABEL: define void @structured_annotated(
; CHECK:         call i32 @dx.op.atomicBinOp.i32(i32 78, %dx.types.Handle %h, i32 4,
; CHECK-LABEL: define void @argument(
; CHECK:         call i32 @dx.op.atomicBinOp.i32(i32 78, %dx.types.Handle %h, i32 4,
; CHECK-LABEL: define void @scalar_annotation(
; CHECK:         call i32 @dx.op.atomicBinOp.i32(i32 78, %dx.types.Handle %h, i32 4,
; CHECK-NOT:     @dx.op.atomicBinOp.f32(

target triple = "dxil-pc-shadermodel6.6-compute"
%dx.types.Handle = type { ptr }
%dx.types.ResBind = type { i32, i32, i32, i8 }
%dx.types.ResourceProperties = type { i32, i32 }
@ubuf = external global i32, align 4
@rawbuf = external global i32, align 4
declare %dx.types.Handle @dx.op.createHandle(i32, i8, i32, i32, i1)
declare %dx.types.Handle @dx.op.createHandleFromBinding(i32, %dx.types.ResBind, i32, i1)
declare %dx.types.Handle @dx.op.annotateHandle(i32, %dx.types.Handle, %dx.types.ResourceProperties)
declare float @dx.op.atomicBinOp.f32(i32, %dx.types.Handle, i32, i32, i32, i32, float)
declare %dx.types.Handle @dx.op.annotateHandle.scalar(i32, %dx.types.Handle, i64)

define void @typed_u32(i32 %i, float %v) {
  %h = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 0, i32 0, i1 false)
  %r = call float @dx.op.atomicBinOp.f32(i32 78, %dx.types.Handle %h, i32 4, i32 %i, i32 undef, i32 undef, float %v)
  ret void
}

define void @raw(i32 %i, float %v) {
  %h = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 1, i32 0, i1 false)
  %r = call float @dx.op.atomicBinOp.f32(i32 78, %dx.types.Handle %h, i32 4, i32 %i, i32 undef, i32 undef, float %v)
  ret void
}

define void @structured_annotated(i32 %i, float %v) {
  %b = call %dx.types.Handle @dx.op.createHandleFromBinding(i32 217, %dx.types.ResBind { i32 2, i32 2, i32 0, i8 1 }, i32 2, i1 false)
  %h = call %dx.types.Handle @dx.op.annotateHandle(i32 216, %dx.types.Handle %b, %dx.types.ResourceProperties { i32 4108, i32 4 })
  %r = call float @dx.op.atomicBinOp.f32(i32 78, %dx.types.Handle %h, i32 4, i32 %i, i32 0, i32 undef, float %v)
  ret void
}

define void @argument(%dx.types.Handle %h, i32 %i, float %v) {
  %r = call float @dx.op.atomicBinOp.f32(i32 78, %dx.types.Handle %h, i32 4, i32 %i, i32 undef, i32 undef, float %v)
  ret void
}

define void @scalar_annotation(%dx.types.Handle %b, i32 %i, float %v) {
  %h = call %dx.types.Handle @dx.op.annotateHandle.scalar(i32 216, %dx.types.Handle %b, i64 4361)
  %r = call float @dx.op.atomicBinOp.f32(i32 78, %dx.types.Handle %h, i32 4, i32 %i, i32 undef, i32 undef, float %v)
  ret void
}

!dx.resources = !{!0}
!0 = !{null, !1, null, null}
!1 = !{!2, !4}
!2 = !{i32 0, ptr @ubuf, !"ubuf", i32 0, i32 0, i32 1, i32 10, i1 false, i1 false, i1 false, !3}
!3 = !{i32 0, i32 5}
!4 = !{i32 1, ptr @rawbuf, !"rawbuf", i32 0, i32 1, i32 1, i32 11, i1 false, i1 false, i1 false, null}
