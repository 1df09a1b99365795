// REQUIRES: lavapipe
// The shared maximum is reset to -inf at the start of each of two phases,
// inside the loop over the phases: the reset also comes after the first
// phase's atomics (a path leads from them back to it), so it does not
// happen before every atomic, and the atomics get no writer proof: no bound
// cache (whose bound from the first phase would skip the second phase's
// smaller operands) and the NaN fix-up decided from the integer atomic's
// result.  Each phase's maxima are checked on lavapipe
// (Inputs/shared_init_max_check.py).
// RUN: rm -rf %t && mkdir %t
// RUN: %glslang --target-env vulkan1.2 -V %s -o %t/in.spv
// RUN: %fatomic-opt %t/in.spv --target-env=vulkan1.2 --lower-float-atomic-minmax -o %t/number.spv
// RUN: %validate vulkan1.2 %t/number.spv
// RUN: %spirv-dis %t/number.spv | FileCheck %s
// RUN: env VK_ICD_FILENAMES=%lavapipe-icd %python %S/Inputs/shared_init_max_check.py %fatomic-vkrun %t/number.spv %t/run 2 number | FileCheck --check-prefix=EXEC %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer Vals { float vals[]; };
layout(std430, set = 0, binding = 1) buffer Out { float outv[]; };
shared float m;
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint n = gl_NumWorkGroups.x * 64u;
  for (uint p = 0u; p < 2u; ++p) {
    if (gl_LocalInvocationID.x == 0u)
      m = -1.0 / 0.0;
    barrier();
    for (uint k = 0u; k < 16u; ++k)
      atomicMax(m, vals[(p * n + i) * 16u + k]);
    barrier();
    if (gl_LocalInvocationID.x == 0u)
      outv[p * gl_NumWorkGroups.x + gl_WorkGroupID.x] = m;
    barrier();
  }
}
// CHECK-NOT: Private
// CHECK: %[[R1:[0-9]+]] = OpAtomicSMax %uint
// CHECK: %[[R2:[0-9]+]] = OpAtomicUMin %uint
// CHECK: %[[OLD:[0-9]+]] = OpPhi %uint %[[R1]] %{{[0-9]+}} %[[R2]] %{{[0-9]+}}
// CHECK-NEXT: OpBitwiseAnd %uint %[[OLD]] %uint_2147483648
// EXEC-NOT: error
// EXEC: ok: 2 phases x 16 groups
