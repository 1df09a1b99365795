; A module that defines dx.op.atomicCompareExchange.i32, with exactly the type
; the lowering calls, does not get calls of that body: DXIL has no calls to
; functions it defines.  The float call is reported and opt fails.
; REQUIRES: llvm-plugin
; RUN: not %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}lower-float-atomic-minmax: cannot lower dx.op.atomicBinOp.f32: the module defines dx.op.atomicCompareExchange.i32, and DXIL has no calls to functions it defines

%dx.types.Handle = type { ptr }
declare float @dx.op.atomicBinOp.f32(i32, %dx.types.Handle, i32, i32, i32, i32, float)

define i32 @dx.op.atomicCompareExchange.i32(i32 %op, %dx.types.Handle %h, i32 %c0, i32 %c1, i32 %c2, i32 %cmp, i32 %new) {
  ret i32 %cmp
}

define float @main(%dx.types.Handle %h, float %v) {
  %r = call float @dx.op.atomicBinOp.f32(i32 78, %dx.types.Handle %h, i32 4, i32 0, i32 0, i32 0, float %v)
  ret float %r
}
