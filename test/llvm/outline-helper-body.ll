; A helper's body is the lowering that outline=off writes at the atomic, on
; its parameters: here fmin (nan=number) on float, monotonic, with the
; early-out, the sign-dispatched integer atomics and the fix-up.
; REQUIRES: llvm-plugin
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' %s | %opt -passes=verify -disable-output

define float @fmin(ptr %p, float %v) {
  %r = atomicrmw fmin ptr %p, float %v monotonic, align 4
  ret float %r
}

; CHECK-LABEL: define internal float @fatomic.fmin.f32.monotonic(ptr %p, float noundef %v)
; CHECK:       entry:
; CHECK-NEXT:    [[BITS:%.*]] = bitcast float %v to i32
; CHECK-NEXT:    [[MAG:%.*]] = and i32 [[BITS]], 2147483647
; CHECK-NEXT:    [[ISNAN:%.*]] = icmp ugt i32 [[MAG]], 2139095040
; CHECK-NEXT:    [[OP:%.*]] = select i1 [[ISNAN]], i32 2147483647, i32 [[BITS]]
; CHECK-NEXT:    [[NEG:%.*]] = icmp slt i32 [[OP]], 0
; CHECK-NEXT:    [[CUR:%.*]] = load atomic i32, ptr %p monotonic, align 4
; CHECK:         br i1 {{%.*}}, label %fatomic.rmw, label %fatomic.done
; CHECK:       fatomic.rmw:
; CHECK-NEXT:    br i1 [[NEG]], label %fatomic.umax, label %fatomic.smin
; CHECK:       fatomic.smin:
; CHECK-NEXT:    [[OLDP:%.*]] = atomicrmw min ptr %p, i32 [[OP]] monotonic, align 4
; CHECK:       fatomic.umax:
; CHECK-NEXT:    [[OLDN:%.*]] = atomicrmw umax ptr %p, i32 [[OP]] monotonic, align 4
; CHECK:       fatomic.fixup:
; CHECK:         cmpxchg ptr %p, i32 {{%.*}}, i32 {{%.*}} monotonic monotonic, align 4
; CHECK:       fatomic.done:
; CHECK-NEXT:    [[OLD:%.*]] = phi i32 [ [[CUR]], %entry ], [ [[OLDP]], %fatomic.smin ], [ [[OLDN]], %fatomic.umax ]
; CHECK-NEXT:    [[RES:%.*]] = bitcast i32 [[OLD]] to float
; CHECK-NEXT:    ret float [[RES]]
; CHECK-NOT:   atomicrmw {{(volatile )?}}f
