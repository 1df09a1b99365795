; A float dx.op.atomicBinOp overload that a dxil module defines (a
; linked-in shim, say) is not left behind in silence: the min call is
; reported and opt fails, as for every float atomicBinOp that cannot be
; lowered.  (Outside DXIL such a definition is the module's own:
; dxil-overload-defined-host.ll.)
; REQUIRES: llvm-plugin
; RUN: not %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}lower-float-atomic-minmax: cannot lower dx.op.atomicBinOp.f32: the module defines it, and DXIL has no calls to functions it defines

target triple = "dxil-pc-shadermodel6.6-compute"
%dx.types.Handle = type { ptr }

define float @dx.op.atomicBinOp.f32(i32 %op, %dx.types.Handle %h, i32 %code, i32 %c0, i32 %c1, i32 %c2, float %v) {
  ret float %v
}

define float @main(%dx.types.Handle %h, float %v) {
  %r = call float @dx.op.atomicBinOp.f32(i32 78, %dx.types.Handle %h, i32 4, i32 0, i32 0, i32 0, float %v)
  ret float %r
}
