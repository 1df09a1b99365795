; atomicrmw fmaximum: propagate's sticky pattern for max is 0x7FFFFFFF (the
; NaN above every number under smax).
; REQUIRES: llvm-plugin
; outline=off: the lowering written out at the atomic, where the checks
; see it next to its input (outline.ll checks the helper functions).
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' %s | %opt -passes=verify -disable-output

define float @fmaximum(ptr %p, float %v) {
; CHECK-LABEL: define float @fmaximum(
; CHECK:         [[OP:%.*]] = select i1 {{%.*}}, i32 2147483647, i32 {{%.*}}
; CHECK:         atomicrmw max ptr %p, i32 [[OP]] acquire
; CHECK:         atomicrmw umin ptr %p, i32 [[OP]] acquire
; CHECK-NOT:     cmpxchg
  %r = atomicrmw fmaximum ptr %p, float %v acquire, align 4
  ret float %r
}
