; Where the operand's freeze goes when nothing may follow its definition in
; its block: after an invoke (its value starts in the normal destination,
; which may have other predecessors) and after a musttail call (only a ret
; may follow it), the freeze goes before each atomic instead.  Both atomics
; are in unreachable blocks, where a freeze after the definition would not
; be dominated by it, or would split the musttail call from its ret; the
; output verifies, in the module and the function form.
; REQUIRES: llvm-plugin
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>,verify' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='function(lower-float-atomic-minmax),verify' -disable-output %s

declare float @g()
declare float @gp(ptr)
declare i32 @__gxx_personality_v0(...)

define float @invoke_result(ptr %p, i1 %c) personality ptr @__gxx_personality_v0 {
; CHECK-LABEL: define float @invoke_result(
; CHECK:       join:
; CHECK-NEXT:    ret float 0.0
; CHECK:       dead:
; CHECK-NEXT:    [[F:%[0-9]+]] = freeze float %v
; CHECK-NEXT:    bitcast float [[F]] to i32
entry:
  br i1 %c, label %a, label %join
a:
  %v = invoke float @g() to label %join unwind label %lp
join:
  ret float 0.0
dead:
  %r = atomicrmw fmax ptr %p, float %v monotonic, align 4
  ret float %r
lp:
  %l = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %l
}

define float @musttail_result(ptr %p) {
; CHECK-LABEL: define float @musttail_result(
; CHECK:         %v = musttail call float @gp(ptr %p)
; CHECK-NEXT:    ret float %v
; CHECK:       dead:
; CHECK-NEXT:    [[F:%[0-9]+]] = freeze float %v
entry:
  %v = musttail call float @gp(ptr %p)
  ret float %v
dead:
  %r = atomicrmw fmax ptr %p, float %v monotonic, align 4
  ret float %r
}
