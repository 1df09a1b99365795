// f16 float min/max: Vulkan has no 16-bit integer atomics, so it is an error
// unless the target runs it natively.
// RUN: %glslang --target-env vulkan1.2 -V %s -o %t.spv
// RUN: not %fatomic-opt %t.spv --lower-float-atomic-minmax -o %t.out.spv 2>&1 | FileCheck %s
// RUN: test ! -e %t.out.spv
// RUN: %fatomic-opt %t.spv --lower-float-atomic-minmax=native=shaderBufferFloat16AtomicMinMax -o %t.native.spv
// RUN: %validate vulkan1.2 %t.native.spv
// RUN: %spirv-dis %t.native.spv | FileCheck %s --check-prefix=NATIVE
#version 450
#extension GL_EXT_shader_atomic_float2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) buffer Dst { float16_t mn; } dst;
void main() { atomicMin(dst.mn, float16_t(1.0)); }
// CHECK: error: {{.*}}OpAtomicFMinEXT: 16-bit float atomic min/max is not supported yet
// NATIVE: OpCapability AtomicFloat16MinMaxEXT
// NATIVE: OpAtomicFMinEXT %half
