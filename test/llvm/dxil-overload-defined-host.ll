; Outside DXIL a module may define a function of the float overload's name
; (a host emulation of the operation): its calls are the module's own and
; are left alone, and the atomicrmw inside the definition is lowered as any
; other.  (In a dxil module the same is an error:
; dxil-error-float-overload-defined.ll.)
; REQUIRES: llvm-plugin
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>,verify' -S %s | FileCheck %s
; CHECK-LABEL: define float @dx.op.atomicBinOp.f32(
; CHECK-NOT:     atomicrmw fmin
; CHECK:         atomicrmw min ptr
; CHECK-LABEL: define float @caller(
; CHECK-NEXT:    %r = call float @dx.op.atomicBinOp.f32(i32 78, %dx.types.Handle %h, i32 4, i32 0, i32 0, i32 0, float %v)

target triple = "x86_64-unknown-linux-gnu"
%dx.types.Handle = type { ptr }

define float @dx.op.atomicBinOp.f32(i32 %op, %dx.types.Handle %h, i32 %k, i32 %x, i32 %y, i32 %z, float %v) {
  %p = extractvalue %dx.types.Handle %h, 0
  %r = atomicrmw fmin ptr %p, float %v seq_cst, align 4
  ret float %r
}

define float @caller(%dx.types.Handle %h, float %v) {
  %r = call float @dx.op.atomicBinOp.f32(i32 78, %dx.types.Handle %h, i32 4, i32 0, i32 0, i32 0, float %v)
  ret float %r
}
