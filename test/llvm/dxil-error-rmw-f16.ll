; DXIL has no 16-bit integer atomics: in a module whose triple is dxil, a
; groupshared half atomicrmw (which would become an i16 atomicrmw) is
; reported and opt fails.  On other targets it is lowered (f16.ll).
; REQUIRES: llvm-plugin
; RUN: not %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}lower-float-atomic-minmax: cannot lower atomicrmw fmin half: DXIL has integer atomics of 32 and 64 bits only

target triple = "dxil-pc-shadermodel6.6-compute"
@gs = internal addrspace(3) global half 0.0, align 2

define half @main(half %v) {
  %r = atomicrmw fmin ptr addrspace(3) @gs, half %v seq_cst, align 2
  ret half %r
}
