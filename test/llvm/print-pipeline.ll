; -print-pipeline-passes prints the canonical parameters with ';' between
; items, outline included, and that text parses back to the same pipeline.
; At the top level the pass is the module pass (outline=on by default);
; inside function(...) it is the function pass, which writes the lowering
; out in place (outline=off).
; REQUIRES: llvm-plugin
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<strategy=cas;nan=fast>' -print-pipeline-passes -disable-output %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<nan=fast;strategy=cas;early-out=on;outline=on>' -print-pipeline-passes -disable-output %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -print-pipeline-passes -disable-output %s | FileCheck %s --check-prefix=DEFAULT
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='function(lower-float-atomic-minmax)' -print-pipeline-passes -disable-output %s | FileCheck %s --check-prefix=FUNCTION
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='function(lower-float-atomic-minmax<strategy=dispatch;early-out=on;outline=off>)' -print-pipeline-passes -disable-output %s | FileCheck %s --check-prefix=FUNCTION

; CHECK: {{^}}lower-float-atomic-minmax<nan=fast;strategy=cas;early-out=on;outline=on>
; DEFAULT: {{^}}lower-float-atomic-minmax<strategy=dispatch;early-out=on;outline=on>
; FUNCTION: {{^}}function(lower-float-atomic-minmax<strategy=dispatch;early-out=on;outline=off>)

define void @f() {
  ret void
}
