// REQUIRES: lavapipe
// A shared float array with a native atomicAdd (the NVIDIA profile has
// shaderSharedFloat32AtomicAdd) and a lowered atomicMax on the same
// variable: the max's retype turns the array into integers, so the add
// becomes a compare-exchange loop of float adds on the integer view.  The
// lowered module runs on lavapipe without float atomics; sums, maxima and
// every returned value are checked (Inputs/shared_add_max_check.py).
// RUN: rm -rf %t && mkdir %t
// RUN: %glslang --target-env vulkan1.2 -V %s -o %t/in.spv
// RUN: %fatomic-opt %t/in.spv --target-env=vulkan1.2 --target-profile=%profiles/nvidia-h200.json --lower-float-atomic-minmax -o %t/low.spv
// RUN: %validate vulkan1.2 %t/low.spv
// RUN: %spirv-dis %t/low.spv | FileCheck %s
// RUN: %fatomic-opt %t/in.spv --target-env=vulkan1.2 --target-profile=%profiles/nvidia-h200.json --lower-float-atomic-minmax=outline=off -o %t/inline.spv
// RUN: %validate vulkan1.2 %t/inline.spv
// RUN: env VK_ICD_FILENAMES=%lavapipe-icd %python %S/Inputs/shared_add_max_check.py %fatomic-vkrun %t/low.spv %t/run | FileCheck --check-prefix=EXEC %s
// RUN: env VK_ICD_FILENAMES=%lavapipe-icd %python %S/Inputs/shared_add_max_check.py %fatomic-vkrun %t/inline.spv %t/run-inline | FileCheck --check-prefix=EXEC %s
#version 450
#extension GL_EXT_shader_atomic_float : require
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Vals { float vals[]; };
layout(std430, set = 0, binding = 1) buffer RAdd { float radd[]; };
layout(std430, set = 0, binding = 2) buffer RMax { float rmax[]; };
layout(std430, set = 0, binding = 3) buffer Out { float outv[]; };
shared float s[2];
void main() {
  if (gl_LocalInvocationID.x == 0u) { s[0] = 0.0; s[1] = -1.0 / 0.0; }
  barrier();
  uint i = gl_GlobalInvocationID.x;
  float v = vals[i];
  radd[i] = atomicAdd(s[0], v);
  rmax[i] = atomicMax(s[1], v);
  barrier();
  if (gl_LocalInvocationID.x == 0u) {
    outv[2u * gl_WorkGroupID.x] = s[0];
    outv[2u * gl_WorkGroupID.x + 1u] = s[1];
  }
}
// No float add is left, nor its capability and extension.
// CHECK-NOT: AtomicFloat32AddEXT
// CHECK-NOT: SPV_EXT_shader_atomic_float_add
// CHECK-NOT: OpAtomicF{{Add|Min|Max}}EXT
// CHECK: %s = OpVariable %_ptr_Workgroup__arr_uint_uint_2 Workgroup
// CHECK: OpLoopMerge
// CHECK: OpFAdd %float
// CHECK: OpAtomicCompareExchange %uint
// CHECK: OpAtomicSMax %uint
// EXEC-NOT: error
// EXEC: ok: 16 groups
