// An r32f image atomic has no legal integer alias: without images=retype it
// is an error naming the instruction, exit 1, and no output file.
// RUN: %glslang --target-env vulkan1.2 -V %s -o %t.spv
// RUN: rm -f %t.out.spv
// RUN: not %fatomic-opt %t.spv --lower-float-atomic-minmax -o %t.out.spv 2>&1 | FileCheck %s
// RUN: test ! -e %t.out.spv
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, r32f) uniform image2D img;
void main() { imageAtomicMax(img, ivec2(gl_GlobalInvocationID.xy), 1.0); }
// CHECK: error: {{.*}}OpAtomicFMaxEXT: float min/max on a storage image has no legal integer alias
// CHECK-SAME: images=retype
