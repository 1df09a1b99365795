; NVPTX selects atomicrmw and cmpxchg at every syncscope, but no atomic load
; or fence at singlethread scope, nor at cluster scope before sm_90: llc
; aborts ("Atomics need scope > "Thread"", "Unsupported scope "Thread" for
; acquire/release/acq_rel fence").  The loads and the fence the lowering
; adds for such an atomic take the system scope (which orders at least as
; much); its integer atomics keep the atomic's own scope.  Before, every
; form below made llc abort, though the float atomic compiled.  (llc runs
; with -mcpu=sm_90, for the PTX version that cluster scope needs; each
; function names its own target-cpu.)
; REQUIRES: nvptx
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' %s | %llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 -o /dev/null
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' %s | %llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 -o /dev/null
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<strategy=cas;early-out=off>' %s | %llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 -o /dev/null
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<nan=propagate;early-out=off>' %s | %llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 -o /dev/null
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<nan=fast>' %s | %llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 -o /dev/null

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define float @thread_sm90(
; CHECK:         load atomic i32, ptr %p monotonic, align 4
; CHECK:         atomicrmw max ptr %p, i32 {{%.*}} syncscope("singlethread") monotonic, align 4
define float @thread_sm90(ptr %p, float %v) "target-cpu"="sm_90" {
  %r = atomicrmw fmax ptr %p, float %v syncscope("singlethread") monotonic
  ret float %r
}

; fmaximum's loop loads first too.
; CHECK-LABEL: define float @thread_fmaximum(
; CHECK:         load atomic i32, ptr %p monotonic, align 4
; CHECK:         cmpxchg ptr %p, i32 {{%.*}}, i32 {{%.*}} syncscope("singlethread") monotonic monotonic, align 4
define float @thread_fmaximum(ptr %p, float %v) "target-cpu"="sm_80" {
  %r = atomicrmw fmaximum ptr %p, float %v syncscope("singlethread") monotonic
  ret float %r
}

; Before sm_70 an acquire early-out loads monotonic and fences: the fence
; takes the system scope too.
; CHECK-LABEL: define double @thread_acquire_sm60(
; CHECK:         load atomic i64, ptr %p monotonic, align 8
; CHECK:         fence acquire
; CHECK:         atomicrmw min ptr %p, i64 {{%.*}} syncscope("singlethread") acquire, align 8
define double @thread_acquire_sm60(ptr %p, double %v) "target-cpu"="sm_60" {
  %r = atomicrmw fmin ptr %p, double %v syncscope("singlethread") acquire
  ret double %r
}

; Cluster scope: the system scope for the load before sm_90, its own from
; sm_90 on.
; CHECK-LABEL: define float @cluster_sm80(
; CHECK:         load atomic i32, ptr %p monotonic, align 4
; CHECK:         atomicrmw max ptr %p, i32 {{%.*}} syncscope("cluster") monotonic, align 4
define float @cluster_sm80(ptr %p, float %v) "target-cpu"="sm_80" {
  %r = atomicrmw fmax ptr %p, float %v syncscope("cluster") monotonic
  ret float %r
}

; CHECK-LABEL: define float @cluster_sm90(
; CHECK:         load atomic i32, ptr %p syncscope("cluster") monotonic, align 4
define float @cluster_sm90(ptr %p, float %v) "target-cpu"="sm_90" {
  %r = atomicrmw fmax ptr %p, float %v syncscope("cluster") monotonic
  ret float %r
}

; Block scope is selected for loads: it stays.
; CHECK-LABEL: define float @block_sm90(
; CHECK:         load atomic i32, ptr %p syncscope("block") monotonic, align 4
define float @block_sm90(ptr %p, float %v) "target-cpu"="sm_90" {
  %r = atomicrmw fmax ptr %p, float %v syncscope("block") monotonic
  ret float %r
}
