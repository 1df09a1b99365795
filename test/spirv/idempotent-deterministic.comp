// Running the pass twice changes nothing the second time, and two runs give
// the same bytes.
// RUN: %glslang --target-env vulkan1.2 -V %s -o %t.spv
// RUN: %fatomic-opt %t.spv --lower-float-atomic-minmax -o %t.1.spv
// RUN: %fatomic-opt %t.1.spv --lower-float-atomic-minmax -o %t.2.spv
// RUN: cmp %t.1.spv %t.2.spv
// RUN: %fatomic-opt %t.spv --lower-float-atomic-minmax -o %t.3.spv
// RUN: cmp %t.1.spv %t.3.spv
// RUN: %validate vulkan1.2 %t.1.spv
// The first run did lower: no float atomic is left, the min and both max
// run on the integer view.
// RUN: %spirv-dis %t.1.spv | FileCheck %s \
// RUN:   --implicit-check-not=OpAtomicFMinEXT --implicit-check-not=OpAtomicFMaxEXT
// CHECK: {{^ *}}%{{[0-9]+}} = OpAtomicSMin %uint
// CHECK: {{^ *}}%{{[0-9]+}} = OpAtomicSMax %uint
// CHECK: {{^ *}}%{{[0-9]+}} = OpAtomicSMax %uint
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Dst { float mn; float mx; } dst;
shared float s;
void main() {
  float v = float(gl_GlobalInvocationID.x);
  atomicMin(dst.mn, v);
  atomicMax(s, v);
  barrier();
  atomicMax(dst.mx, s);
}
