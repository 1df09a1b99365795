; An unknown nan= value is a pipeline error that names the value, once
; (the parser offers the name to the module and to the function form).
; REQUIRES: llvm-plugin
; RUN: not %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<nan=maybe>' -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: lower-float-atomic-minmax: unknown value 'maybe' for option 'nan' (expected number, propagate or fast)
; CHECK-NOT: error: lower-float-atomic-minmax
; CHECK: unknown {{.*}}pass{{.*}} 'lower-float-atomic-minmax<nan=maybe>'

define void @f() {
  ret void
}
