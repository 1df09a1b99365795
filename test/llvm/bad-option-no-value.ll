; An item without '=' is a pipeline error.
; REQUIRES: llvm-plugin
; RUN: not %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<fast>' -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: lower-float-atomic-minmax: option 'fast' needs a value (key=value)
; CHECK: unknown {{.*}}pass{{.*}} 'lower-float-atomic-minmax<fast>'

define void @f() {
  ret void
}
