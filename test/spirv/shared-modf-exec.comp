// REQUIRES: lavapipe
// modf(v, whole[lid]) on a shared float array that atomicMax also writes:
// the retype makes the array integers, and GLSL.std.450 Modf, which writes
// the whole part through its pointer, becomes ModfStruct, the fractional
// part as its result and the whole part stored converted (before, the pass
// refused the module).  Run on lavapipe without float atomics and checked
// (Inputs/shared_modf_check.py).
// RUN: rm -rf %t && mkdir %t
// RUN: %glslang --target-env vulkan1.2 -V %s -o %t/in.spv
// RUN: %fatomic-opt %t/in.spv --target-env=vulkan1.2 --lower-float-atomic-minmax -o %t/low.spv
// RUN: %validate vulkan1.2 %t/low.spv
// RUN: %spirv-dis %t/low.spv | FileCheck %s
// RUN: env VK_ICD_FILENAMES=%lavapipe-icd %python %S/Inputs/shared_modf_check.py %fatomic-vkrun %t/low.spv %t/run | FileCheck --check-prefix=EXEC %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer Vals { float vals[]; };
layout(std430, set = 0, binding = 1) buffer Out { float outv[]; };
shared float whole[64];
shared float peak;
void main() {
  uint lid = gl_LocalInvocationID.x;
  if (lid == 0u)
    peak = -1.0 / 0.0;
  float frac = modf(vals[gl_GlobalInvocationID.x], whole[lid]);
  barrier();
  atomicMax(peak, frac + whole[lid]);
  atomicMax(whole[lid], 0.0);
  barrier();
  outv[gl_GlobalInvocationID.x] = whole[lid];
  if (lid == 0u)
    outv[gl_NumWorkGroups.x * 64u + gl_WorkGroupID.x] = peak;
}
// CHECK: %whole = OpVariable %_ptr_Workgroup__arr_uint_uint_64 Workgroup
// CHECK: %[[BOTH:[0-9]+]] = OpExtInst %[[S:[_a-z0-9]+]] %{{[0-9]+}} ModfStruct
// CHECK-NEXT: %[[W:[0-9]+]] = OpCompositeExtract %float %[[BOTH]] 1
// CHECK-NEXT: %[[B:[0-9]+]] = OpBitcast %uint %[[W]]
// CHECK-NEXT: OpStore %{{[0-9]+}} %[[B]]
// CHECK-NEXT: %{{[0-9a-z_]+}} = OpCompositeExtract %float %[[BOTH]] 0
// CHECK-NOT: {{ Modf }}
// EXEC-NOT: error
// EXEC: ok: 512 invocations, 8 groups
