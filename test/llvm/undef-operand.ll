; An operand that may be undef or poison is frozen once before the lowering
; reads it: its sign test, NaN test and the integer atomic then see one
; value (each read of an undef may otherwise be another value, and a later
; pass could pick a sign test for one and a -NaN pattern for the atomic,
; storing a NaN that no operand gives under `number`).  A constant undef, an
; argument without noundef and a loaded value are frozen; a noundef argument
; and a constant are not.  The DXIL call takes the same freeze.
; REQUIRES: llvm-plugin
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' %s | %opt -passes=verify -disable-output

define float @undef_constant(ptr %p) {
; CHECK-LABEL: define float @undef_constant(
; CHECK-NEXT:    [[F:%[0-9]+]] = freeze float undef
; CHECK-NEXT:    [[B:%[0-9]+]] = bitcast float [[F]] to i32
; CHECK-NOT:     undef
; CHECK:         ret float
  %r = atomicrmw fmin ptr %p, float undef monotonic, align 4
  ret float %r
}

define float @loaded(ptr %p, ptr %q) {
; CHECK-LABEL: define float @loaded(
; CHECK-NEXT:    %v = load float, ptr %q
; CHECK-NEXT:    [[F:%[0-9]+]] = freeze float %v
; CHECK-NEXT:    [[B:%[0-9]+]] = bitcast float [[F]] to i32
  %v = load float, ptr %q, align 4
  %r = atomicrmw fmax ptr %p, float %v monotonic, align 4
  ret float %r
}

define float @noundef_argument(ptr %p, float noundef %v) {
; CHECK-LABEL: define float @noundef_argument(
; CHECK-NOT:     freeze
; CHECK:         bitcast float %v to i32
; CHECK-NOT:     freeze
; CHECK:         ret float
  %r = atomicrmw fmax ptr %p, float %v monotonic, align 4
  ret float %r
}

define float @constant(ptr %p) {
; CHECK-LABEL: define float @constant(
; CHECK-NOT:     freeze
; CHECK:         ret float
  %r = atomicrmw fmax ptr %p, float 2.0 monotonic, align 4
  ret float %r
}

%dx.types.Handle = type { ptr }
declare float @dx.op.atomicBinOp.f32(i32, %dx.types.Handle, i32, i32, i32, i32, float)

define float @dxil_undef(%dx.types.Handle %h) {
; CHECK-LABEL: define float @dxil_undef(
; CHECK-NEXT:    [[F:%[0-9]+]] = freeze float undef
; CHECK-NEXT:    [[B:%[0-9]+]] = bitcast float [[F]] to i32
; CHECK-NOT:     undef
; CHECK:         ret float
  %r = call float @dx.op.atomicBinOp.f32(i32 78, %dx.types.Handle %h, i32 4, i32 0, i32 0, i32 0, float undef)
  ret float %r
}
