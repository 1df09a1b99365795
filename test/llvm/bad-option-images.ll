; images= is about SPIR-V storage images: rejected by the LLVM pass.
; REQUIRES: llvm-plugin
; RUN: not %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<images=retype>' -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: lower-float-atomic-minmax: option 'images' applies to the SPIR-V pass only
; CHECK: unknown {{.*}}pass{{.*}} 'lower-float-atomic-minmax<images=retype>'

define void @f() {
  ret void
}
