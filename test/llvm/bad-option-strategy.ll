; An unknown strategy= value is a pipeline error that names the value.
; REQUIRES: llvm-plugin
; RUN: not %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<strategy=loop>' -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: lower-float-atomic-minmax: unknown value 'loop' for option 'strategy' (expected dispatch or cas)
; CHECK: unknown {{.*}}pass{{.*}} 'lower-float-atomic-minmax<strategy=loop>'

define void @f() {
  ret void
}
