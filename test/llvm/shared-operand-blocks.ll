; Sharing stops at the block: an atomic in another block computes the
; operand's values again in its own block, even where the first block
; dominates it (the values then live only where they are used); the operand
; is frozen once, after its definition (or at the top of the function).  Values
; are placed before the first atomic of the block that takes the operand,
; after an operand that the block itself defines.
; REQUIRES: llvm-plugin
; outline=off: the lowering written out at the atomic, where the checks
; see it next to its input (outline-helper-body.ll and outline-kinds.ll
; check the helper functions).
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' %s | %opt -passes=verify -disable-output

define void @two_blocks(ptr %p, ptr %q, float %x, i1 %c) {
; CHECK-LABEL: define void @two_blocks(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[FRZB1:%.*]] = freeze float %x
; CHECK-NEXT:    [[B1:%.*]] = bitcast float [[FRZB1]] to i32
; CHECK:         atomicrmw min ptr %p
; CHECK:       then:
; CHECK-NEXT:    [[B2:%.*]] = bitcast float [[FRZB1]] to i32
; CHECK:         atomicrmw min ptr %q
; CHECK:         ret void
entry:
  %a = atomicrmw fmin ptr %p, float %x monotonic, align 4
  br i1 %c, label %then, label %exit
then:
  %b = atomicrmw fmin ptr %q, float %x monotonic, align 4
  br label %exit
exit:
  ret void
}

define void @defined_in_block(ptr %p, ptr %q, float %y) {
; CHECK-LABEL: define void @defined_in_block(
; CHECK-NEXT:    %x = fadd float %y, 1.000000e+00
; CHECK-NEXT:    [[FRZB:%.*]] = freeze float %x
; CHECK-NEXT:    [[B:%.*]] = bitcast float [[FRZB]] to i32
; CHECK:         atomicrmw min ptr %p
; CHECK-NOT:     bitcast float
; CHECK:         atomicrmw max ptr %q
; CHECK:         ret void
  %x = fadd float %y, 1.0
  %a = atomicrmw fmin ptr %p, float %x monotonic, align 4
  %b = atomicrmw fmax ptr %q, float %x monotonic, align 4
  ret void
}
