; aggregate=subgroup (subgroup aggregation) is written for the SPIR-V pass only so far: rejected by the LLVM pass,
; which takes aggregate=auto (the default) and aggregate=off as aggregating nothing.
; REQUIRES: llvm-plugin
; RUN: not %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<aggregate=subgroup>' -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: lower-float-atomic-minmax: option 'aggregate=subgroup' applies to the SPIR-V pass only
; CHECK: unknown {{.*}}pass{{.*}} 'lower-float-atomic-minmax<aggregate=subgroup>'

; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<aggregate=auto>' -disable-output %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<aggregate=off>' -disable-output %s

define void @f() {
  ret void
}
