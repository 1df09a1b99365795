; What else tells helpers apart: volatility, syncscope, address space and
; an alignment other than the natural one each give a helper of their own,
; named after them, with the pointer parameter of the atomic's address
; space.  Inside, the integer atomics carry the same attributes.
; REQUIRES: llvm-plugin
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' %s | %opt -passes=verify -disable-output

define void @kinds(ptr %p, ptr addrspace(3) %s, float %v) {
; CHECK-LABEL: define void @kinds(
; CHECK-NEXT:    [[FZV:%[0-9]+]] = freeze float %v
; CHECK-NEXT:    call float @fatomic.fmax.f32.acquire(ptr %p, float [[FZV]])
; CHECK-NEXT:    call float @fatomic.fmax.f32.acquire.volatile(ptr %p, float [[FZV]])
; CHECK-NEXT:    call float @fatomic.fmax.f32.acquire.scope.agent(ptr %p, float [[FZV]])
; CHECK-NEXT:    call float @fatomic.fmax.f32.acquire.p3(ptr addrspace(3) %s, float [[FZV]])
; CHECK-NEXT:    call float @fatomic.fmax.f32.acquire.align8(ptr %p, float [[FZV]])
; CHECK-NEXT:    call float @fatomic.fmax.f32.acquire.scope.singlethread(ptr %p, float [[FZV]])
; CHECK-NEXT:    ret void
  %1 = atomicrmw fmax ptr %p, float %v acquire, align 4
  %2 = atomicrmw volatile fmax ptr %p, float %v acquire, align 4
  %3 = atomicrmw fmax ptr %p, float %v syncscope("agent") acquire, align 4
  %4 = atomicrmw fmax ptr addrspace(3) %s, float %v acquire, align 4
  %5 = atomicrmw fmax ptr %p, float %v acquire, align 8
  %6 = atomicrmw fmax ptr %p, float %v syncscope("singlethread") acquire, align 4
  ret void
}

; CHECK-LABEL: define internal float @fatomic.fmax.f32.acquire(ptr %p, float noundef %v)
; CHECK:         load atomic i32, ptr %p acquire, align 4
; CHECK-LABEL: define internal float @fatomic.fmax.f32.acquire.volatile(ptr %p, float noundef %v)
; CHECK-NOT:     load atomic
; CHECK:         atomicrmw volatile max ptr %p, i32 {{%.*}} acquire, align 4
; CHECK-LABEL: define internal float @fatomic.fmax.f32.acquire.scope.agent(ptr %p, float noundef %v)
; CHECK:         load atomic i32, ptr %p syncscope("agent") acquire, align 4
; CHECK:         atomicrmw max ptr %p, i32 {{%.*}} syncscope("agent") acquire, align 4
; CHECK-LABEL: define internal float @fatomic.fmax.f32.acquire.p3(ptr addrspace(3) %p, float noundef %v)
; CHECK:         atomicrmw max ptr addrspace(3) %p, i32 {{%.*}} acquire, align 4
; CHECK-LABEL: define internal float @fatomic.fmax.f32.acquire.align8(ptr %p, float noundef %v)
; CHECK:         atomicrmw max ptr %p, i32 {{%.*}} acquire, align 8
; CHECK-LABEL: define internal float @fatomic.fmax.f32.acquire.scope.singlethread(ptr %p, float noundef %v)
; CHECK:         atomicrmw max ptr %p, i32 {{%.*}} syncscope("singlethread") acquire, align 4
