; The plugin's hidden testing option -fatomic-warp-reconverge-for-testing
; (WarpAggregate.h, setReconvergeForTesting): each warp-aggregated atomic
; ends with bar.warp.sync on the lanes that reached it together, so that a
; warp that parted inside it meets the next atomic whole.  tools/nvptx's
; `reconverge` variant runs its checks with it.
;  - used result: the mask is the activemask that the full-warp test reads;
;  - unused result with the bound cache: an activemask before the cache's
;    test, and the group's own after it (only the lanes that miss);
;  - unused result without the cache: the one activemask of the head.
; Without the option none of these barriers is emitted.
; REQUIRES: nvptx
; RUN: %opt -load-pass-plugin=%fatomic_plugin -fatomic-warp-reconverge-for-testing -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -fatomic-warp-reconverge-for-testing -passes='lower-float-atomic-minmax<outline=off>' %s | %opt -passes=verify -disable-output
; RUN: %opt -load-pass-plugin=%fatomic_plugin -fatomic-warp-reconverge-for-testing -passes='lower-float-atomic-minmax<outline=off>' %s | %llc -O3 -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 | FileCheck %s --check-prefix=PTX
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s --check-prefix=DEFAULT

target triple = "nvptx64-nvidia-cuda"

define float @used(ptr addrspace(1) %p, float %v) "target-cpu"="sm_90" {
  %old = atomicrmw fmax ptr addrspace(1) %p, float %v syncscope("device") monotonic, align 4
  ret float %old
}

define ptx_kernel void @cached(ptr addrspace(1) %p, float %v, float %w) "target-cpu"="sm_90" {
  %a = atomicrmw fmax ptr addrspace(1) %p, float %v syncscope("device") monotonic, align 4
  %b = atomicrmw fmax ptr addrspace(1) %p, float %w syncscope("device") monotonic, align 4
  ret void
}

define void @unused(ptr addrspace(1) %p, float %v) "target-cpu"="sm_90" {
  %old = atomicrmw fmax ptr addrspace(1) %p, float %v syncscope("device") monotonic, align 4
  ret void
}

; CHECK-LABEL: define float @used(
; CHECK:      [[ACTIVE:%[0-9]+]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT: icmp eq i32 [[ACTIVE]], -1
; CHECK:      call void @llvm.nvvm.bar.warp.sync(i32 -1)
; CHECK:      fatomic.warp.done{{[0-9]*}}:
; CHECK-NEXT: [[RESULT:%[0-9]+]] = phi float
; CHECK-NEXT: call void @llvm.nvvm.bar.warp.sync(i32 [[ACTIVE]])
; CHECK-NEXT: ret float [[RESULT]]

; CHECK-LABEL: define ptx_kernel void @cached(
; CHECK:      [[ENTRY1:%[0-9]+]] = call i32 @llvm.nvvm.activemask()
; CHECK:      br i1 %fatomic.cache.hit{{[0-9]*}}, label %[[DONE1:fatomic.warp.done[0-9]*]], label %[[CHECK1:fatomic.warp.check[0-9]*]]
; CHECK:      [[CHECK1]]:
; CHECK-NEXT: [[GROUP1:%[0-9]+]] = call i32 @llvm.nvvm.activemask()
; CHECK:      call i32 @llvm.nvvm.redux.sync.umax(i32 {{%[0-9]+}}, i32 [[GROUP1]])
; CHECK:      [[DONE1]]:
; CHECK-NOT:  {{^[a-z]}}
; CHECK:      call void @llvm.nvvm.bar.warp.sync(i32 [[ENTRY1]])
; CHECK:      [[ENTRY2:%[0-9]+]] = call i32 @llvm.nvvm.activemask()
; CHECK:      br i1 %fatomic.cache.hit{{[0-9]*}}, label %[[DONE2:fatomic.warp.done[0-9]*]], label %{{fatomic.warp.check[0-9]*}}
; CHECK:      [[DONE2]]:
; CHECK-NOT:  {{^[a-z]}}
; CHECK:      call void @llvm.nvvm.bar.warp.sync(i32 [[ENTRY2]])
; CHECK-NEXT: ret void

; CHECK-LABEL: define void @unused(
; CHECK:      [[MASK:%[0-9]+]] = call i32 @llvm.nvvm.activemask()
; CHECK:      call i32 @llvm.nvvm.redux.sync.umax(i32 {{%[0-9]+}}, i32 [[MASK]])
; CHECK:      fatomic.warp.done{{[0-9]*}}:
; CHECK-NEXT: call void @llvm.nvvm.bar.warp.sync(i32 [[MASK]])
; CHECK-NEXT: ret void

; PTX-LABEL: .entry cached(
; PTX:       activemask.b32 [[PENTRY:%r[0-9]+]];
; PTX:       activemask.b32
; PTX:       redux.sync.max.u32
; PTX:       bar.warp.sync [[PENTRY]];

; DEFAULT-LABEL: define float @used(
; DEFAULT-NOT:   call void @llvm.nvvm.bar.warp.sync(i32 %
; DEFAULT-LABEL: define ptx_kernel void @cached(
; DEFAULT-NOT:   @llvm.nvvm.bar.warp.sync
; DEFAULT-LABEL: define void @unused(
; DEFAULT-NOT:   @llvm.nvvm.bar.warp.sync
; DEFAULT:       ret void
