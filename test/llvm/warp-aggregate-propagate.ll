; Warp aggregation under `propagate` (atomicrmw fmaximum, result unused): a
; NaN operand's key is the sticky NaN's (the signed maximum for max), which
; U maps above every number, so the reduction carries it to the elected
; atomic, which stores the sticky NaN as the per-lane lowering would.
; REQUIRES: llvm-plugin
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

define void @ieee(ptr addrspace(1) %p, float %v) "target-cpu"="sm_90" {
  %old = atomicrmw fmaximum ptr addrspace(1) %p, float %v monotonic
  ret void
}

; CHECK-LABEL: define void @ieee(
; CHECK:      [[V:%[0-9]+]] = freeze float %v
; CHECK:      fatomic.warp.reduce:
; CHECK-NEXT: [[BITS:%[0-9]+]] = bitcast float [[V]] to i32
; CHECK-NEXT: [[MAG:%[0-9]+]] = and i32 [[BITS]], 2147483647
; CHECK-NEXT: [[NAN:%[0-9]+]] = icmp ugt i32 [[MAG]], 2139095040
; CHECK-NEXT: select i1 [[NAN]], i32 2147483647, i32 [[BITS]]
; CHECK:      [[RED:%[0-9]+]] = call i32 @llvm.nvvm.redux.sync.umax(
; The elected lane's atomic is the propagate form: the compare-exchange loop.
; CHECK:      fatomic.warp.elected:
; CHECK:      fatomic.cas.loop{{[0-9]*}}:
; CHECK:      cmpxchg ptr addrspace(1) %p
; CHECK:      fatomic.warp.join:
; CHECK-NEXT: br label %fatomic.warp.done
; CHECK:      fatomic.warp.single:
; CHECK-NOT:  atomicrmw fmaximum
