; Warp aggregation on NVPTX (aggregate=auto, the default, for a function
; whose target-cpu is sm_80 or later): atomicrmw fmax float, monotonic, on
; global memory, result unused.
;  - activemask, and match.all.sync on the address: the aggregated path only
;    where every active lane has the same address;
;  - the key: the operand's bits, a NaN replaced by number's identity
;    (all ones, which U maps to 0, the reduction's identity), mapped by U;
;  - redux.sync.umax of the keys over the active lanes; the lowest active
;    lane runs the lowered atomic (with its load, dispatch and fix-up) on
;    U^-1 of the reduced key; nothing crosses lanes after that branch;
;  - other warps run the original atomic, lowered per lane.
; A used result has its own form (warp-aggregate-used-full-warp.ll).
; REQUIRES: nvptx
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' %s | %opt -passes=verify -disable-output
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' %s | %llc -O3 -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 | FileCheck %s --check-prefix=PTX

target triple = "nvptx64-nvidia-cuda"

define void @unused(ptr addrspace(1) %p, float %v) "target-cpu"="sm_90" {
  %old = atomicrmw fmax ptr addrspace(1) %p, float %v syncscope("device") monotonic, align 4
  ret void
}

; CHECK-LABEL: define void @unused(
; CHECK:      [[V:%[0-9]+]] = freeze float %v
; CHECK:      [[MASK:%[0-9]+]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT: [[ADDR:%[0-9]+]] = ptrtoint ptr addrspace(1) %p to i64
; CHECK-NEXT: [[MATCH:%[0-9]+]] = call { i32, i1 } @llvm.nvvm.match.all.sync.i64p(i32 [[MASK]], i64 [[ADDR]])
; CHECK-NEXT: [[SAME:%[0-9]+]] = extractvalue { i32, i1 } [[MATCH]], 1
; CHECK-NEXT: br i1 [[SAME]], label %fatomic.warp.reduce, label %fatomic.warp.single

; CHECK:      fatomic.warp.reduce:
; CHECK-NEXT: [[BITS:%[0-9]+]] = bitcast float [[V]] to i32
; CHECK-NEXT: [[MAG:%[0-9]+]] = and i32 [[BITS]], 2147483647
; CHECK-NEXT: [[NAN:%[0-9]+]] = icmp ugt i32 [[MAG]], 2139095040
; CHECK-NEXT: [[OP:%[0-9]+]] = select i1 [[NAN]], i32 -1, i32 [[BITS]]
; CHECK-NEXT: [[NEG:%[0-9]+]] = icmp slt i32 [[OP]], 0
; CHECK-NEXT: [[KPOS:%[0-9]+]] = or i32 [[OP]], -2147483648
; CHECK-NEXT: [[KNEG:%[0-9]+]] = xor i32 [[OP]], -1
; CHECK-NEXT: [[KEY:%[0-9]+]] = select i1 [[NEG]], i32 [[KNEG]], i32 [[KPOS]]
; CHECK-NEXT: [[RED:%[0-9]+]] = call i32 @llvm.nvvm.redux.sync.umax(i32 [[KEY]], i32 [[MASK]])
; CHECK-NEXT: [[LANE:%[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
; CHECK-NEXT: [[LEADER:%[0-9]+]] = call i32 @llvm.cttz.i32(i32 [[MASK]], i1 true)
; CHECK-NEXT: [[ISLEADER:%[0-9]+]] = icmp eq i32 [[LANE]], [[LEADER]]
; CHECK-NEXT: br i1 [[ISLEADER]], label %fatomic.warp.elected, label %fatomic.warp.join

; U^-1 of the reduced key, lowered like any operand.
; CHECK:      fatomic.warp.elected:
; CHECK-NEXT: [[FROMPOS:%[0-9]+]] = icmp slt i32 [[RED]], 0
; CHECK-NEXT: [[NOTRED:%[0-9]+]] = xor i32 [[RED]], -1
; CHECK-NEXT: [[CLEARED:%[0-9]+]] = xor i32 [[RED]], -2147483648
; CHECK-NEXT: [[EBITS:%[0-9]+]] = select i1 [[FROMPOS]], i32 [[CLEARED]], i32 [[NOTRED]]
; CHECK-NEXT: [[EVAL:%[0-9]+]] = bitcast i32 [[EBITS]] to float
; CHECK:      load atomic i32, ptr addrspace(1) %p syncscope("device") monotonic, align 4
; CHECK:      atomicrmw max ptr addrspace(1) %p
; CHECK:      atomicrmw umin ptr addrspace(1) %p

; CHECK:      fatomic.warp.join:
; CHECK-NEXT: br label %fatomic.warp.done

; The original atomic, lowered per lane.
; CHECK:      fatomic.warp.single:
; CHECK-NEXT: bitcast float [[V]] to i32
; CHECK:      load atomic i32, ptr addrspace(1) %p syncscope("device") monotonic, align 4
; CHECK:      atomicrmw max ptr addrspace(1) %p
; CHECK:      atomicrmw umin ptr addrspace(1) %p

; CHECK:      fatomic.warp.done:
; CHECK-NEXT: ret void

; PTX-LABEL: .func unused(
; PTX:       activemask.b32 [[PMASK:%r[0-9]+]];
; PTX:       match.all.sync.b64
; PTX:       redux.sync.max.u32
; PTX:       atom.global.max.s32
; PTX:       atom.global.min.u32
; PTX-NOT:   shfl.sync
; PTX-NOT:   max.f32
