; DXIL dx.op.atomicBinOp.f64 with op 5 (IMax) or 7 (UMax) is a float max:
; dx.op.atomicBinOp.i64 with IMax (5, sign clear) or UMin (6, sign set), the
; identity all-ones for a NaN operand, dx.op.atomicCompareExchange.i64.
; REQUIRES: llvm-plugin
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' %s | %opt -passes=verify -disable-output

%dx.types.Handle = type { ptr }
declare float @dx.op.atomicBinOp.f32(i32, %dx.types.Handle, i32, i32, i32, i32, float)
declare double @dx.op.atomicBinOp.f64(i32, %dx.types.Handle, i32, i32, i32, i32, double)

define double @umax(%dx.types.Handle %h, i32 %i, double %v) {
; CHECK-LABEL: define double @umax(
; CHECK:         [[OP:%.*]] = select i1 {{%.*}}, i64 -1, i64 {{%.*}}
; CHECK:         call i64 @dx.op.atomicBinOp.i64(i32 78, %dx.types.Handle %h, i32 5, i32 %i, i32 0, i32 0, i64 [[OP]])
; CHECK:         call i64 @dx.op.atomicBinOp.i64(i32 78, %dx.types.Handle %h, i32 6, i32 %i, i32 0, i32 0, i64 [[OP]])
; CHECK:         call i64 @dx.op.atomicCompareExchange.i64(i32 79, %dx.types.Handle %h, i32 %i, i32 0, i32 0, i64
; CHECK:         bitcast i64 {{%.*}} to double
  %r = call double @dx.op.atomicBinOp.f64(i32 78, %dx.types.Handle %h, i32 7, i32 %i, i32 0, i32 0, double %v)
  ret double %r
}

; CHECK: declare i64 @dx.op.atomicBinOp.i64(i32, %dx.types.Handle, i32, i32, i32, i32, i64)
; CHECK: declare i64 @dx.op.atomicCompareExchange.i64(i32, %dx.types.Handle, i32, i32, i32, i64, i64)
