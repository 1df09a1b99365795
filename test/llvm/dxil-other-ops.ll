; Left alone: float atomicBinOp calls whose op is not a min/max (Add 0,
; Exchange 8), and integer atomicBinOp calls.
; REQUIRES: llvm-plugin
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' %s | %opt -passes=verify -disable-output

%dx.types.Handle = type { ptr }
declare float @dx.op.atomicBinOp.f32(i32, %dx.types.Handle, i32, i32, i32, i32, float)
declare double @dx.op.atomicBinOp.f64(i32, %dx.types.Handle, i32, i32, i32, i32, double)
declare i32 @dx.op.atomicBinOp.i32(i32, %dx.types.Handle, i32, i32, i32, i32, i32)

define float @others(%dx.types.Handle %h, i32 %i, float %v, i32 %n) {
; CHECK-LABEL: define float @others(
; CHECK-NEXT:    %a = call float @dx.op.atomicBinOp.f32(i32 78, %dx.types.Handle %h, i32 0, i32 %i, i32 0, i32 0, float %v)
; CHECK-NEXT:    %x = call float @dx.op.atomicBinOp.f32(i32 78, %dx.types.Handle %h, i32 8, i32 %i, i32 0, i32 0, float %a)
; CHECK-NEXT:    %m = call i32 @dx.op.atomicBinOp.i32(i32 78, %dx.types.Handle %h, i32 4, i32 %i, i32 0, i32 0, i32 %n)
; CHECK-NEXT:    ret float %x
  %a = call float @dx.op.atomicBinOp.f32(i32 78, %dx.types.Handle %h, i32 0, i32 %i, i32 0, i32 0, float %v)
  %x = call float @dx.op.atomicBinOp.f32(i32 78, %dx.types.Handle %h, i32 8, i32 %i, i32 0, i32 0, float %a)
  %m = call i32 @dx.op.atomicBinOp.i32(i32 78, %dx.types.Handle %h, i32 4, i32 %i, i32 0, i32 0, i32 %n)
  ret float %x
}
