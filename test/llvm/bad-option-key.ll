; An unknown option key is a pipeline error that names the key.
; REQUIRES: llvm-plugin
; RUN: not %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<nan=fast;colour=blue>' -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: lower-float-atomic-minmax: unknown option 'colour' (expected nan, strategy, early-out, native, images, outline, writers, aggregate or cache)
; CHECK: unknown {{.*}}pass{{.*}} 'lower-float-atomic-minmax<nan=fast;colour=blue>'

define void @f() {
  ret void
}
