; Address space and syncscope carry over to the load, both integer atomics
; and the fix-up; addrspace(3) (groupshared) goes through the general path.
; REQUIRES: llvm-plugin
; outline=off: the lowering written out at the atomic, where the checks
; see it next to its input (outline-helper-body.ll and outline-kinds.ll
; check the helper functions).
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' %s | %opt -passes=verify -disable-output

define float @shared(ptr addrspace(3) %p, float %v) {
; CHECK-LABEL: define float @shared(
; CHECK:         load atomic i32, ptr addrspace(3) %p syncscope("workgroup") monotonic, align 4
; CHECK:         atomicrmw max ptr addrspace(3) %p, i32 {{%.*}} syncscope("workgroup") monotonic, align 4
; CHECK:         atomicrmw umin ptr addrspace(3) %p, i32 {{%.*}} syncscope("workgroup") monotonic, align 4
; CHECK:         cmpxchg ptr addrspace(3) %p, i32 {{%.*}}, i32 {{%.*}} syncscope("workgroup") monotonic monotonic, align 4
  %r = atomicrmw fmax ptr addrspace(3) %p, float %v syncscope("workgroup") monotonic, align 4
  ret float %r
}

define double @global(ptr addrspace(1) %p, double %v) {
; CHECK-LABEL: define double @global(
; CHECK:         load atomic i64, ptr addrspace(1) %p syncscope("agent") acquire, align 8
; CHECK:         atomicrmw min ptr addrspace(1) %p, i64 {{%.*}} syncscope("agent") acquire, align 8
; CHECK:         atomicrmw umax ptr addrspace(1) %p, i64 {{%.*}} syncscope("agent") acquire, align 8
  %r = atomicrmw fmin ptr addrspace(1) %p, double %v syncscope("agent") acquire, align 8
  ret double %r
}
