; propagate without an early-out (here: release) cannot trust the dispatched
; atomic with a foreign NaN in memory, so it becomes the cmpxchg loop even
; under strategy=dispatch.  Its combination keeps a NaN in memory and stores
; the sticky pattern for a NaN operand.
; REQUIRES: llvm-plugin
; outline=off: the lowering written out at the atomic, where the checks
; see it next to its input (outline-helper-body.ll and outline-kinds.ll
; check the helper functions).
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' %s | %opt -passes=verify -disable-output

define double @fmaximum(ptr %p, double %v) {
; CHECK-LABEL: define double @fmaximum(
; CHECK-NOT:     atomicrmw
; CHECK:         [[OP:%.*]] = select i1 {{%.*}}, i64 9223372036854775807, i64 {{%.*}}
; CHECK:         load atomic i64, ptr %p monotonic, align 8
; CHECK:       fatomic.cas.loop:
; CHECK-NEXT:    [[CUR:%.*]] = phi i64
; CHECK:         [[BETTER:%.*]] = select i1 {{%.*}}, i64 [[OP]], i64 [[CUR]]
; CHECK:         [[CNAN:%.*]] = icmp ugt i64 {{%.*}}, 9218868437227405312
; CHECK-NEXT:    [[NEW:%.*]] = select i1 [[CNAN]], i64 [[CUR]], i64 [[BETTER]]
; CHECK:         cmpxchg ptr %p, i64 {{%.*}}, i64 [[NEW]] release monotonic, align 8
; CHECK-NOT:     atomicrmw
  %r = atomicrmw fmaximum ptr %p, double %v release, align 8
  ret double %r
}
