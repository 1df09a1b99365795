; Warp aggregation of an atomic whose result is used (WarpAggregate.h): only
; a full warp (activemask all ones) on one address takes the aggregated
; path, so that no other group of the warp can meet the exchanges that
; carry the elected lane's result back.
;  - activemask == -1, then match.all.sync over the whole warp;
;  - redux.sync.umax of the keys; lane 0 runs the lowered atomic on U^-1 of
;    the reduced key;
;  - at the join the warp waits for lane 0 (bar.warp.sync), shuffles what
;    its atomic found to every lane, and the ballot of the lanes that
;    offered the reduced key names the owner: the owner returns what the
;    atomic found, every other lane the memory the atomic left (the
;    number policy's combination in U: a NaN found is replaced unless the
;    reduced key is the identity 0);
;  - a partial warp, or a full one on several addresses, runs the original
;    atomic lowered per lane, and the two results meet in a phi.
; REQUIRES: nvptx
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' %s | %opt -passes=verify -disable-output
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' %s | %llc -O3 -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 | FileCheck %s --check-prefix=PTX

target triple = "nvptx64-nvidia-cuda"

define float @used(ptr addrspace(1) %p, float %v) "target-cpu"="sm_90" {
  %old = atomicrmw fmax ptr addrspace(1) %p, float %v syncscope("device") monotonic, align 4
  ret float %old
}

; CHECK-LABEL: define float @used(
; CHECK:      [[ACTIVE:%[0-9]+]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT: [[FULL:%[0-9]+]] = icmp eq i32 [[ACTIVE]], -1
; CHECK-NEXT: br i1 [[FULL]], label %fatomic.warp.full, label %fatomic.warp.single
; CHECK:      fatomic.warp.full:
; CHECK-NEXT: [[ADDR:%[0-9]+]] = ptrtoint ptr addrspace(1) %p to i64
; CHECK-NEXT: [[MATCH:%[0-9]+]] = call { i32, i1 } @llvm.nvvm.match.all.sync.i64p(i32 -1, i64 [[ADDR]])
; CHECK-NEXT: [[SAME:%[0-9]+]] = extractvalue { i32, i1 } [[MATCH]], 1
; CHECK-NEXT: br i1 [[SAME]], label %fatomic.warp.reduce, label %fatomic.warp.single

; CHECK:      fatomic.warp.reduce:
; CHECK:      [[KEY:%[0-9]+]] = select i1 {{%[0-9]+}}, i32 {{%[0-9]+}}, i32 {{%[0-9]+}}
; CHECK-NEXT: [[RED:%[0-9]+]] = call i32 @llvm.nvvm.redux.sync.umax(i32 [[KEY]], i32 -1)
; CHECK-NEXT: [[LANE:%[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
; CHECK-NEXT: [[ISZERO:%[0-9]+]] = icmp eq i32 [[LANE]], 0
; CHECK-NEXT: br i1 [[ISZERO]], label %fatomic.warp.elected, label %fatomic.warp.join

; CHECK:      fatomic.warp.elected:
; CHECK:      load atomic i32, ptr addrspace(1) %p syncscope("device") monotonic, align 4
; CHECK:      atomicrmw max ptr addrspace(1) %p
; CHECK:      atomicrmw umin ptr addrspace(1) %p
; CHECK:      [[FOUNDW:%[0-9]+]] = bitcast float {{%[0-9]+}} to i32
; CHECK-NEXT: br label %fatomic.warp.join

; CHECK:      fatomic.warp.join:
; CHECK-NEXT: [[FOUND:%[0-9]+]] = phi i32 [ [[FOUNDW]], %fatomic.done{{[0-9]*}} ], [ poison, %fatomic.warp.reduce ]
; CHECK-NEXT: call void @llvm.nvvm.bar.warp.sync(i32 -1)
; CHECK-NEXT: [[OLD:%[0-9]+]] = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 [[FOUND]], i32 0, i32 31)
; CHECK-NEXT: [[OFFERED:%[0-9]+]] = icmp eq i32 [[KEY]], [[RED]]
; CHECK-NEXT: [[VOTES:%[0-9]+]] = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 [[OFFERED]])
; CHECK-NEXT: [[OWNER:%[0-9]+]] = call i32 @llvm.cttz.i32(i32 [[VOTES]], i1 true)
; CHECK:      [[BEST:%[0-9]+]] = call i32 @llvm.umax.i32(i32 {{%[0-9]+}}, i32 [[RED]])
; CHECK:      [[NOOPERAND:%[0-9]+]] = icmp eq i32 [[RED]], 0
; CHECK:      [[IFNAN:%[0-9]+]] = select i1 [[NOOPERAND]], i32 [[OLD]], i32 {{%[0-9]+}}
; CHECK-NEXT: [[AFTER:%[0-9]+]] = select i1 {{%[0-9]+}}, i32 [[IFNAN]], i32 {{%[0-9]+}}
; CHECK-NEXT: [[LANE2:%[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
; CHECK-NEXT: [[ISOWNER:%[0-9]+]] = icmp eq i32 [[LANE2]], [[OWNER]]
; CHECK-NEXT: [[MINE:%[0-9]+]] = select i1 [[ISOWNER]], i32 [[OLD]], i32 [[AFTER]]
; CHECK-NEXT: [[GROUPRESULT:%[0-9]+]] = bitcast i32 [[MINE]] to float
; CHECK-NEXT: br label %fatomic.warp.done

; The original atomic, lowered per lane.
; CHECK:      fatomic.warp.single:
; CHECK-NOT:  @llvm.nvvm.
; CHECK:      load atomic i32, ptr addrspace(1) %p syncscope("device") monotonic, align 4
; CHECK:      [[LANERESULT:%[0-9]+]] = bitcast i32 {{%[0-9]+}} to float
; CHECK-NEXT: br label %fatomic.warp.done

; CHECK:      fatomic.warp.done:
; CHECK-NEXT: [[RESULT:%[0-9]+]] = phi float [ [[GROUPRESULT]], %fatomic.warp.join ], [ [[LANERESULT]], %fatomic.done ]
; CHECK-NEXT: ret float [[RESULT]]
; CHECK-NOT:  atomicrmw fmax

; PTX-LABEL: .func  (.param .b32 func_retval0) used(
; PTX:       activemask.b32
; PTX:       match.all.sync.b64 {{.*}}, -1;
; PTX:       redux.sync.max.u32
; PTX:       atom.global.max.s32
; PTX:       atom.global.min.u32
; PTX:       bar.warp.sync -1;
; PTX:       shfl.sync.idx.b32 {{.*}}, 0, 31, -1;
; PTX:       vote.sync.ballot.b32 {{.*}}, -1;
; PTX-NOT:   max.f32
