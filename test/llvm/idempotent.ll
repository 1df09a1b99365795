; Running the pass twice changes nothing the second time: its output has no
; float min/max atomic left, the helper functions included (and written out
; in place, outline=off).
; REQUIRES: llvm-plugin
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -S < %s > %t.once.ll
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -S < %t.once.ll > %t.twice.ll
; RUN: diff %t.once.ll %t.twice.ll
; RUN: FileCheck %s < %t.once.ll
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S < %s > %t.inline.once.ll
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -S < %t.inline.once.ll > %t.inline.twice.ll
; RUN: diff %t.inline.once.ll %t.inline.twice.ll
; RUN: FileCheck %s < %t.inline.once.ll

; CHECK-NOT: atomicrmw {{(volatile )?}}f
; CHECK-NOT: @dx.op.atomicBinOp.f32(i32 78

%dx.types.Handle = type { ptr }
declare float @dx.op.atomicBinOp.f32(i32, %dx.types.Handle, i32, i32, i32, i32, float)

define void @all(ptr %p, float %f, double %d, half %h, <2 x half> %v, %dx.types.Handle %hd) {
  %1 = atomicrmw fmin ptr %p, float %f monotonic, align 4
  %2 = atomicrmw fmax ptr %p, double %d seq_cst, align 8
  %3 = atomicrmw fminimum ptr %p, half %h acquire, align 2
  %4 = atomicrmw volatile fmaximum ptr %p, float %f release, align 4
  %5 = atomicrmw fmin ptr %p, <2 x half> %v monotonic, align 4
  %6 = call float @dx.op.atomicBinOp.f32(i32 78, %dx.types.Handle %hd, i32 5, i32 0, i32 0, i32 0, float %f)
  ret void
}
