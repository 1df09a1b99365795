; DXIL allows no calls to functions it defines: in a module whose triple is
; dxil, the atomics (groupshared atomicrmw here) are written out in place
; even with outline=on.
; REQUIRES: llvm-plugin
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=on>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' %s | %opt -passes=verify -disable-output

target triple = "dxil-pc-shadermodel6.6-compute"

@gs = internal addrspace(3) global float 0.0, align 4

define void @main(float %v) {
; CHECK-LABEL: define void @main(
; CHECK-NOT:     call
; CHECK:         atomicrmw max ptr addrspace(3) @gs, i32 {{%.*}} seq_cst, align 4
; CHECK:         atomicrmw umin ptr addrspace(3) @gs, i32 {{%.*}} seq_cst, align 4
; CHECK-NOT:     call
; CHECK:         ret void
  %r = atomicrmw fmax ptr addrspace(3) @gs, float %v seq_cst, align 4
  ret void
}
; CHECK-NOT: define
