; atomicrmw fmin/fmax half: i16 integer atomics and the binary16 masks
; (exponent 0x7C00, identity 0x7FFF for min, 0xFFFF for max).
; REQUIRES: llvm-plugin
; outline=off: the lowering written out at the atomic, where the checks
; see it next to its input (outline-helper-body.ll and outline-kinds.ll
; check the helper functions).
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' %s | %opt -passes=verify -disable-output

define half @fmin(ptr %p, half %v) {
; CHECK-LABEL: define half @fmin(
; CHECK:         [[FRZBITS:%.*]] = freeze half %v
; CHECK-NEXT:    [[BITS:%.*]] = bitcast half [[FRZBITS]] to i16
; CHECK-NEXT:    [[MAG:%.*]] = and i16 [[BITS]], 32767
; CHECK-NEXT:    [[VNAN:%.*]] = icmp ugt i16 [[MAG]], 31744
; CHECK-NEXT:    [[OP:%.*]] = select i1 [[VNAN]], i16 32767, i16 [[BITS]]
; CHECK-NEXT:    icmp slt i16 [[OP]], 0
; CHECK-NEXT:    load atomic i16, ptr %p monotonic, align 2
; CHECK:         atomicrmw min ptr %p, i16 [[OP]] monotonic, align 2
; CHECK:         atomicrmw umax ptr %p, i16 [[OP]] monotonic, align 2
; CHECK:         cmpxchg ptr %p, i16
; CHECK:         bitcast i16 {{%.*}} to half
  %r = atomicrmw fmin ptr %p, half %v monotonic, align 2
  ret half %r
}

define half @fmax(ptr %p, half %v) {
; CHECK-LABEL: define half @fmax(
; CHECK:         [[OP:%.*]] = select i1 {{%.*}}, i16 -1, i16 {{%.*}}
; CHECK:         atomicrmw max ptr %p, i16 [[OP]] monotonic, align 2
; CHECK:         atomicrmw umin ptr %p, i16 [[OP]] monotonic, align 2
  %r = atomicrmw fmax ptr %p, half %v monotonic, align 2
  ret half %r
}
