; aggregate=subgroup asks for warp aggregation, which the LLVM pass does on
; NVPTX only: on another target it is an error for each function that has
; a float atomic.  aggregate=auto (the default) and
; aggregate=off lower such a module as usual.
; REQUIRES: llvm-plugin
; RUN: not %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<aggregate=subgroup>' -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}lower-float-atomic-minmax: aggregate=subgroup needs an NVPTX target (module triple 'x86_64-unknown-linux-gnu')
; CHECK-NOT: error:

; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<aggregate=auto>' -S %s | FileCheck %s --check-prefix=LOWERED
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<aggregate=off>' -S %s | FileCheck %s --check-prefix=LOWERED
; LOWERED-NOT: atomicrmw fmax
; LOWERED-NOT: nvvm

target triple = "x86_64-unknown-linux-gnu"

define float @f(ptr %p, float %v) {
  %old = atomicrmw fmax ptr %p, float %v monotonic
  ret float %old
}

define void @no_atomics() {
  ret void
}
