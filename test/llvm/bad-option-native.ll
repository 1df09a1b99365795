; native= describes Vulkan features: rejected by the LLVM pass.
; REQUIRES: llvm-plugin
; RUN: not %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax<native=shaderBufferFloat32AtomicMinMax>' -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: lower-float-atomic-minmax: option 'native' applies to the SPIR-V pass only
; CHECK: unknown {{.*}}pass{{.*}} 'lower-float-atomic-minmax<native=shaderBufferFloat32AtomicMinMax>'

define void @f() {
  ret void
}
