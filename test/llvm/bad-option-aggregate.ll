; aggregate= (subgroup aggregation) is written for the SPIR-V pass only so far: rejected by the LLVM pass.
; REQUIRES: llvm-plugin
; RUN: not %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<aggregate=subgroup>' -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: lower-float-atomic-minmax: option 'aggregate' applies to the SPIR-V pass only
; CHECK: unknown {{.*}}pass{{.*}} 'lower-float-atomic-minmax<aggregate=subgroup>'

define void @f() {
  ret void
}
