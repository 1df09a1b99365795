; DXIL under nan=propagate (or strategy=cas): a dx.op.atomicCompareExchange
; loop only.  With no atomic load in DXIL the first exchange expects +0.0 and
; doubles as the read; every iteration exchanges.
; REQUIRES: llvm-plugin
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<nan=propagate>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<nan=propagate>' %s | %opt -passes=verify -disable-output

%dx.types.Handle = type { ptr }
declare float @dx.op.atomicBinOp.f32(i32, %dx.types.Handle, i32, i32, i32, i32, float)
declare double @dx.op.atomicBinOp.f64(i32, %dx.types.Handle, i32, i32, i32, i32, double)

define float @propagate(%dx.types.Handle %h, i32 %i, float %v) {
; CHECK-LABEL: define float @propagate(
; CHECK-NOT:     @dx.op.atomicBinOp
; CHECK:         [[OP:%.*]] = select i1 {{%.*}}, i32 -1, i32 {{%.*}}
; CHECK:       fatomic.cas.loop:
; CHECK-NEXT:    [[CUR:%.*]] = phi i32 [ 0, %0 ], [ [[OLD:%.*]], %fatomic.cas.loop ]
; CHECK:         [[BETTER:%.*]] = select i1 {{%.*}}, i32 [[OP]], i32 [[CUR]]
; CHECK:         [[NEW:%.*]] = select i1 {{%.*}}, i32 [[CUR]], i32 [[BETTER]]
; CHECK-NEXT:    [[OLD]] = call i32 @dx.op.atomicCompareExchange.i32(i32 79, %dx.types.Handle %h, i32 %i, i32 0, i32 0, i32 [[CUR]], i32 [[NEW]])
; CHECK-NEXT:    [[OK:%.*]] = icmp eq i32 [[OLD]], [[CUR]]
; CHECK-NEXT:    br i1 [[OK]], label %fatomic.done, label %fatomic.cas.loop
; CHECK-NOT:     call i32 @dx.op.atomicBinOp
  %r = call float @dx.op.atomicBinOp.f32(i32 78, %dx.types.Handle %h, i32 4, i32 %i, i32 0, i32 0, float %v)
  ret float %r
}
