; The bound cache in an NVPTX kernel that runs an unused fmax in a loop
; (the shape of tools/nvptx's benchmark): each lane tests its cache before
; the warp's address test, and only the lanes that miss take part in the
; aggregation.  The elected lane records the better of its atomic's key and
; the reduced key, the other lanes of the group the reduced key, a lane of
; a mixed warp the better of its own atomic's key and its operand's.  The
; slot is promoted to registers: phis carried around the loop, starting at
; (null, 0), and no local memory in the PTX.
; REQUIRES: nvptx
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' %s | %opt -passes=verify -disable-output
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' %s | %llc -O3 -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 | FileCheck %s --check-prefix=PTX
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off;cache=off>' -S %s | FileCheck %s --check-prefix=OFF

target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr addrspace(1) %vals, ptr addrspace(1) %dst, i32 %n) "target-cpu"="sm_90" {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %vi = add i32 %tid, %i
  %vi64 = zext i32 %vi to i64
  %vp = getelementptr inbounds float, ptr addrspace(1) %vals, i64 %vi64
  %v = load float, ptr addrspace(1) %vp, align 4
  %a64 = zext i32 %i to i64
  %dp = getelementptr inbounds float, ptr addrspace(1) %dst, i64 %a64
  %old = atomicrmw fmax ptr addrspace(1) %dp, float %v syncscope("device") monotonic, align 4
  %i.next = add i32 %i, 1
  %more = icmp ult i32 %i.next, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK-NOT:  alloca
; CHECK:      loop:
; CHECK-NEXT: [[BOUND:%fatomic.cache.bound[.0-9]*]] = phi i32 [ 0, %entry ], [ [[BOUNDNEXT:%fatomic.cache.bound[.0-9]*]], %fatomic.warp.done ]
; CHECK-NEXT: [[LAST:%fatomic.cache.ptr[.0-9]*]] = phi ptr addrspace(1) [ null, %entry ], [ [[LASTNEXT:%fatomic.cache.ptr[.0-9]*]], %fatomic.warp.done ]
; CHECK:      select i1 {{%[0-9]+}}, i32 -1, i32 {{%[0-9]+}}
; CHECK:      [[KEY:%[0-9]+]] = select i1 {{%[0-9]+}}, i32 {{%[0-9]+}}, i32 {{%[0-9]+}}
; CHECK-NEXT: [[SAME:%[0-9]+]] = icmp eq ptr addrspace(1) %dp, [[LAST]]
; CHECK-NEXT: [[BEHIND:%[0-9]+]] = icmp ule i32 [[KEY]], [[BOUND]]
; CHECK-NEXT: [[HIT:%fatomic.cache.hit[0-9]*]] = and i1 [[SAME]], [[BEHIND]]
; CHECK-NEXT: br i1 [[HIT]], label %fatomic.warp.done, label %fatomic.warp.check
; CHECK:      fatomic.warp.check:
; CHECK-NEXT: [[MASK:%[0-9]+]] = call i32 @llvm.nvvm.activemask()
; CHECK:      fatomic.warp.reduce:
; CHECK-NEXT: [[RED:%[0-9]+]] = call i32 @llvm.nvvm.redux.sync.umax(i32 [[KEY]], i32 [[MASK]])
; CHECK:      fatomic.warp.elected:
; CHECK:      [[FOUND:%[0-9]+]] = phi i32 [ {{%[0-9]+}}, %fatomic.warp.elected ]
; CHECK:      [[ELECTED:%[0-9]+]] = call i32 @llvm.umax.i32(i32 {{%[0-9]+}}, i32 [[RED]])
; CHECK:      fatomic.warp.join:
; CHECK-NEXT: [[GROUP:%[0-9]+]] = phi i32 [ [[ELECTED]], %{{fatomic.done[0-9]*}} ], [ [[RED]], %fatomic.warp.reduce ]
; CHECK:      fatomic.warp.single:
; CHECK:      [[SINGLE:%[0-9]+]] = call i32 @llvm.umax.i32(i32 {{%[0-9]+}}, i32 [[KEY]])
; CHECK:      fatomic.warp.done:
; CHECK-NEXT: [[BOUNDNEXT]] = phi i32 [ [[BOUND]], %loop ], [ [[GROUP]], %fatomic.warp.join ], [ [[SINGLE]], %{{fatomic.done[0-9]*}} ]
; CHECK-NEXT: [[LASTNEXT]] = phi ptr addrspace(1) [ [[LAST]], %loop ], [ %dp, %fatomic.warp.join ], [ %dp, %{{fatomic.done[0-9]*}} ]

; PTX-LABEL: .entry k(
; PTX-NOT:   .local
; PTX:       match.all.sync.b64
; PTX:       redux.sync.max.u32
; PTX-NOT:   .local

; OFF-NOT:   fatomic.cache
; OFF:       fatomic.warp.reduce:
; OFF-NOT:   fatomic.cache
