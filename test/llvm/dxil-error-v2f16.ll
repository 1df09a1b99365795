; A <2 x half> overload of dx.op.atomicBinOp (a float vector, which DXIL's
; 32- and 64-bit integer atomics do not lower lane by lane) is reported, not
; left in the output.
; REQUIRES: llvm-plugin
; RUN: not %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}lower-float-atomic-minmax: cannot lower dx.op.atomicBinOp.v2f16: DXIL has integer atomics of 32 and 64 bits only; a float atomicBinOp must be f32 or f64

%dx.types.Handle = type { ptr }
declare <2 x half> @dx.op.atomicBinOp.v2f16(i32, %dx.types.Handle, i32, i32, i32, i32, <2 x half>)

define <2 x half> @f(%dx.types.Handle %h, <2 x half> %v) {
  %r = call <2 x half> @dx.op.atomicBinOp.v2f16(i32 78, %dx.types.Handle %h, i32 4, i32 0, i32 0, i32 0, <2 x half> %v)
  ret <2 x half> %r
}
