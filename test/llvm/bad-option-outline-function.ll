; outline=on makes helper functions, which only the module pass may add:
; inside function(...) it is rejected, once, with the reason.
; REQUIRES: llvm-plugin
; RUN: not %opt -load-pass-plugin=%fatomic_plugin -passes='function(lower-float-atomic-minmax<outline=on>)' -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: lower-float-atomic-minmax: outline=on needs the module pass (a function pass may not add functions); leave the pass out of function(...) or use outline=off
; CHECK-NOT: error: lower-float-atomic-minmax
; CHECK: unknown {{.*}}pass{{.*}} 'lower-float-atomic-minmax<outline=on>'

define void @f() {
  ret void
}
