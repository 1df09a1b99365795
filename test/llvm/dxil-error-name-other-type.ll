; A declaration of dx.op.atomicCompareExchange.i64 (the fix-up's overload for
; f64) with another type: the lowering would call it with a type that does
; not match, so the float call is reported and opt fails.
; REQUIRES: llvm-plugin
; RUN: not %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}lower-float-atomic-minmax: cannot lower dx.op.atomicBinOp.f64: the module already has a function named dx.op.atomicCompareExchange.i64 of type i32 (i32, %dx.types.Handle, i32, i32, i32, i32, i32), not the type the lowering calls (i64 (i32, %dx.types.Handle, i32, i32, i32, i64, i64))

%dx.types.Handle = type { ptr }
declare i32 @dx.op.atomicCompareExchange.i64(i32, %dx.types.Handle, i32, i32, i32, i32, i32)
declare double @dx.op.atomicBinOp.f64(i32, %dx.types.Handle, i32, i32, i32, i32, double)

define double @f(%dx.types.Handle %h, double %v) {
  %r = call double @dx.op.atomicBinOp.f64(i32 78, %dx.types.Handle %h, i32 5, i32 0, i32 0, i32 0, double %v)
  ret double %r
}
