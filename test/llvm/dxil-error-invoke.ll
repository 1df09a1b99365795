; An invoke of dx.op.atomicBinOp.f32 (DXIL has no exceptions) is not left in
; the output unlowered: it is reported and opt fails.
; REQUIRES: llvm-plugin
; RUN: not %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}lower-float-atomic-minmax: cannot lower dx.op.atomicBinOp.f32: an invoke or callbr (DXIL has no exceptions); use a call

%dx.types.Handle = type { ptr }
declare float @dx.op.atomicBinOp.f32(i32, %dx.types.Handle, i32, i32, i32, i32, float)
declare i32 @__gxx_personality_v0(...)

define float @f(%dx.types.Handle %h, float %v) personality ptr @__gxx_personality_v0 {
  %r = invoke float @dx.op.atomicBinOp.f32(i32 78, %dx.types.Handle %h, i32 4, i32 0, i32 0, i32 0, float %v)
          to label %ok unwind label %bad
ok:
  ret float %r
bad:
  %lp = landingpad { ptr, i32 } cleanup
  ret float 0.0
}
