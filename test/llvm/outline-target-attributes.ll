; outline=on with target attributes: a helper is compiled for the target
; of its callers, so it takes their "target-cpu", "target-features" and
; "tune-cpu", and callers whose attributes differ never share a helper
; (the second one of a kind gets a number appended).  Without them, on
; RISC-V, llc compiled the helper for the base ISA: soft-float calling
; convention (the operand expected in a1 while the caller passes it in
; fa0, the lp64d ABI) and libcalls for the atomics.
; REQUIRES: llvm-plugin
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' %s | %opt -passes=verify -disable-output
; The helpers kept as calls (llc runs no inliner): each one takes its float
; operand in fa0, as its callers pass it, and uses no atomic libcall.
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' %s | %llc -O2 | FileCheck %s --check-prefix=ASM

target datalayout = "e-m:e-p:64:64-i64:64-i128:128-n32:64-S128"
target triple = "riscv64-unknown-linux-gnu"

define float @hard(ptr %p, float %v) #0 {
; CHECK-LABEL: define float @hard(
; CHECK-NEXT:    [[FZV:%[0-9]+]] = freeze float %v
; CHECK-NEXT:    %r = call float @fatomic.fmax.f32.monotonic(ptr %p, float [[FZV]])
  %r = atomicrmw fmax ptr %p, float %v monotonic, align 4
  ret float %r
}

define float @hard_too(ptr %p, float %v) #0 {
; CHECK-LABEL: define float @hard_too(
; CHECK-NEXT:    [[FZV:%[0-9]+]] = freeze float %v
; CHECK-NEXT:    %r = call float @fatomic.fmax.f32.monotonic(ptr %p, float [[FZV]])
  %r = atomicrmw fmax ptr %p, float %v monotonic, align 4
  ret float %r
}

define float @other_cpu(ptr %p, float %v) #1 {
; CHECK-LABEL: define float @other_cpu(
; CHECK-NEXT:    [[FZV:%[0-9]+]] = freeze float %v
; CHECK-NEXT:    %r = call float @fatomic.fmax.f32.monotonic.1(ptr %p, float [[FZV]])
  %r = atomicrmw fmax ptr %p, float %v monotonic, align 4
  ret float %r
}

define float @other_features(ptr %p, float %v) #2 {
; CHECK-LABEL: define float @other_features(
; CHECK-NEXT:    [[FZV:%[0-9]+]] = freeze float %v
; CHECK-NEXT:    %r = call float @fatomic.fmax.f32.monotonic.2(ptr %p, float [[FZV]])
  %r = atomicrmw fmax ptr %p, float %v monotonic, align 4
  ret float %r
}

; CHECK:     define internal float @fatomic.fmax.f32.monotonic(ptr %p, float noundef %v) unnamed_addr [[HARD:#[0-9]+]] {
; CHECK:     define internal float @fatomic.fmax.f32.monotonic.1(ptr %p, float noundef %v) unnamed_addr [[CPU:#[0-9]+]] {
; CHECK:     define internal float @fatomic.fmax.f32.monotonic.2(ptr %p, float noundef %v) unnamed_addr [[FEATURES:#[0-9]+]] {
; CHECK-NOT: define
; CHECK-DAG: attributes [[HARD]] = { alwaysinline nounwind "target-cpu"="generic-rv64" "target-features"="+64bit,+a,+d,+f,+m" }
; CHECK-DAG: attributes [[CPU]] = { alwaysinline nounwind "target-cpu"="sifive-u74" "target-features"="+64bit,+a,+d,+f,+m" "tune-cpu"="sifive-7-series" }
; CHECK-DAG: attributes [[FEATURES]] = { alwaysinline nounwind "target-cpu"="generic-rv64" "target-features"="+64bit,+a,+d,+f,+m,+zbb" }

; ASM-LABEL: fatomic.fmax.f32.monotonic:
; ASM-NOT:     __atomic
; ASM:         fmv.x.w {{[a-z0-9]+}}, fa0
; ASM-LABEL: fatomic.fmax.f32.monotonic.1:
; ASM-NOT:     __atomic
; ASM:         fmv.x.w {{[a-z0-9]+}}, fa0
; ASM-LABEL: fatomic.fmax.f32.monotonic.2:
; ASM-NOT:     __atomic
; ASM:         fmv.x.w {{[a-z0-9]+}}, fa0

; The caller's other attributes (nounwind, uwtable, ...) are not the
; helper's.
attributes #0 = { nounwind uwtable "target-cpu"="generic-rv64" "target-features"="+64bit,+a,+d,+f,+m" }
attributes #1 = { nounwind "target-cpu"="sifive-u74" "target-features"="+64bit,+a,+d,+f,+m" "tune-cpu"="sifive-7-series" }
attributes #2 = { nounwind "target-cpu"="generic-rv64" "target-features"="+64bit,+a,+d,+f,+m,+zbb" }

!llvm.module.flags = !{!0}
!0 = !{i32 1, !"target-abi", !"lp64d"}
