; The cheaper propagate form (the early-out load, then one sign-dispatched
; integer atomic, no loop) where the module proves that every write to the
; memory is a lowered float atomic of the same kind: an internal global whose
; only uses are fminimum on float and loads, through getelementptr and
; addrspacecast.  Its sticky pattern then stays in memory and no other NaN
; can arrive after the load.  The helper is named .exclusive, apart from the
; loop's.
; REQUIRES: llvm-plugin
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' %s | %opt -passes=verify -disable-output

@slots = internal global [16 x float] zeroinitializer

define float @a(i64 %i, float %v) {
; CHECK-LABEL: define float @a(
; CHECK:         call float @fatomic.fminimum.f32.monotonic.exclusive(ptr %q, float {{%[0-9]+}})
  %q = getelementptr [16 x float], ptr @slots, i64 0, i64 %i
  %r = atomicrmw fminimum ptr %q, float %v monotonic, align 4
  ret float %r
}

define float @b(float %v) {
; CHECK-LABEL: define float @b(
; CHECK:         call float @fatomic.fminimum.f32.monotonic.exclusive(ptr %q, float {{%[0-9]+}})
  %c = addrspacecast ptr @slots to ptr addrspace(1)
  %q = addrspacecast ptr addrspace(1) %c to ptr
  %r = atomicrmw fminimum ptr %q, float %v monotonic, align 4
  %x = load float, ptr %q
  ret float %r
}

; CHECK-LABEL: define internal float @fatomic.fminimum.f32.monotonic.exclusive(ptr %p, float noundef %v)
; CHECK:         [[OP:%.*]] = select i1 {{%.*}}, i32 -1, i32 {{%.*}}
; CHECK:         [[CUR:%.*]] = load atomic i32, ptr %p monotonic, align 4
; CHECK:         br i1 {{%.*}}, label %fatomic.rmw, label %fatomic.done
; CHECK:         atomicrmw min ptr %p, i32 [[OP]] monotonic
; CHECK:         atomicrmw umax ptr %p, i32 [[OP]] monotonic
; CHECK-NOT:     cmpxchg
; CHECK:         ret float
