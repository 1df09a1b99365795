// REQUIRES: lavapipe
// A shared struct with an f32 atomicMax and a dmat2: only floats of the
// atomic's width are retyped, so the double matrix keeps its type and the
// variable is retyped (before, any matrix in the variable was refused; an
// f32 matrix still is: test/tools/fatomic-opt/bad-input/workgroup-matrix.test).
// Run on lavapipe without float atomics: out = (63, 2, 3).
// RUN: rm -rf %t && mkdir %t
// RUN: %glslang --target-env vulkan1.2 -V %s -o %t/in.spv
// RUN: %fatomic-opt %t/in.spv --target-env=vulkan1.2 --lower-float-atomic-minmax -o %t/low.spv
// RUN: %validate vulkan1.2 %t/low.spv
// RUN: %spirv-dis %t/low.spv | FileCheck %s
// RUN: env VK_ICD_FILENAMES=%lavapipe-icd %python %S/Inputs/vkrun_floats.py %fatomic-vkrun %t/low.spv %t/run 3 | FileCheck --check-prefix=EXEC %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Out { float o[]; };
struct S { float peak; dmat2 m; };
shared S s;
void main() {
  uint i = gl_LocalInvocationID.x;
  if (i == 0u) {
    s.peak = -1.0;
    s.m = dmat2(2.0, 0.0, 0.0, 3.0);
  }
  barrier();
  atomicMax(s.peak, float(i));
  barrier();
  if (i == 0u) {
    o[0] = s.peak;
    o[1] = float(s.m[0][0]);
    o[2] = float(s.m[1][1]);
  }
}
// CHECK-NOT: OpCapability Int64
// CHECK: %{{[_a-z0-9]+}} = OpTypeStruct %uint %mat2v2double
// CHECK: OpAtomicSMax %uint
// CHECK-NOT: OpAtomicFMaxEXT
// EXEC: 63 2 3
