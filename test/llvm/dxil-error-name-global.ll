; A module that already has a global variable named dx.op.atomicBinOp.i32
; (the integer overload the lowering calls) gets no call of that data global:
; the float call is reported and opt fails.
; REQUIRES: llvm-plugin
; RUN: not %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}lower-float-atomic-minmax: cannot lower dx.op.atomicBinOp.f32: the module already has a global named dx.op.atomicBinOp.i32, not a declaration of the type the lowering calls (i32 (i32, %dx.types.Handle, i32, i32, i32, i32, i32))

%dx.types.Handle = type { ptr }
@dx.op.atomicBinOp.i32 = global i32 0
declare float @dx.op.atomicBinOp.f32(i32, %dx.types.Handle, i32, i32, i32, i32, float)

define float @f(%dx.types.Handle %h, float %v) {
  %r = call float @dx.op.atomicBinOp.f32(i32 78, %dx.types.Handle %h, i32 4, i32 0, i32 0, i32 0, float %v)
  ret float %r
}
