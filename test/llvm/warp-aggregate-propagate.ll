; Warp aggregation under `propagate` (atomicrmw fmaximum): a NaN operand's
; key is the sticky NaN's (the signed maximum for max), which U maps above
; every number, so the reduction carries it to the elected atomic, which
; stores the sticky NaN as the per-lane lowering would.  The lanes after
; the owner of the reduced key see the memory it left: a NaN found in
; memory stays (no identity test, which only `number` has); otherwise the
; umax in U.
; REQUIRES: llvm-plugin
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

define float @ieee(ptr addrspace(1) %p, float %v) "target-cpu"="sm_90" {
  %old = atomicrmw fmaximum ptr addrspace(1) %p, float %v monotonic
  ret float %old
}

; CHECK-LABEL: define float @ieee(
; CHECK:      fatomic.warp.reduce:
; CHECK-NEXT: [[BITS:%[0-9]+]] = bitcast float %v to i32
; CHECK-NEXT: [[MAG:%[0-9]+]] = and i32 [[BITS]], 2147483647
; CHECK-NEXT: [[NAN:%[0-9]+]] = icmp ugt i32 [[MAG]], 2139095040
; CHECK-NEXT: select i1 [[NAN]], i32 2147483647, i32 [[BITS]]
; CHECK:      [[RED:%[0-9]+]] = call i32 @llvm.nvvm.redux.sync.umax(
; The elected lane's atomic is the propagate form: the compare-exchange loop.
; CHECK:      fatomic.warp.elected:
; CHECK:      fatomic.cas.loop{{[0-9]*}}:
; CHECK:      cmpxchg ptr addrspace(1) %p
; CHECK:      fatomic.warp.join:
; CHECK:      [[OLD:%[0-9]+]] = call i32 @llvm.nvvm.shfl.sync.idx.i32(
; CHECK:      [[BEST:%[0-9]+]] = call i32 @llvm.umax.i32(i32 {{%[0-9]+}}, i32 [[RED]])
; CHECK:      [[AFTER:%[0-9]+]] = select i1 {{%[0-9]+}}, i32 {{%[0-9]+}}, i32 {{%[0-9]+}}
; CHECK-NEXT: [[MAGOLD:%[0-9]+]] = and i32 [[OLD]], 2147483647
; CHECK-NEXT: [[OLDNAN:%[0-9]+]] = icmp ugt i32 [[MAGOLD]], 2139095040
; CHECK-NEXT: [[MEM:%[0-9]+]] = select i1 [[OLDNAN]], i32 [[OLD]], i32 [[AFTER]]
; CHECK-NEXT: [[ISOWNER:%[0-9]+]] = icmp eq i32 {{%[0-9]+}}, {{%[0-9]+}}
; CHECK-NEXT: select i1 [[ISOWNER]], i32 [[OLD]], i32 [[MEM]]
; CHECK:      fatomic.warp.single:
; CHECK-NOT:  atomicrmw fmaximum
