; Warp aggregation of a 64-bit key (atomicrmw fmin double on shared memory,
; block scope, result unused): redux.sync works on 32 bits, so the best
; (lowest) high half is reduced first, then the low halves of the lanes
; that have it; the others offer umin's identity, all ones.  A NaN operand
; becomes number's identity for min, the signed maximum.  With the result
; unused nothing is shuffled back: the lanes other than the elected one go
; straight on.
; REQUIRES: nvptx
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' %s | %llc -O3 -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 | FileCheck %s --check-prefix=PTX

target triple = "nvptx64-nvidia-cuda"

define void @unused(ptr addrspace(3) %p, double %v) "target-cpu"="sm_80" {
  atomicrmw fmin ptr addrspace(3) %p, double %v syncscope("block") monotonic, align 8
  ret void
}

; CHECK-LABEL: define void @unused(
; CHECK:      [[MASK:%[0-9]+]] = call i32 @llvm.nvvm.activemask()
; CHECK:      call { i32, i1 } @llvm.nvvm.match.all.sync.i64p(i32 [[MASK]],
; CHECK-NOT:  isspacep
; CHECK:      fatomic.warp.reduce:
; CHECK:      select i1 {{%[0-9]+}}, i64 9223372036854775807, i64 {{%[0-9]+}}
; CHECK:      [[KEY:%[0-9]+]] = select i1 {{%[0-9]+}}, i64 {{%[0-9]+}}, i64 {{%[0-9]+}}
; CHECK-NEXT: [[HI64:%[0-9]+]] = lshr i64 [[KEY]], 32
; CHECK-NEXT: [[HI:%[0-9]+]] = trunc i64 [[HI64]] to i32
; CHECK-NEXT: [[BESTHI:%[0-9]+]] = call i32 @llvm.nvvm.redux.sync.umin(i32 [[HI]], i32 [[MASK]])
; CHECK-NEXT: [[LO:%[0-9]+]] = trunc i64 [[KEY]] to i32
; CHECK-NEXT: [[HASHI:%[0-9]+]] = icmp eq i32 [[HI]], [[BESTHI]]
; CHECK-NEXT: [[OFFER:%[0-9]+]] = select i1 [[HASHI]], i32 [[LO]], i32 -1
; CHECK-NEXT: [[BESTLO:%[0-9]+]] = call i32 @llvm.nvvm.redux.sync.umin(i32 [[OFFER]], i32 [[MASK]])
; CHECK-NEXT: [[LO64:%[0-9]+]] = zext i32 [[BESTLO]] to i64
; CHECK-NEXT: [[HI64B:%[0-9]+]] = zext i32 [[BESTHI]] to i64
; CHECK-NEXT: [[HIUP:%[0-9]+]] = shl i64 [[HI64B]], 32
; CHECK-NEXT: [[RED:%[0-9]+]] = or i64 [[HIUP]], [[LO64]]
; CHECK:      fatomic.warp.elected:
; CHECK-NEXT: icmp slt i64 [[RED]], 0
; CHECK:      atomicrmw min ptr addrspace(3) %p, i64 {{%[0-9]+}} syncscope("block") monotonic
; CHECK:      atomicrmw umax ptr addrspace(3) %p, i64 {{%[0-9]+}} syncscope("block") monotonic
; CHECK:      fatomic.warp.join:
; CHECK-NEXT: br label %fatomic.warp.done
; CHECK:      fatomic.warp.single:
; CHECK:      atomicrmw min ptr addrspace(3) %p
; CHECK-NOT:  shfl
; CHECK-NOT:  ballot
; CHECK-NOT:  atomicrmw fmin

; PTX-LABEL: .func unused(
; PTX:       match.all.sync.b64
; PTX:       redux.sync.min.u32
; PTX:       redux.sync.min.u32
; PTX:       atom.shared.min.s64
; PTX-NOT:   shfl.sync
; PTX-NOT:   min.f64
