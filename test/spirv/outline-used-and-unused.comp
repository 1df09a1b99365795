// Outlining: two atomics of the same buffer, scope and semantics, one with
// its result used and one without, are two kinds (the unused one decides
// the NaN fix-up from the early-out load and returns no atomic's result),
// so each gets its own helper function.
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Dst { float mx[]; } dst;
layout(std430, set = 0, binding = 1) buffer Out { float o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  atomicMax(dst.mx[i & 7u], float(i));
  o[i] = atomicMax(dst.mx[(i + 1u) & 7u], float(i));
}
// CHECK: OpFunctionCall %float %[[H1:[0-9]+]]
// CHECK: OpFunctionCall %float %[[H2:[0-9]+]]
// CHECK: %[[H1]] = OpFunction %float Inline
// CHECK: %[[H2]] = OpFunction %float Inline
