; The check of dxil-error-typed-float-uav.ll through shader model 6.6's
; dx.op.annotateHandle: properties { 4106, 266 } are a TypedBuffer UAV (kind
; 10, the UAV bit 0x1000) of one F64 component (10, count 1 << 8), and the
; f64 overload's integer atomics need I64/U64 components.
; REQUIRES: llvm-plugin
; RUN: not %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}lower-float-atomic-minmax: cannot lower dx.op.atomicBinOp.f64: the handle is a typed resource with F64 components (dx.op.annotateHandle), and DXIL's integer atomics on a typed resource need I64 or U64 components

target triple = "dxil-pc-shadermodel6.6-compute"
%dx.types.Handle = type { ptr }
%dx.types.ResBind = type { i32, i32, i32, i8 }
%dx.types.ResourceProperties = type { i32, i32 }
declare %dx.types.Handle @dx.op.createHandleFromBinding(i32, %dx.types.ResBind, i32, i1)
declare %dx.types.Handle @dx.op.annotateHandle(i32, %dx.types.Handle, %dx.types.ResourceProperties)
declare double @dx.op.atomicBinOp.f64(i32, %dx.types.Handle, i32, i32, i32, i32, double)

define void @main(i32 %i, double %v) {
  %b = call %dx.types.Handle @dx.op.createHandleFromBinding(i32 217, %dx.types.ResBind { i32 0, i32 0, i32 0, i8 1 }, i32 0, i1 false)
  %h = call %dx.types.Handle @dx.op.annotateHandle(i32 216, %dx.types.Handle %b, %dx.types.ResourceProperties { i32 4106, i32 266 })
  %r = call double @dx.op.atomicBinOp.f64(i32 78, %dx.types.Handle %h, i32 5, i32 %i, i32 undef, i32 undef, double %v)
  ret void
}
