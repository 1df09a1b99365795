; DXIL has no float atomicrmw, and integer atomics of 32 and 64 bits only:
; in a module whose triple is dxil, an fp128 float min/max atomicrmw, which
; elsewhere the pass leaves alone (untouched.ll), is reported and opt fails,
; in the function form of the pass too.
; REQUIRES: llvm-plugin
; RUN: not %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -disable-output %s 2>&1 | FileCheck %s
; RUN: not %opt -load-pass-plugin=%fatomic_plugin -passes='function(lower-float-atomic-minmax)' -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}lower-float-atomic-minmax: cannot lower atomicrmw fmaximum fp128: DXIL has integer atomics of 32 and 64 bits only
; CHECK-NOT: error:

target triple = "dxil-pc-shadermodel6.6-compute"
@gs = internal addrspace(3) global fp128 0xL0, align 16

define void @main(fp128 %v) {
  %r = atomicrmw fmaximum ptr addrspace(3) @gs, fp128 %v monotonic, align 16
  ret void
}
