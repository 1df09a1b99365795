; A call of dx.op.atomicBinOp.f32 whose type does not match the declaration
; (here the call returns float, the declaration double) is reported, not
; left in the output.
; REQUIRES: llvm-plugin
; RUN: not %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}lower-float-atomic-minmax: cannot lower dx.op.atomicBinOp.f32: the call's type does not match the function's declaration

%dx.types.Handle = type { ptr }
declare double @dx.op.atomicBinOp.f32(i32, %dx.types.Handle, i32, i32, i32, i32, double)

define float @f(%dx.types.Handle %h, float %v) {
  %r = call float @dx.op.atomicBinOp.f32(i32 78, %dx.types.Handle %h, i32 4, i32 0, i32 0, i32 0, float %v)
  ret float %r
}
