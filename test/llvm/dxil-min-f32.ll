; DXIL dx.op.atomicBinOp.f32 with op 4 (IMin) or 6 (UMin) is a float min:
; dx.op.atomicBinOp.i32 with IMin (4, sign clear) or UMax (7, sign set) on the
; same handle and coordinates, and a dx.op.atomicCompareExchange.i32 fix-up
; (opcode 79) for a NaN found in memory.  DXIL has no atomic load, so there
; is no early-out.  The integer overloads are declared.
; REQUIRES: llvm-plugin
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' %s | %opt -passes=verify -disable-output

%dx.types.Handle = type { ptr }
declare float @dx.op.atomicBinOp.f32(i32, %dx.types.Handle, i32, i32, i32, i32, float)
declare double @dx.op.atomicBinOp.f64(i32, %dx.types.Handle, i32, i32, i32, i32, double)

define float @imin(%dx.types.Handle %h, i32 %i, float %v) {
; CHECK-LABEL: define float @imin(
; CHECK-NOT:     @dx.op.atomicBinOp.f32
; CHECK:         [[FRZBITS:%.*]] = freeze float %v
; CHECK-NEXT:    [[BITS:%.*]] = bitcast float [[FRZBITS]] to i32
; CHECK:         [[OP:%.*]] = select i1 {{%.*}}, i32 2147483647, i32 [[BITS]]
; CHECK-NEXT:    [[NEG:%.*]] = icmp slt i32 [[OP]], 0
; CHECK-NEXT:    br label %fatomic.rmw
; CHECK:       fatomic.rmw:
; CHECK-NEXT:    br i1 [[NEG]], label %fatomic.umax, label %fatomic.smin
; CHECK:       fatomic.smin:
; CHECK-NEXT:    call i32 @dx.op.atomicBinOp.i32(i32 78, %dx.types.Handle %h, i32 4, i32 %i, i32 1, i32 2, i32 [[OP]])
; CHECK:       fatomic.umax:
; CHECK-NEXT:    call i32 @dx.op.atomicBinOp.i32(i32 78, %dx.types.Handle %h, i32 7, i32 %i, i32 1, i32 2, i32 [[OP]])
; CHECK:       fatomic.fixup:
; CHECK-NEXT:    [[STUCK:%.*]] = phi i32
; CHECK-NEXT:    [[DESIRED:%.*]] = select i1 {{%.*}}, i32 [[STUCK]], i32 [[BITS]]
; CHECK-NEXT:    [[OLD:%.*]] = call i32 @dx.op.atomicCompareExchange.i32(i32 79, %dx.types.Handle %h, i32 %i, i32 1, i32 2, i32 [[STUCK]], i32 [[DESIRED]])
; CHECK-NEXT:    [[OK:%.*]] = icmp eq i32 [[OLD]], [[STUCK]]
; A failed exchange runs the atomic again.
; CHECK-NEXT:    br i1 [[OK]], label %fatomic.done, label %fatomic.rmw
; CHECK:         bitcast i32 {{%.*}} to float
  %r = call float @dx.op.atomicBinOp.f32(i32 78, %dx.types.Handle %h, i32 4, i32 %i, i32 1, i32 2, float %v)
  ret float %r
}

define float @umin(%dx.types.Handle %h, i32 %i, float %v) {
; CHECK-LABEL: define float @umin(
; CHECK:         call i32 @dx.op.atomicBinOp.i32(i32 78, %dx.types.Handle %h, i32 4,
; CHECK:         call i32 @dx.op.atomicBinOp.i32(i32 78, %dx.types.Handle %h, i32 7,
  %r = call float @dx.op.atomicBinOp.f32(i32 78, %dx.types.Handle %h, i32 6, i32 %i, i32 0, i32 0, float %v)
  ret float %r
}

; CHECK: declare i32 @dx.op.atomicBinOp.i32(i32, %dx.types.Handle, i32, i32, i32, i32, i32) [[ATTR:#[0-9]+]]
; CHECK: declare i32 @dx.op.atomicCompareExchange.i32(i32, %dx.types.Handle, i32, i32, i32, i32, i32) [[ATTR]]
; CHECK: attributes [[ATTR]] = { nounwind }
