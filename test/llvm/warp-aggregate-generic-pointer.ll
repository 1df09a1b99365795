; A generic pointer may point into local memory, where one address is a
; different word in each lane: the aggregated path also needs the address
; not to be local (isspacep.local), which is uniform where the addresses
; are.  Global and shared pointers need no such test
; (warp-aggregate-f32-fmax.ll, warp-aggregate-f64-fmin-unused.ll).
; REQUIRES: nvptx
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' %s | %llc -O3 -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 | FileCheck %s --check-prefix=PTX

target triple = "nvptx64-nvidia-cuda"

define void @generic(ptr %p, float %v) "target-cpu"="sm_90" {
  %old = atomicrmw fmin ptr %p, float %v syncscope("device") monotonic
  ret void
}

; CHECK-LABEL: define void @generic(
; CHECK:      [[MASK:%[0-9]+]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT: [[ADDR:%[0-9]+]] = ptrtoint ptr %p to i64
; CHECK-NEXT: [[MATCH:%[0-9]+]] = call { i32, i1 } @llvm.nvvm.match.all.sync.i64p(i32 [[MASK]], i64 [[ADDR]])
; CHECK-NEXT: [[SAME:%[0-9]+]] = extractvalue { i32, i1 } [[MATCH]], 1
; CHECK-NEXT: [[LOCAL:%[0-9]+]] = call i1 @llvm.nvvm.isspacep.local(ptr %p)
; CHECK-NEXT: [[SHARED:%[0-9]+]] = xor i1 [[LOCAL]], true
; CHECK-NEXT: [[GO:%[0-9]+]] = and i1 [[SAME]], [[SHARED]]
; CHECK-NEXT: br i1 [[GO]], label %fatomic.warp.reduce, label %fatomic.warp.single
; CHECK:      redux.sync.umin

; PTX-LABEL: .func generic(
; PTX:       match.all.sync.b64
; PTX:       isspacep.local
; PTX:       redux.sync.min.u32
