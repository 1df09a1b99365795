; Which targets get warp aggregation.  aggregate=auto (the default):
; NVPTX functions whose "target-cpu" is sm_80 or later (redux.sync), the
; feature suffixes (sm_90a) included.  aggregate=subgroup: also NVPTX
; functions that name no target-cpu (llc must then be given sm_80 or
; later), never one that names an older or unknown one.  aggregate=off:
; none.
; REQUIRES: llvm-plugin
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s --check-prefixes=CHECK,AUTO
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off;aggregate=subgroup>' -S %s | FileCheck %s --check-prefixes=CHECK,SUBGROUP
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off;aggregate=off>' -S %s | FileCheck %s --check-prefixes=CHECK,OFF
; The function form aggregates too.
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='function(lower-float-atomic-minmax<outline=off>)' -S %s | FileCheck %s --check-prefixes=CHECK,AUTO

target triple = "nvptx64-nvidia-cuda"

define void @sm80(ptr addrspace(1) %p, float %v) "target-cpu"="sm_80" {
  atomicrmw fmax ptr addrspace(1) %p, float %v monotonic
  ret void
}
; CHECK-LABEL: define void @sm80(
; AUTO:        redux.sync.umax
; SUBGROUP:    redux.sync.umax
; OFF-NOT:     nvvm
; CHECK:       ret void

define void @sm90a(ptr addrspace(1) %p, float %v) "target-cpu"="sm_90a" {
  atomicrmw fmax ptr addrspace(1) %p, float %v monotonic
  ret void
}
; CHECK-LABEL: define void @sm90a(
; AUTO:        redux.sync.umax
; SUBGROUP:    redux.sync.umax
; OFF-NOT:     nvvm
; CHECK:       ret void

define void @sm100(ptr addrspace(1) %p, float %v) "target-cpu"="sm_100" {
  atomicrmw fmax ptr addrspace(1) %p, float %v monotonic
  ret void
}
; CHECK-LABEL: define void @sm100(
; AUTO:        redux.sync.umax
; SUBGROUP:    redux.sync.umax
; OFF-NOT:     nvvm
; CHECK:       ret void

define void @sm75(ptr addrspace(1) %p, float %v) "target-cpu"="sm_75" {
  atomicrmw fmax ptr addrspace(1) %p, float %v monotonic
  ret void
}
; CHECK-LABEL: define void @sm75(
; CHECK-NOT:   nvvm
; CHECK:       ret void

define void @not_sm(ptr addrspace(1) %p, float %v) "target-cpu"="generic" {
  atomicrmw fmax ptr addrspace(1) %p, float %v monotonic
  ret void
}
; CHECK-LABEL: define void @not_sm(
; CHECK-NOT:   nvvm
; CHECK:       ret void

define void @no_cpu(ptr addrspace(1) %p, float %v) {
  atomicrmw fmax ptr addrspace(1) %p, float %v monotonic
  ret void
}
; CHECK-LABEL: define void @no_cpu(
; AUTO-NOT:    nvvm
; SUBGROUP:    redux.sync.umax
; OFF-NOT:     nvvm
; CHECK:       ret void
