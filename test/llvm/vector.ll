; <2 x half> has no integer atomic per lane: a cmpxchg loop on the i32 word,
; with the combination computed lane-wise on <2 x i16>.
; REQUIRES: llvm-plugin
; outline=off: the lowering written out at the atomic, where the checks
; see it next to its input (outline-helper-body.ll and outline-kinds.ll
; check the helper functions).
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' %s | %opt -passes=verify -disable-output

define <2 x half> @v2f16(ptr %p, <2 x half> %v) {
; CHECK-LABEL: define <2 x half> @v2f16(
; CHECK-NOT:     atomicrmw
; CHECK:         [[FRZBITS:%.*]] = freeze <2 x half> %v
; CHECK-NEXT:    [[BITS:%.*]] = bitcast <2 x half> [[FRZBITS]] to <2 x i16>
; CHECK:         icmp ugt <2 x i16> {{%.*}}, splat (i16 31744)
; CHECK:         [[INIT:%.*]] = load atomic i32, ptr %p monotonic, align 4
; CHECK:       fatomic.cas.loop:
; CHECK-NEXT:    [[CUR:%.*]] = phi i32 [ [[INIT]], %0 ], [ {{%.*}}, %fatomic.cas ]
; CHECK-NEXT:    [[LANES:%.*]] = bitcast i32 [[CUR]] to <2 x i16>
; CHECK:         [[NEWL:%.*]] = select <2 x i1> {{%.*}}, <2 x i16> [[BITS]], <2 x i16> [[LANES]]
; CHECK-NEXT:    [[NEW:%.*]] = bitcast <2 x i16> [[NEWL]] to i32
; CHECK-NEXT:    icmp eq i32 [[NEW]], [[CUR]]
; CHECK:         cmpxchg ptr %p, i32 [[CUR]], i32 [[NEW]] monotonic monotonic, align 4
; CHECK:         bitcast i32 {{%.*}} to <2 x half>
; CHECK-NOT:     atomicrmw
  %r = atomicrmw fmin ptr %p, <2 x half> %v monotonic, align 4
  ret <2 x half> %r
}

; Other vectors of up to 64 bits get the same loop on their word.
define <2 x float> @v2f32(ptr %p, <2 x float> %v) {
; CHECK-LABEL: define <2 x float> @v2f32(
; CHECK:         cmpxchg ptr %p, i64 {{%.*}}, i64 {{%.*}} seq_cst seq_cst, align 8
; CHECK-NOT:     atomicrmw
  %r = atomicrmw fmaximum ptr %p, <2 x float> %v seq_cst, align 8
  ret <2 x float> %r
}
