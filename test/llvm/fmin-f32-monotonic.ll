; atomicrmw fmin float monotonic, default options (nan=number, dispatch,
; early-out): the whole shape of the lowering.
;  - the operand's bits, a NaN operand replaced by the identity 0x7FFFFFFF;
;  - an atomic load (same ordering) and the NaN-in-memory test;
;  - the early-out test: would the integer atomic the operand dispatches to
;    change memory (slt for min's smin, ugt for its umax: the U-order
;    comparison of the model, one compare per sign);
;  - exactly one of atomicrmw min / umax, chosen by the sign bit;
;  - the fix-up cmpxchg loop for a NaN seen in memory;
;  - the result, the first value the atomics saw, bitcast back to float.
; REQUIRES: llvm-plugin
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' %s | %opt -passes=verify -disable-output

define float @fmin(ptr %p, float %v) {
; CHECK-LABEL: define float @fmin(
; CHECK-NOT:     atomicrmw fmin
; CHECK:         [[BITS:%.*]] = bitcast float %v to i32
; CHECK-NEXT:    [[MAG:%.*]] = and i32 [[BITS]], 2147483647
; CHECK-NEXT:    [[VNAN:%.*]] = icmp ugt i32 [[MAG]], 2139095040
; CHECK-NEXT:    [[OP:%.*]] = select i1 [[VNAN]], i32 2147483647, i32 [[BITS]]
; CHECK-NEXT:    [[NEG:%.*]] = icmp slt i32 [[OP]], 0
; CHECK-NEXT:    [[CUR:%.*]] = load atomic i32, ptr %p monotonic, align 4
; CHECK-NEXT:    [[CMAG:%.*]] = and i32 [[CUR]], 2147483647
; CHECK-NEXT:    [[CNAN:%.*]] = icmp ugt i32 [[CMAG]], 2139095040
; CHECK-NEXT:    br i1 [[CNAN]], label %[[FIXUP:.*]], label %[[CHECK:.*]], !prof [[UNLIKELY:![0-9]+]]
; CHECK:       [[CHECK]]:
; CHECK-NEXT:    [[SLT:%.*]] = icmp slt i32 [[OP]], [[CUR]]
; CHECK-NEXT:    [[UGT:%.*]] = icmp ugt i32 [[OP]], [[CUR]]
; CHECK-NEXT:    [[WINS:%.*]] = select i1 [[NEG]], i1 [[UGT]], i1 [[SLT]]
; CHECK-NEXT:    br i1 [[WINS]], label %[[RMW:.*]], label %[[DONE:fatomic.done]]
; CHECK:       [[FIXUP]]:
; CHECK-NEXT:    [[START:%.*]] = phi i32 [ [[CUR]], %{{.*}} ], [ [[OLD:%.*]], %[[JOIN:.*]] ]
; CHECK:         br label %[[LOOP:.*]]
; CHECK:       [[RMW]]:
; CHECK-NEXT:    br i1 [[NEG]], label %[[UMAX:.*]], label %[[SMIN:.*]]
; CHECK:       [[SMIN]]:
; CHECK-NEXT:    [[O1:%.*]] = atomicrmw min ptr %p, i32 [[OP]] monotonic, align 4
; CHECK-NEXT:    br label %[[JOIN]]
; CHECK:       [[UMAX]]:
; CHECK-NEXT:    [[O2:%.*]] = atomicrmw umax ptr %p, i32 [[OP]] monotonic, align 4
; CHECK-NEXT:    br label %[[JOIN]]
; CHECK:       [[JOIN]]:
; CHECK-NEXT:    [[OLD]] = phi i32 [ [[O1]], %[[SMIN]] ], [ [[O2]], %[[UMAX]] ]
; CHECK-NEXT:    [[OMAG:%.*]] = and i32 [[OLD]], 2147483647
; CHECK-NEXT:    [[ONAN:%.*]] = icmp ugt i32 [[OMAG]], 2139095040
; A NaN the signed min/unsigned max cannot displace is a negative one.
; CHECK-NEXT:    [[ONEG:%.*]] = icmp slt i32 [[OLD]], 0
; CHECK-NEXT:    [[STAYS:%.*]] = and i1 [[ONAN]], [[ONEG]]
; CHECK-NEXT:    br i1 [[STAYS]], label %[[FIXUP]], label %[[DONE]], !prof [[UNLIKELY]]
; CHECK:       [[LOOP]]:
; CHECK-NEXT:    [[C:%.*]] = phi i32 [ [[START]], %[[FIXUP]] ], [ [[SEEN:%.*]], %[[CAS:.*]] ]
; CHECK:         [[NEW:%.*]] = select i1 {{%.*}}, i32 [[BITS]], i32 [[C]]
; CHECK-NEXT:    [[SAME:%.*]] = icmp eq i32 [[NEW]], [[C]]
; CHECK-NEXT:    br i1 [[SAME]], label %[[DONE]], label %[[CAS]]
; CHECK:       [[CAS]]:
; CHECK-NEXT:    [[PAIR:%.*]] = cmpxchg ptr %p, i32 [[C]], i32 [[NEW]] monotonic monotonic, align 4
; CHECK-NEXT:    [[SEEN]] = extractvalue { i32, i1 } [[PAIR]], 0
; CHECK-NEXT:    [[OK:%.*]] = extractvalue { i32, i1 } [[PAIR]], 1
; CHECK-NEXT:    br i1 [[OK]], label %[[DONE]], label %[[LOOP]]
; CHECK:       [[DONE]]:
; The fix-up's result is the word its loop last saw.
; CHECK-NEXT:    [[RES:%.*]] = phi i32 [ [[CUR]], %[[CHECK]] ], [ [[OLD]], %[[JOIN]] ], [ [[C]], %[[LOOP]] ], [ [[C]], %[[CAS]] ]
; CHECK-NEXT:    [[F:%.*]] = bitcast i32 [[RES]] to float
; CHECK-NEXT:    ret float [[F]]
  %r = atomicrmw fmin ptr %p, float %v monotonic, align 4
  ret float %r
}

; CHECK: [[UNLIKELY]] = !{!"branch_weights", i32 1, i32 {{[0-9]+}}}
