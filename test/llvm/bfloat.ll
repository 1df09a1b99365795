; atomicrmw on bfloat: the masks come from the format (exponent 0x7F80), the
; sign dispatch is the same.
; REQUIRES: llvm-plugin
; outline=off: the lowering written out at the atomic, where the checks
; see it next to its input (outline-helper-body.ll and outline-kinds.ll
; check the helper functions).
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' %s | %opt -passes=verify -disable-output

define bfloat @fmin(ptr %p, bfloat %v) {
; CHECK-LABEL: define bfloat @fmin(
; CHECK:         [[FRZBITS:%.*]] = freeze bfloat %v
; CHECK-NEXT:    [[BITS:%.*]] = bitcast bfloat [[FRZBITS]] to i16
; CHECK-NEXT:    [[MAG:%.*]] = and i16 [[BITS]], 32767
; CHECK-NEXT:    icmp ugt i16 [[MAG]], 32640
; CHECK:         atomicrmw min ptr %p, i16
; CHECK:         atomicrmw umax ptr %p, i16
; CHECK:         bitcast i16 {{%.*}} to bfloat
  %r = atomicrmw fmin ptr %p, bfloat %v monotonic, align 2
  ret bfloat %r
}
