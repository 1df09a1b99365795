; An atomic op code (third argument) wider than 32 bits is not truncated:
; i64 2^32+4 is not IMin.  The call is reported and opt fails.
; REQUIRES: llvm-plugin
; RUN: not %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}lower-float-atomic-minmax: cannot lower dx.op.atomicBinOp.f32: the atomic op code (third argument) must be an i32 constant

%dx.types.Handle = type { ptr }
declare float @dx.op.atomicBinOp.f32(i32, %dx.types.Handle, i64, i32, i32, i32, float)

define float @f(%dx.types.Handle %h, float %v) {
  %r = call float @dx.op.atomicBinOp.f32(i32 78, %dx.types.Handle %h, i64 4294967300, i32 0, i32 0, i32 0, float %v)
  ret float %r
}
