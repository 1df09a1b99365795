; The helpers are alwaysinline: always-inline (or the inliner of any -O
; level) after the pass writes each helper's body back at its call and
; drops the helpers, which gives what outline=off writes.
; REQUIRES: llvm-plugin
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax,always-inline' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax,always-inline' %s | %opt -passes=verify -disable-output

define float @bounds(ptr %p, float %v) {
; CHECK-LABEL: define float @bounds(
; CHECK-NOT:     call
; CHECK:         load atomic i32, ptr %p monotonic, align 4
; CHECK:         atomicrmw min ptr %p, i32 {{%.*}} monotonic, align 4
; CHECK:         atomicrmw umax ptr %p, i32 {{%.*}} monotonic, align 4
; CHECK:         cmpxchg ptr %p
; CHECK:         load atomic i32, ptr %p monotonic, align 4
; CHECK:         atomicrmw max ptr %p, i32 {{%.*}} monotonic, align 4
; CHECK:         atomicrmw umin ptr %p, i32 {{%.*}} monotonic, align 4
; CHECK:         cmpxchg ptr %p
; CHECK-NOT:     call
; CHECK:         ret float
  %lo = atomicrmw fmin ptr %p, float %v monotonic, align 4
  %hi = atomicrmw fmax ptr %p, float %v monotonic, align 4
  ret float %lo
}
; CHECK-NOT: define
