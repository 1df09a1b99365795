; atomicrmw fmax double acquire: the early-out load keeps the acquire
; ordering, max dispatches to atomicrmw max (sign clear) / umin (sign set)
; on i64, a NaN operand becomes the identity all-ones, the fix-up cmpxchg is
; acquire acquire.
; REQUIRES: llvm-plugin
; outline=off: the lowering written out at the atomic, where the checks
; see it next to its input (outline-helper-body.ll and outline-kinds.ll
; check the helper functions).
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' %s | %opt -passes=verify -disable-output

define double @fmax(ptr %p, double %v) {
; CHECK-LABEL: define double @fmax(
; CHECK:         [[FRZBITS:%.*]] = freeze double %v
; CHECK-NEXT:    [[BITS:%.*]] = bitcast double [[FRZBITS]] to i64
; CHECK:         [[VNAN:%.*]] = icmp ugt i64 {{%.*}}, 9218868437227405312
; CHECK-NEXT:    [[OP:%.*]] = select i1 [[VNAN]], i64 -1, i64 [[BITS]]
; CHECK-NEXT:    [[NEG:%.*]] = icmp slt i64 [[OP]], 0
; CHECK-NEXT:    [[CUR:%.*]] = load atomic i64, ptr %p acquire, align 8
; CHECK:         [[SGT:%.*]] = icmp sgt i64 [[OP]], [[CUR]]
; CHECK-NEXT:    [[ULT:%.*]] = icmp ult i64 [[OP]], [[CUR]]
; CHECK-NEXT:    [[WINS:%.*]] = select i1 [[NEG]], i1 [[ULT]], i1 [[SGT]]
; CHECK-NEXT:    [[CNAN:%.*]] = icmp sgt i64 [[CUR]], 9218868437227405312
; CHECK-NEXT:    [[GO:%.*]] = or i1 [[WINS]], [[CNAN]]
; CHECK-NEXT:    br i1 [[GO]], label %fatomic.rmw, label %fatomic.done
; CHECK:       fatomic.rmw:
; CHECK-NEXT:    br i1 [[NEG]], label %fatomic.umin, label %fatomic.smax
; CHECK:       fatomic.smax:
; CHECK-NEXT:    [[O1:%.*]] = atomicrmw max ptr %p, i64 [[OP]] acquire, align 8
; A NaN that max/umin cannot displace is a positive one: above +inf, signed.
; CHECK-NEXT:    icmp sgt i64 [[O1]], 9218868437227405312
; CHECK:       fatomic.umin:
; CHECK-NEXT:    [[O2:%.*]] = atomicrmw umin ptr %p, i64 [[OP]] acquire, align 8
; CHECK-NEXT:    icmp sgt i64 [[O2]], 9218868437227405312
; CHECK:         [[DESIRED:%.*]] = select i1 [[VNAN]], i64 [[STUCK:%.*]], i64 [[BITS]]
; CHECK-NEXT:    cmpxchg ptr %p, i64 [[STUCK]], i64 [[DESIRED]] acquire acquire, align 8
; CHECK:         bitcast i64 {{%.*}} to double
; CHECK-NOT:     atomicrmw
  %r = atomicrmw fmax ptr %p, double %v acquire, align 8
  ret double %r
}
