; A float min on a typed UAV of float components (RWBuffer<float>, named
; through dx.op.createHandle and its !dx.resources record: kind 10,
; TypedBuffer; element type 9, F32): DXIL's integer atomics on a typed
; resource need I32/U32 components, and the lowering keeps the resource, so
; the call is reported and opt fails instead of giving integer atomics on a
; float format.
; REQUIRES: llvm-plugin
; RUN: not %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}lower-float-atomic-minmax: cannot lower dx.op.atomicBinOp.f32: the handle is a typed resource with F32 components (!dx.resources), and DXIL's integer atomics on a typed resource need I32 or U32 components: declare it with an integer format, or use a raw or structured buffer

target triple = "dxil-pc-shadermodel6.0-compute"
%dx.types.Handle = type { ptr }
%"class.RWBuffer<float>" = type { float }
@buf = external global %"class.RWBuffer<float>", align 4
declare %dx.types.Handle @dx.op.createHandle(i32, i8, i32, i32, i1)
declare float @dx.op.atomicBinOp.f32(i32, %dx.types.Handle, i32, i32, i32, i32, float)

define void @main(i32 %i, float %v) {
  %h = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 0, i32 0, i1 false)
  %r = call float @dx.op.atomicBinOp.f32(i32 78, %dx.types.Handle %h, i32 4, i32 %i, i32 undef, i32 undef, float %v)
  ret void
}

!dx.resources = !{!0}
!0 = !{null, !1, null, null}
!1 = !{!2}
!2 = !{i32 0, ptr @buf, !"buf", i32 0, i32 0, i32 1, i32 10, i1 false, i1 false, i1 false, !3}
!3 = !{i32 0, i32 9}
