; The bound cache with used results, in an NVPTX kernel that sums what a
; loop of fmax returns and stores the sum after the loop (the NVPTX
; benchmark's used kernel; a store that no atomic follows keeps the cache).
; The slot then also holds the word memory held after the lane's last
; access and whether it is known: a hit needs it, and returns it without
; touching memory; a miss records the combination of what its atomic found
; with its operand.  Without warp aggregation (aggregate=off) each lane
; runs the lowered atomic itself; cache-used-result-warp.ll has the same
; kernel aggregated.
; REQUIRES: nvptx
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off;aggregate=off>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off;aggregate=off>' %s | %opt -passes=verify -disable-output
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off;aggregate=off>' %s | %llc -O3 -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 | FileCheck %s --check-prefix=PTX

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
; CHECK-DAG:  [[BOUND:%fatomic.cache.bound[.0-9]*]] = phi i32 [ 0, %entry ]
; CHECK-DAG:  [[LAST:%fatomic.cache.ptr[.0-9]*]] = phi ptr addrspace(1) [ null, %entry ]
; CHECK-DAG:  [[WORD:%fatomic.cache.word[.0-9]*]] = phi i32 [ 0, %entry ]
; CHECK-DAG:  [[VALID:%fatomic.cache.valid[.0-9]*]] = phi i1 [ false, %entry ]
; CHECK:      [[KEY:%[0-9]+]] = select i1 {{%[0-9]+}}, i32 {{%[0-9]+}}, i32 {{%[0-9]+}}
; CHECK-NEXT: [[CACHED:%[0-9]+]] = bitcast i32 [[WORD]] to float
; CHECK-NEXT: [[SAME:%[0-9]+]] = icmp eq ptr addrspace(1) %dst, [[LAST]]
; CHECK-NEXT: [[BEHIND:%[0-9]+]] = icmp ule i32 [[KEY]], [[BOUND]]
; CHECK-NEXT: [[HIT0:%[0-9]+]] = and i1 [[SAME]], [[BEHIND]]
; CHECK-NEXT: [[HIT:%fatomic.cache.hit[0-9]*]] = and i1 [[VALID]], [[HIT0]]
; CHECK-NEXT: br i1 [[HIT]], label %fatomic.cache.done, label %fatomic.cache.miss
; CHECK:      fatomic.cache.miss:
; CHECK-NOT:  @llvm.nvvm.
; CHECK:      load atomic i32, ptr addrspace(1) %dst syncscope("device") monotonic
; CHECK:      atomicrmw max ptr addrspace(1) %dst
; The word the atomic left: a NaN found stays under number only where every
; operand was one; otherwise the umax in U.
; CHECK:      fatomic.done:
; CHECK-NEXT: [[FOUND:%[0-9]+]] = phi i32
; CHECK-NEXT: [[FOUNDF:%[0-9]+]] = bitcast i32 [[FOUND]] to float
; CHECK:      call i32 @llvm.umax.i32(i32 {{%[0-9]+}}, i32 [[KEY]])
; CHECK:      [[FMAG:%[0-9]+]] = and i32 {{%[0-9]+}}, 2147483647
; CHECK-NEXT: [[FNAN:%[0-9]+]] = icmp ugt i32 [[FMAG]], 2139095040
; CHECK:      [[AFTER:%[0-9]+]] = select i1 [[FNAN]], i32 {{%[0-9]+}}, i32 {{%[0-9]+}}
; The slot's bound is the key of that word.
; CHECK-NEXT: = and i32 [[AFTER]], 2147483647
; CHECK:      br label %fatomic.cache.done
; CHECK:      fatomic.cache.done:
; CHECK-DAG:  = phi i1 [ [[VALID]], %loop ], [ true, %fatomic.done ]
; CHECK-DAG:  = phi i32 [ [[WORD]], %loop ], [ [[AFTER]], %fatomic.done ]
; CHECK-DAG:  = phi float [ [[CACHED]], %loop ], [ [[FOUNDF]], %fatomic.done ]

; PTX-LABEL: .entry k(
; PTX-NOT:   .local
; PTX-NOT:   shfl.sync
; PTX:       atom.global.max.s32
; PTX-NOT:   .local
