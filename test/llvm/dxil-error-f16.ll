; DXIL has no 16-bit integer atomics: a half atomicBinOp min is an error.
; REQUIRES: llvm-plugin
; RUN: not %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}lower-float-atomic-minmax: cannot lower dx.op.atomicBinOp.f16: DXIL has integer atomics of 32 and 64 bits only; a float atomicBinOp must be f32 or f64

%dx.types.Handle = type { ptr }
declare half @dx.op.atomicBinOp.f16(i32, %dx.types.Handle, i32, i32, i32, i32, half)

define half @f(%dx.types.Handle %h, half %v) {
  %r = call half @dx.op.atomicBinOp.f16(i32 78, %dx.types.Handle %h, i32 4, i32 0, i32 0, i32 0, half %v)
  ret half %r
}
