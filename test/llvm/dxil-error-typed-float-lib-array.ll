; The typed-resource check on a library target when the UAV is an array of
; resources (RWBuffer<float> bufs[4]): the handle comes from
; dx.op.createHandleForLib of a load of an element of the resource's global,
; through a getelementptr, and the !dx.resources record of the global (a
; TypedBuffer of F32 components) describes every element: the float min is
; reported and opt fails, as for a single resource
; (dxil-error-typed-float-lib.ll).
; REQUIRES: llvm-plugin
; RUN: not %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}in function main {{.*}}lower-float-atomic-minmax: cannot lower dx.op.atomicBinOp.f32: the handle is a typed resource with F32 components (!dx.resources), and DXIL's integer atomics on a typed resource need I32 or U32 components
; CHECK-NOT: error:

target triple = "dxil-pc-shadermodel6.3-library"
%dx.types.Handle = type { ptr }
%"class.RWBuffer<float>" = type { float }
@bufs = external global [4 x %"class.RWBuffer<float>"], align 4
declare %dx.types.Handle @dx.op.createHandleForLib.class.RWBuffer(i32, %"class.RWBuffer<float>")
declare float @dx.op.atomicBinOp.f32(i32, %dx.types.Handle, i32, i32, i32, i32, float)

define void @main(i32 %i, i32 %k, float %v) {
  %p = getelementptr inbounds [4 x %"class.RWBuffer<float>"], ptr @bufs, i32 0, i32 %k
  %res = load %"class.RWBuffer<float>", ptr %p, align 4
  %h = call %dx.types.Handle @dx.op.createHandleForLib.class.RWBuffer(i32 160, %"class.RWBuffer<float>" %res)
  %r = call float @dx.op.atomicBinOp.f32(i32 78, %dx.types.Handle %h, i32 4, i32 %i, i32 undef, i32 undef, float %v)
  ret void
}

!dx.resources = !{!0}
!0 = !{null, !1, null, null}
!1 = !{!2}
!2 = !{i32 0, ptr @bufs, !"bufs", i32 0, i32 0, i32 4, i32 10, i1 false, i1 false, i1 false, !3}
!3 = !{i32 0, i32 9}
