; The bound cache with used results in an NVPTX kernel whose atomic is
; aggregated over the warp (the default; WarpAggregate.h): a used result
; aggregates only in a full warp, so the cache's test comes first in the
; full warp and the warp skips the atomic only where every lane hits
; (vote.any.sync of the misses), each lane then returning its cached word;
; after the group every lane records the word the group left, which the
; lanes after the owner return.  A partial warp, or a full one on several
; addresses, runs the per-lane path behind its own test of the cache.
; REQUIRES: nvptx
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' %s | %opt -passes=verify -disable-output
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' %s | %llc -O3 -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 | FileCheck %s --check-prefix=PTX

target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr addrspace(1) %vals, ptr addrspace(1) %dst, ptr addrspace(1) %sink, i32 %n) "target-cpu"="sm_90" {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %vi = add i32 %tid, %i
  %vi64 = zext i32 %vi to i64
  %vp = getelementptr inbounds float, ptr addrspace(1) %vals, i64 %vi64
  %v = load float, ptr addrspace(1) %vp, align 4
  %old = atomicrmw fmax ptr addrspace(1) %dst, float %v syncscope("device") monotonic, align 4
  %acc.next = fadd float %acc, %old
  %i.next = add i32 %i, 1
  %more = icmp ult i32 %i.next, %n
  br i1 %more, label %loop, label %exit
exit:
  store float %acc.next, ptr addrspace(1) %sink, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK-NOT:  alloca
; CHECK:      loop:
; CHECK-DAG:  [[WORD:%fatomic.cache.word[.0-9]*]] = phi i32 [ 0, %entry ]
; CHECK-DAG:  [[VALID:%fatomic.cache.valid[.0-9]*]] = phi i1 [ false, %entry ]
; CHECK:      [[ACTIVE:%[0-9]+]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT: [[FULL:%[0-9]+]] = icmp eq i32 [[ACTIVE]], -1
; CHECK-NEXT: br i1 [[FULL]], label %fatomic.warp.full, label %fatomic.warp.single
; CHECK:      fatomic.warp.full:
; CHECK:      [[KEY:%[0-9]+]] = select i1 {{%[0-9]+}}, i32 {{%[0-9]+}}, i32 {{%[0-9]+}}
; CHECK-NEXT: [[CACHED:%[0-9]+]] = bitcast i32 [[WORD]] to float
; CHECK:      [[HIT:%fatomic.cache.hit[0-9]*]] = and i1 [[VALID]], {{%[0-9]+}}
; CHECK-NEXT: [[MISS:%[0-9]+]] = xor i1 [[HIT]], true
; CHECK-NEXT: [[ANYMISS:%[0-9]+]] = call i1 @llvm.nvvm.vote.any.sync(i32 -1, i1 [[MISS]])
; CHECK-NEXT: br i1 [[ANYMISS]], label %fatomic.warp.check, label %fatomic.warp.done
; CHECK:      fatomic.warp.check:
; CHECK:      call { i32, i1 } @llvm.nvvm.match.all.sync.i64p(i32 -1,
; CHECK:      fatomic.warp.reduce:
; CHECK-NEXT: [[RED:%[0-9]+]] = call i32 @llvm.nvvm.redux.sync.umax(i32 [[KEY]], i32 -1)
; CHECK:      fatomic.warp.join:
; CHECK:      [[OLD:%[0-9]+]] = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1,
; CHECK:      [[IFNAN:%[0-9]+]] = select i1 {{%[0-9]+}}, i32 [[OLD]], i32 {{%[0-9]+}}
; CHECK-NEXT: [[AFTER:%[0-9]+]] = select i1 {{%[0-9]+}}, i32 [[IFNAN]], i32 {{%[0-9]+}}
; CHECK:      call i32 @llvm.nvvm.read.ptx.sreg.laneid()
; CHECK-NEXT: [[ISOWNER:%[0-9]+]] = icmp eq i32
; CHECK-NEXT: [[MINE:%[0-9]+]] = select i1 [[ISOWNER]], i32 [[OLD]], i32 [[AFTER]]
; CHECK-NEXT: [[GROUP:%[0-9]+]] = bitcast i32 [[MINE]] to float
; CHECK-NEXT: br label %fatomic.warp.done
; The per-lane path tests the cache again.
; CHECK:      fatomic.warp.single:
; CHECK:      [[HIT1:%fatomic.cache.hit[0-9]+]] = and i1 [[VALID]], {{%[0-9]+}}
; CHECK-NEXT: br i1 [[HIT1]], label %fatomic.cache.done, label %fatomic.cache.miss
; CHECK:      fatomic.cache.done:
; CHECK:      [[LANE:%[0-9]+]] = phi float
; CHECK:      fatomic.warp.done:
; CHECK-DAG:  phi i1 [ true, %fatomic.warp.join ], [ {{%fatomic.cache.valid[.0-9]*}}, %fatomic.cache.done ], [ [[VALID]], %fatomic.warp.full ]
; CHECK-DAG:  phi i32 [ [[AFTER]], %fatomic.warp.join ], [ {{%fatomic.cache.word[.0-9]*}}, %fatomic.cache.done ], [ [[WORD]], %fatomic.warp.full ]
; CHECK-DAG:  phi i32 [ {{%[0-9]+}}, %fatomic.warp.join ], [ {{%fatomic.cache.bound[.0-9]*}}, %fatomic.cache.done ], [ {{%fatomic.cache.bound[.0-9]*}}, %fatomic.warp.full ]
; CHECK-DAG:  phi float [ [[GROUP]], %fatomic.warp.join ], [ [[LANE]], %fatomic.cache.done ], [ [[CACHED]], %fatomic.warp.full ]

; PTX-LABEL: .entry k(
; PTX-NOT:   .local
; PTX:       vote.sync.any.pred
; PTX:       match.all.sync.b64
; PTX:       redux.sync.max.u32
; PTX:       shfl.sync.idx.b32
; PTX-NOT:   .local
