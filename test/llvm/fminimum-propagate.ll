; atomicrmw fminimum defaults to nan=propagate: a NaN operand becomes the
; sticky all-ones pattern (a NaN that beats every number under umax), a NaN
; found by the early-out load is returned with memory left as it is, and
; there is no fix-up loop.
; REQUIRES: llvm-plugin
; outline=off: the lowering written out at the atomic, where the checks
; see it next to its input (outline.ll checks the helper functions).
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' %s | %opt -passes=verify -disable-output

define float @fminimum(ptr %p, float %v) {
; CHECK-LABEL: define float @fminimum(
; CHECK:         [[VNAN:%.*]] = icmp ugt i32 {{%.*}}, 2139095040
; CHECK-NEXT:    [[OP:%.*]] = select i1 [[VNAN]], i32 -1, i32 {{%.*}}
; CHECK-NEXT:    icmp slt i32 [[OP]], 0
; CHECK-NEXT:    [[CUR:%.*]] = load atomic i32, ptr %p monotonic, align 4
; CHECK-NEXT:    icmp slt i32 [[OP]], [[CUR]]
; CHECK-NEXT:    icmp ugt i32 [[OP]], [[CUR]]
; CHECK-NEXT:    [[WINS:%.*]] = select i1
; CHECK-NEXT:    [[CMAG:%.*]] = and i32 [[CUR]], 2147483647
; CHECK-NEXT:    [[CNAN:%.*]] = icmp ugt i32 [[CMAG]], 2139095040
; A NaN in memory skips the atomic.
; CHECK-NEXT:    [[GO:%.*]] = select i1 [[CNAN]], i1 false, i1 [[WINS]]
; CHECK-NEXT:    br i1 [[GO]], label %fatomic.rmw, label %fatomic.done
; CHECK:         atomicrmw min ptr %p, i32 [[OP]] monotonic
; CHECK-NEXT:    br label %fatomic.done
; CHECK:         atomicrmw umax ptr %p, i32 [[OP]] monotonic
; CHECK-NEXT:    br label %fatomic.done
; CHECK:       fatomic.done:
; CHECK-NEXT:    [[RES:%.*]] = phi i32 [ [[CUR]], %0 ], [ {{%.*}}, %fatomic.smin ], [ {{%.*}}, %fatomic.umax ]
; CHECK-NOT:     cmpxchg
  %r = atomicrmw fminimum ptr %p, float %v monotonic, align 4
  ret float %r
}
