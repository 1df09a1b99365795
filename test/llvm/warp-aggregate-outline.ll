; With outline=on (the default) the warp aggregation is written at the
; atomic, and both float atomics it leaves, the elected lane's and the
; per-lane one, become calls of the same helper, which holds the per-lane
; lowering and no warp operation (results unused; a used result has the
; full warp's form, warp-aggregate-used-full-warp.ll).
; REQUIRES: llvm-plugin
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes=lower-float-atomic-minmax -S %s | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

define void @unused(ptr addrspace(1) %p, float %v) "target-cpu"="sm_90" {
  %old = atomicrmw fmax ptr addrspace(1) %p, float %v syncscope("device") monotonic, align 4
  ret void
}

; CHECK-LABEL: define void @unused(
; CHECK:       call i32 @llvm.nvvm.activemask()
; CHECK:       fatomic.warp.elected:
; CHECK:       call float @[[HELPER:fatomic.fmax.f32.monotonic.scope.device.p1]](ptr addrspace(1) %p, float {{%[0-9]+}})
; CHECK:       fatomic.warp.single:
; CHECK-NEXT:  %old = call float @[[HELPER]](ptr addrspace(1) %p, float {{%[0-9]+}})
; CHECK-NOT:   define
; CHECK:       define internal float @[[HELPER]](ptr addrspace(1) %p, float noundef %v)
; CHECK-NOT:   nvvm
; CHECK:       atomicrmw max ptr addrspace(1) %p
; CHECK-NOT:   nvvm
; CHECK:       ret float
