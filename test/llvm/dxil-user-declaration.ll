; A declaration of dx.op.atomicBinOp.i32 that the module already has, with
; exactly the type the lowering calls, is used as it is: its attributes are
; the module's own (no nounwind added), and no second declaration is made.
; REQUIRES: llvm-plugin
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<nan=fast>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<nan=fast>' %s | %opt -passes=verify -disable-output

%dx.types.Handle = type { ptr }
declare i32 @dx.op.atomicBinOp.i32(i32, %dx.types.Handle, i32, i32, i32, i32, i32) #0
declare float @dx.op.atomicBinOp.f32(i32, %dx.types.Handle, i32, i32, i32, i32, float)

; CHECK:       declare i32 @dx.op.atomicBinOp.i32(i32, %dx.types.Handle, i32, i32, i32, i32, i32) [[ATTR:#[0-9]+]]
; CHECK-NOT:   declare {{.*}}@dx.op.atomicBinOp
define float @f(%dx.types.Handle %h, float %v) {
; CHECK:       define float @f(
; CHECK:         call i32 @dx.op.atomicBinOp.i32(i32 78, %dx.types.Handle %h, i32 4,
; CHECK:         call i32 @dx.op.atomicBinOp.i32(i32 78, %dx.types.Handle %h, i32 7,
  %r = call float @dx.op.atomicBinOp.f32(i32 78, %dx.types.Handle %h, i32 4, i32 0, i32 0, i32 0, float %v)
  ret float %r
}

; CHECK-NOT: declare {{.*}}@dx.op.atomicBinOp
; CHECK:     attributes [[ATTR]] = { memory(readwrite) }
; CHECK-NOT: nounwind
attributes #0 = { memory(readwrite) }
