; A DXIL float atomicBinOp whose op code is not a constant cannot be lowered
; (min or max is unknown): an error naming the call.
; REQUIRES: llvm-plugin
; RUN: not %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}in function f {{.*}}: lower-float-atomic-minmax: cannot lower dx.op.atomicBinOp.f32: the atomic op code (third argument) must be an i32 constant

%dx.types.Handle = type { ptr }
declare float @dx.op.atomicBinOp.f32(i32, %dx.types.Handle, i32, i32, i32, i32, float)

define float @f(%dx.types.Handle %h, i32 %op, float %v) {
  %r = call float @dx.op.atomicBinOp.f32(i32 78, %dx.types.Handle %h, i32 %op, i32 0, i32 0, i32 0, float %v)
  ret float %r
}
