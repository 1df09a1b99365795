; outline=on in Windows EH funclets: a call in a funclet (cleanuppad,
; catchpad) must name its pad in a "funclet" operand bundle, or
; WinEHPrepare takes the call for one that cannot be reached and removes it,
; with the atomic.  The helper call of an atomic in a funclet carries the
; bundle of the funclet that the block belongs to (colorEHFunclets), also
; in a block of the funclet after its pad's; a call outside funclets has
; none.  The calls survive win-eh-prepare.
; REQUIRES: llvm-plugin
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' %s | %opt -passes=verify -disable-output
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' %s | %opt -passes=win-eh-prepare -S | FileCheck %s --check-prefix=PREPARE

target triple = "x86_64-pc-windows-msvc"

declare void @g()
declare i32 @__CxxFrameHandler3(...)

define void @cleanup(ptr %p, float %v) personality ptr @__CxxFrameHandler3 {
; CHECK-LABEL: define void @cleanup(
; CHECK:         %body = call float @fatomic.fmax.f32.monotonic(ptr %p, float {{%[0-9]+}}){{$}}
; CHECK:       cleanup:
; CHECK-NEXT:    %cp = cleanuppad within none []
; CHECK-NEXT:    %a = call float @fatomic.fmax.f32.monotonic(ptr %p, float {{%[0-9]+}}) [ "funclet"(token %cp) ]
; CHECK-NEXT:    cleanupret from %cp unwind to caller
; PREPARE-LABEL: define void @cleanup(
; PREPARE:       cleanup:
; PREPARE-NEXT:    %cp = cleanuppad within none []
; PREPARE-NEXT:    %a = call float @fatomic.fmax.f32.monotonic(ptr %p, float {{%[0-9]+}}) [ "funclet"(token %cp) ]
; PREPARE-NEXT:    cleanupret from %cp unwind to caller
entry:
  %body = atomicrmw fmax ptr %p, float %v monotonic, align 4
  invoke void @g()
          to label %ok unwind label %cleanup

ok:
  ret void

cleanup:
  %cp = cleanuppad within none []
  %a = atomicrmw fmax ptr %p, float %v monotonic, align 4
  cleanupret from %cp unwind to caller
}

define void @catch(ptr %p, float %v, i1 %c) personality ptr @__CxxFrameHandler3 {
; CHECK-LABEL: define void @catch(
; CHECK:       catch:
; CHECK-NEXT:    %pad = catchpad within %cs [ptr null, i32 64, ptr null]
; CHECK-NEXT:    %x = call float @fatomic.fmin.f32.monotonic(ptr %p, float {{%[0-9]+}}) [ "funclet"(token %pad) ]
; CHECK:       more:
; CHECK-NEXT:    %y = call float @fatomic.fmin.f32.monotonic(ptr %p, float {{%[0-9]+}}) [ "funclet"(token %pad) ]
; CHECK-NEXT:    catchret from %pad to label %ok
; PREPARE-LABEL: define void @catch(
; PREPARE:         %x = call float @fatomic.fmin.f32.monotonic(ptr %p, float {{%[0-9]+}}) [ "funclet"(token %pad) ]
; PREPARE:         %y = call float @fatomic.fmin.f32.monotonic(ptr %p, float {{%[0-9]+}}) [ "funclet"(token %pad) ]
entry:
  invoke void @g()
          to label %ok unwind label %dispatch

dispatch:
  %cs = catchswitch within none [label %catch] unwind to caller

catch:
  %pad = catchpad within %cs [ptr null, i32 64, ptr null]
  %x = atomicrmw fmin ptr %p, float %v monotonic, align 4
  br i1 %c, label %more, label %done

more:
  %y = atomicrmw fmin ptr %p, float %v monotonic, align 4
  catchret from %pad to label %ok

done:
  catchret from %pad to label %ok

ok:
  ret void
}
