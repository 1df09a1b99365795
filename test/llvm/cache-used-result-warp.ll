; The bound cache with used results, in an NVPTX kernel that sums what a
; loop of fmax returns and stores the sum after the loop (the NVPTX
; benchmark's used kernel; a store that no atomic follows keeps the cache).
; The slot then also holds the word memory held after the lane's last
; access and whether it is known: a hit needs it, and returns it without
; touching memory.  A lane of an aggregated group records the memory the
; group left (the word it returns to the lanes after the owner), a lane of
; a mixed warp the combination of what its atomic found with its operand.
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
; CHECK-NEXT: br i1 [[HIT]], label %fatomic.warp.done, label %fatomic.warp.check
; CHECK:      fatomic.warp.join:
; CHECK:      call void @llvm.nvvm.bar.warp.sync(
; CHECK:      = bitcast i32 {{%[0-9]+}} to float
; CHECK-NEXT: = and i32 [[AFTER:%[0-9]+]], 2147483647
; CHECK:      fatomic.warp.single:
; CHECK:      fatomic.warp.done:
; CHECK-DAG:  = phi float [ {{%[0-9]+}}, %fatomic.warp.join ], [ {{%[0-9]+}}, %{{fatomic.done[0-9]*}} ], [ [[CACHED]], %loop ]
; CHECK-DAG:  = phi i32 [ [[WORD]], %loop ], [ [[AFTER]], %fatomic.warp.join ], [ {{%[0-9]+}}, %{{fatomic.done[0-9]*}} ]
; CHECK-DAG:  = phi i1 [ [[VALID]], %loop ], [ true, %fatomic.warp.join ], [ true, %{{fatomic.done[0-9]*}} ]

; PTX-LABEL: .entry k(
; PTX-NOT:   .local
; PTX:       match.all.sync.b64
; PTX:       shfl.sync.idx.b32
; PTX-NOT:   .local
