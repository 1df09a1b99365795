; The atomics of one block that take the same operand share what is computed
; from it: the min and the max of one value (a bounding box) get one bitcast,
; one NaN test and one rewritten operand per NaN pattern, emitted before the
; first of them; each atomic then compares and dispatches on those values.
; A third atomic with the same pattern as the first reuses its operand.
; REQUIRES: llvm-plugin
; outline=off: the lowering written out at the atomic, where the checks
; see it next to its input (outline-helper-body.ll and outline-kinds.ll
; check the helper functions).
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' %s | %opt -passes=verify -disable-output

define void @bbox(ptr %lo, ptr %hi, ptr %lo2, float %x) {
; CHECK-LABEL: define void @bbox(
; CHECK-NEXT:    [[FRZBITS:%.*]] = freeze float %x
; CHECK-NEXT: [[BITS:%.*]] = bitcast float [[FRZBITS]] to i32
; CHECK-NEXT:    [[MAG:%.*]] = and i32 [[BITS]], 2147483647
; CHECK-NEXT:    [[ISNAN:%.*]] = icmp ugt i32 [[MAG]], 2139095040
; The min's operand: a NaN becomes the signed maximum, which smin never stores.
; CHECK-NEXT:    [[MINOP:%.*]] = select i1 [[ISNAN]], i32 2147483647, i32 [[BITS]]
; CHECK-NEXT:    [[MINNEG:%.*]] = icmp slt i32 [[MINOP]], 0
; The max's operand: a NaN becomes all ones, which umin never stores.
; CHECK-NEXT:    [[MAXOP:%.*]] = select i1 [[ISNAN]], i32 -1, i32 [[BITS]]
; CHECK-NEXT:    [[MAXNEG:%.*]] = icmp slt i32 [[MAXOP]], 0
; CHECK-NEXT:    load atomic i32, ptr %lo monotonic
; CHECK-NOT:     bitcast float
; CHECK:         br i1 [[MINNEG]], label %fatomic.umax{{.*}}, label %fatomic.smin
; CHECK:         atomicrmw min ptr %lo, i32 [[MINOP]] monotonic
; CHECK:         atomicrmw umax ptr %lo, i32 [[MINOP]] monotonic
; CHECK:         load atomic i32, ptr %hi monotonic
; CHECK:         br i1 [[MAXNEG]], label %fatomic.umin{{.*}}, label %fatomic.smax
; CHECK:         atomicrmw max ptr %hi, i32 [[MAXOP]] monotonic
; CHECK:         atomicrmw umin ptr %hi, i32 [[MAXOP]] monotonic
; CHECK:         load atomic i32, ptr %lo2 monotonic
; CHECK:         atomicrmw min ptr %lo2, i32 [[MINOP]] monotonic
; CHECK:         atomicrmw umax ptr %lo2, i32 [[MINOP]] monotonic
; CHECK-NOT:     bitcast float
; CHECK:         ret void
  %a = atomicrmw fmin ptr %lo, float %x monotonic, align 4
  %b = atomicrmw fmax ptr %hi, float %x monotonic, align 4
  %c = atomicrmw fmin ptr %lo2, float %x monotonic, align 4
  ret void
}
