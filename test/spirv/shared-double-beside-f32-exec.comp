// REQUIRES: lavapipe
// A shared struct whose float member holds an atomicMax and whose double
// members hold plain values.  The retype turns only floats of the sites'
// width (32) into integers: the doubles keep their type, and the module
// needs no 64-bit integers (before, they became ulong, the module lacked
// Int64, and the pass refused its own invalid output).  Run on lavapipe
// without float atomics and checked (Inputs/shared_double_check.py).
// RUN: rm -rf %t && mkdir %t
// RUN: %glslang --target-env vulkan1.2 -V %s -o %t/in.spv
// RUN: %fatomic-opt %t/in.spv --target-env=vulkan1.2 --lower-float-atomic-minmax -o %t/low.spv
// RUN: %validate vulkan1.2 %t/low.spv
// RUN: %spirv-dis %t/low.spv | FileCheck %s
// RUN: env VK_ICD_FILENAMES=%lavapipe-icd %python %S/Inputs/shared_double_check.py %fatomic-vkrun %t/low.spv %t/run | FileCheck --check-prefix=EXEC %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer Vals { float vals[]; };
layout(std430, set = 0, binding = 1) buffer Out { float outv[]; };
struct S { float peak; double scaled[4]; };
shared S s;
void main() {
  uint lid = gl_LocalInvocationID.x;
  float v = vals[gl_GlobalInvocationID.x];
  if (lid == 0u)
    s.peak = -1.0 / 0.0;
  if (lid < 4u)
    s.scaled[lid] = double(v) * 3.0lf;
  barrier();
  atomicMax(s.peak, v);
  barrier();
  outv[gl_GlobalInvocationID.x] = float(s.scaled[lid % 4u] / 3.0lf);
  if (lid == 0u)
    outv[gl_NumWorkGroups.x * 64u + gl_WorkGroupID.x] = s.peak;
}
// CHECK-NOT: OpCapability Int64
// CHECK: %[[S:[_a-z0-9]+]] = OpTypeStruct %uint %_arr_double_uint_4
// CHECK: %s = OpVariable %_ptr_Workgroup_[[S]] Workgroup
// CHECK: OpAtomicSMax %uint
// CHECK-NOT: OpAtomicFMaxEXT
// EXEC-NOT: error
// EXEC: ok: 512 invocations, 8 groups
