; A float atomicBinOp call without the DXIL shape (opcode 78, seven
; arguments) is an error rather than a guess.
; REQUIRES: llvm-plugin
; RUN: not %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}lower-float-atomic-minmax: cannot lower dx.op.atomicBinOp.f32: the first argument must be the DXIL opcode i32 78

%dx.types.Handle = type { ptr }
declare float @dx.op.atomicBinOp.f32(i32, %dx.types.Handle, i32, i32, i32, i32, float)

define float @f(%dx.types.Handle %h, float %v) {
  %r = call float @dx.op.atomicBinOp.f32(i32 79, %dx.types.Handle %h, i32 4, i32 0, i32 0, i32 0, float %v)
  ret float %r
}
