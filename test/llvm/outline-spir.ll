; On SPIR and SPIR-V triples functions other than kernels use spir_func:
; the helper and its calls do (a call whose convention differs from its
; callee's is undefined behaviour there).
; REQUIRES: llvm-plugin
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' %s | %opt -passes=verify -disable-output

target triple = "spirv64-unknown-unknown"

define spir_kernel void @k(ptr addrspace(1) %p, float %v) {
; CHECK-LABEL: define spir_kernel void @k(
; CHECK-NEXT:    [[FZV:%[0-9]+]] = freeze float %v
; CHECK-NEXT:    call spir_func float @fatomic.fmax.f32.monotonic.p1(ptr addrspace(1) %p, float [[FZV]])
  %r = atomicrmw fmax ptr addrspace(1) %p, float %v monotonic, align 4
  ret void
}
; CHECK: define internal spir_func float @fatomic.fmax.f32.monotonic.p1(ptr addrspace(1) %p, float noundef %v)
