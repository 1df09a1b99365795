; DXIL has no float atomicrmw, and integer atomics of 32 and 64 bits only:
; in a module whose triple is dxil, a float min/max atomicrmw of a type the
; pass does not lower (here a 128-bit <4 x float>), which elsewhere it leaves
; alone (untouched.ll), is reported and opt fails, as a half one is
; (dxil-error-rmw-f16.ll).
; REQUIRES: llvm-plugin
; RUN: not %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}lower-float-atomic-minmax: cannot lower atomicrmw fmin <4 x float>: DXIL has integer atomics of 32 and 64 bits only
; CHECK-NOT: error:

target triple = "dxil-pc-shadermodel6.6-compute"
@gs = internal addrspace(3) global [4 x float] zeroinitializer, align 16

define <4 x float> @main(<4 x float> %v) {
  %r = atomicrmw fmin ptr addrspace(3) @gs, <4 x float> %v monotonic, align 16
  ret <4 x float> %r
}
