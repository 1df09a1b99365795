; Inside function(...) the pass is the function form, which may not add
; functions: the lowering is written out at the atomic, with no helper.
; REQUIRES: llvm-plugin
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='function(lower-float-atomic-minmax)' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='function(lower-float-atomic-minmax<outline=off>)' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='function(lower-float-atomic-minmax)' %s | %opt -passes=verify -disable-output

define float @fmin(ptr %p, float %v) {
; CHECK-LABEL: define float @fmin(
; CHECK-NOT:     call
; CHECK:         atomicrmw min ptr %p
; CHECK:         atomicrmw umax ptr %p
; CHECK-NOT:     call
; CHECK:         ret float
  %r = atomicrmw fmin ptr %p, float %v monotonic, align 4
  ret float %r
}
; CHECK-NOT: define
