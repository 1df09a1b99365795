; The bound cache (BoundCache.h) on bfloat: its keys test NaNs with the
; format's own exponent mask, 0x7F80 (32640), as the lowering does
; (bfloat.ll), not a half's 0x7C00 (31744), which would take every
; |x| >= 2^121 for a NaN.  Two fmax atomics in a kernel under `number`
; (the key's rewrite: a NaN becomes all ones) and two fmaximum under
; `propagate` (a NaN becomes the sticky 0x7FFF); with a used result the
; recorded word's NaN test and key use the same mask.
; exec/cache-bfloat.test runs such kernels.
; REQUIRES: llvm-plugin
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S %s | FileCheck %s --implicit-check-not=31744
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' %s | %opt -passes=verify -disable-output

define spir_kernel void @fmax_number(ptr %p, bfloat %a, bfloat %b) {
; CHECK-LABEL: define spir_kernel void @fmax_number(
; CHECK:         [[FRZBITS:%.*]] = freeze bfloat %a
; CHECK-NEXT:    freeze bfloat %b
; CHECK-NEXT:    [[BITS:%.*]] = bitcast bfloat [[FRZBITS]] to i16
; CHECK-NEXT:    [[MAG:%.*]] = and i16 [[BITS]], 32767
; CHECK-NEXT:    [[NAN:%.*]] = icmp ugt i16 [[MAG]], 32640
; CHECK-NEXT:    select i1 [[NAN]], i16 -1, i16 [[BITS]]
; CHECK:         %fatomic.cache.hit = and i1
; CHECK:       fatomic.cache.miss:
  %x = atomicrmw fmax ptr %p, bfloat %a monotonic, align 2
  %y = atomicrmw fmax ptr %p, bfloat %b monotonic, align 2
  ret void
}

define spir_kernel void @fmaximum_propagate(ptr %p, bfloat %a, bfloat %b, ptr %out) {
; CHECK-LABEL: define spir_kernel void @fmaximum_propagate(
; CHECK:         [[FRZBITS:%.*]] = freeze bfloat %a
; CHECK-NEXT:    freeze bfloat %b
; CHECK-NEXT:    [[BITS:%.*]] = bitcast bfloat [[FRZBITS]] to i16
; CHECK-NEXT:    [[MAG:%.*]] = and i16 [[BITS]], 32767
; CHECK-NEXT:    [[NAN:%.*]] = icmp ugt i16 [[MAG]], 32640
; CHECK-NEXT:    select i1 [[NAN]], i16 32767, i16 [[BITS]]
; CHECK:         %fatomic.cache.hit = and i1
; CHECK:       fatomic.cache.miss:
  %x = atomicrmw fmaximum ptr %p, bfloat %a monotonic, align 2
  %y = atomicrmw fmaximum ptr %p, bfloat %b monotonic, align 2
  store bfloat %y, ptr %out, align 2
  ret void
}
