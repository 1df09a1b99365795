; Logical SPIR-V (the spirv triple, as for Vulkan) cannot read float memory
; as integers: no pointer casts, and a buffer's type is its memory's type.
; The pass reports the atomic instead of handing llc integer accesses it
; cannot compile (llc crashed on them), in the function form too.  The
; advice works: without the pass llc emits OpAtomicFMaxEXT, and fatomic-opt
; lowers that module into one valid for Vulkan 1.3.
; REQUIRES: llvm-plugin, fatomic-opt
; RUN: not %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -disable-output %s 2>&1 | FileCheck %s
; RUN: not %opt -load-pass-plugin=%fatomic_plugin -passes='function(lower-float-atomic-minmax)' -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}lower-float-atomic-minmax: cannot lower atomicrmw fmax float in logical SPIR-V (a pointer cannot read float memory as integers); compile the module to SPIR-V without this pass, then lower it with fatomic-opt --lower-float-atomic-minmax
; CHECK-NOT: error:
; RUN: %llc --spirv-ext=+SPV_EXT_shader_atomic_float_min_max -filetype=obj %s -o %t.spv
; RUN: %spirv-dis %t.spv | FileCheck --check-prefix=NATIVE %s
; NATIVE: OpAtomicFMaxEXT
; RUN: %lower-and-check --env vulkan1.3 %t.spv --lower-float-atomic-minmax | FileCheck --check-prefix=LOWERED %s
; LOWERED-NOT: OpAtomicFMaxEXT
; LOWERED: OpAtomicSMax

target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64-G10"
target triple = "spirv1.6-unknown-vulkan1.3-compute"

@.str = private unnamed_addr constant [4 x i8] c"Buf\00", align 1

define void @main() #0 {
entry:
  %h = tail call target("spirv.VulkanBuffer", [0 x float], 12, 1) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0f32_12_1t(i32 0, i32 1, i32 1, i32 0, ptr nonnull @.str)
  %id = call i32 @llvm.spv.thread.id.i32(i32 0)
  %f = uitofp i32 %id to float
  %p = tail call noundef align 4 dereferenceable(4) ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0f32_12_1t(target("spirv.VulkanBuffer", [0 x float], 12, 1) %h, i32 0)
  %r = atomicrmw fmax ptr addrspace(11) %p, float %f syncscope("device") monotonic
  %q = tail call noundef align 4 dereferenceable(4) ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0f32_12_1t(target("spirv.VulkanBuffer", [0 x float], 12, 1) %h, i32 %id)
  store float %r, ptr addrspace(11) %q
  ret void
}
declare i32 @llvm.spv.thread.id.i32(i32)
declare target("spirv.VulkanBuffer", [0 x float], 12, 1) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0f32_12_1t(i32, i32, i32, i32, ptr)
declare ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0f32_12_1t(target("spirv.VulkanBuffer", [0 x float], 12, 1), i32)
attributes #0 = { "hlsl.numthreads"="64,1,1" "hlsl.shader"="compute" }
