; -print-pipeline-passes prints the canonical parameters with ';' between
; items, and that text parses back to the same pipeline.
; REQUIRES: llvm-plugin
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<strategy=cas;nan=fast>' -print-pipeline-passes -disable-output %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<nan=fast;strategy=cas;early-out=on>' -print-pipeline-passes -disable-output %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -print-pipeline-passes -disable-output %s | FileCheck %s --check-prefix=DEFAULT

; CHECK: function(lower-float-atomic-minmax<nan=fast;strategy=cas;early-out=on>)
; DEFAULT: function(lower-float-atomic-minmax<strategy=dispatch;early-out=on>)

define void @f() {
  ret void
}
