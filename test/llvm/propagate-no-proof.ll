; Where anything else may write the memory, propagate gets the
; compare-exchange loop: each function below has a writer, or a use the
; analysis cannot follow, next to an fminimum on an internal global, and
; external globals may be written by other modules.  No helper is
; .exclusive, and none has an integer min or umax.
; REQUIRES: llvm-plugin
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' %s | %opt -passes=verify -disable-output

@stored = internal global float 0.0
@exchanged = internal global float 0.0
@cmpxchged = internal global i32 0
@intatomic = internal global i32 0
@mixed = internal global float 0.0
@number = internal global float 0.0
@double = internal global [2 x float] zeroinitializer
@escaped = internal global float 0.0
@selected = internal global float 0.0
@external = global float 0.0
@viaint = internal global float 0.0

declare void @use(ptr)

; CHECK-NOT: .exclusive

define void @f(float %v, i1 %c, ptr %other) {
  %1 = atomicrmw fminimum ptr @stored, float %v monotonic, align 4
  store float 0x7FF8000000000000, ptr @stored
  %2 = atomicrmw fminimum ptr @exchanged, float %v monotonic, align 4
  %3 = atomicrmw xchg ptr @exchanged, float %v monotonic, align 4
  %4 = atomicrmw fminimum ptr @cmpxchged, float %v monotonic, align 4
  %5 = cmpxchg ptr @cmpxchged, i32 0, i32 -1 monotonic monotonic, align 4
  %6 = atomicrmw fminimum ptr @intatomic, float %v monotonic, align 4
  %7 = atomicrmw or ptr @intatomic, i32 1 monotonic, align 4
  %8 = atomicrmw fminimum ptr @mixed, float %v monotonic, align 4
  %9 = atomicrmw fmaximum ptr @mixed, float %v monotonic, align 4
  %10 = atomicrmw fminimum ptr @number, float %v monotonic, align 4
  %11 = atomicrmw fmin ptr @number, float %v monotonic, align 4
  %12 = atomicrmw fminimum ptr @double, float %v monotonic, align 4
  %13 = getelementptr i8, ptr @double, i64 2
  %14 = atomicrmw fminimum ptr %13, half 0xH0000 monotonic, align 2
  %15 = atomicrmw fminimum ptr @escaped, float %v monotonic, align 4
  call void @use(ptr @escaped)
  %16 = select i1 %c, ptr @selected, ptr %other
  %17 = atomicrmw fminimum ptr %16, float %v monotonic, align 4
  %18 = atomicrmw fminimum ptr @selected, float %v monotonic, align 4
  %19 = atomicrmw fminimum ptr @external, float %v monotonic, align 4
  %20 = ptrtoint ptr @viaint to i64
  %21 = inttoptr i64 %20 to ptr
  %22 = atomicrmw fminimum ptr @viaint, float %v monotonic, align 4
  ret void
}

; CHECK-LABEL: define internal float @fatomic.fminimum.f32.monotonic(
; CHECK-NOT:     atomicrmw
; CHECK:         cmpxchg
; CHECK-NOT:     atomicrmw
; CHECK:         ret float
; CHECK-NOT: .exclusive
