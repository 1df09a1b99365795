; A DXIL opcode constant wider than 32 bits is not truncated: i128 2^64+78
; is not opcode 78.  The call is reported and opt fails.
; REQUIRES: llvm-plugin
; RUN: not %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}lower-float-atomic-minmax: cannot lower dx.op.atomicBinOp.f32: the first argument must be the DXIL opcode i32 78

%dx.types.Handle = type { ptr }
declare float @dx.op.atomicBinOp.f32(i128, %dx.types.Handle, i32, i32, i32, i32, float)

define float @f(%dx.types.Handle %h, float %v) {
  %r = call float @dx.op.atomicBinOp.f32(i128 18446744073709551694, %dx.types.Handle %h, i32 4, i32 0, i32 0, i32 0, float %v)
  ret float %r
}
