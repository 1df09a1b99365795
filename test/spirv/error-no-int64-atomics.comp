// An f64 atomic needs 64-bit integer atomics: a target profile that lacks
// them makes the lowering an error.
// RUN: %glslang --target-env vulkan1.2 -V %s -o %t.spv
// RUN: echo '{"capabilities":{"device":{"features":{"VkPhysicalDeviceVulkan12Features":{"shaderBufferInt64Atomics":false,"shaderSharedInt64Atomics":false}}}}}' > %t.json
// RUN: not %fatomic-opt %t.spv --target-profile=%t.json --lower-float-atomic-minmax -o %t.out.spv 2>&1 | FileCheck %s
// RUN: test ! -e %t.out.spv
#version 450
#extension GL_EXT_shader_atomic_float2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float64 : require
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) buffer Dst { double d; } dst;
void main() { atomicMax(dst.d, 1.0lf); }
// CHECK: error: {{.*}}needs 64-bit integer atomics, which the target ({{.*}}.json) does not support
