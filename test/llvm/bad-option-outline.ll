; outline= is about SPIR-V helper functions: rejected by the LLVM pass.
; REQUIRES: llvm-plugin
; RUN: not %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<outline=off>' -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: lower-float-atomic-minmax: option 'outline' applies to the SPIR-V pass only
; CHECK: unknown {{.*}}pass{{.*}} 'lower-float-atomic-minmax<outline=off>'

define void @f() {
  ret void
}
