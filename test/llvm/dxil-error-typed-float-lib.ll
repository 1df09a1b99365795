; The typed-resource check on a library target (lib_6_3): the handle comes
; from dx.op.createHandleForLib of a load of the resource's global, which
; the !dx.resources UAV record names (a TypedBuffer of F32 components): the
; float min is reported and opt fails.
; REQUIRES: llvm-plugin
; RUN: not %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}lower-float-atomic-minmax: cannot lower dx.op.atomicBinOp.f32: the handle is a typed resource with F32 components (!dx.resources), and DXIL's integer atomics on a typed resource need I32 or U32 components

target triple = "dxil-pc-shadermodel6.3-library"
%dx.types.Handle = type { ptr }
%"class.RWBuffer<float>" = type { float }
@buf = external global %"class.RWBuffer<float>", align 4
declare %dx.types.Handle @dx.op.createHandleForLib.class.RWBuffer(i32, %"class.RWBuffer<float>")
declare float @dx.op.atomicBinOp.f32(i32, %dx.types.Handle, i32, i32, i32, i32, float)

define void @main(i32 %i, float %v) {
  %res = load %"class.RWBuffer<float>", ptr @buf, align 4
  %h = call %dx.types.Handle @dx.op.createHandleForLib.class.RWBuffer(i32 160, %"class.RWBuffer<float>" %res)
  %r = call float @dx.op.atomicBinOp.f32(i32 78, %dx.types.Handle %h, i32 4, i32 %i, i32 undef, i32 undef, float %v)
  ret void
}

!dx.resources = !{!0}
!0 = !{null, !1, null, null}
!1 = !{!2}
!2 = !{i32 0, ptr @buf, !"buf", i32 0, i32 0, i32 1, i32 10, i1 false, i1 false, i1 false, !3}
!3 = !{i32 0, i32 9}
