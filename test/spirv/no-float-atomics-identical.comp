// A module without float min/max atomics comes out bit-identical.
// RUN: %glslang --target-env vulkan1.2 -V %s -o %t.spv
// RUN: %fatomic-opt %t.spv --lower-float-atomic-minmax -o %t.out.spv
// RUN: cmp %t.spv %t.out.spv
#version 450
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Dst { uint mx; float f[]; } dst;
void main() { atomicMax(dst.mx, gl_GlobalInvocationID.x); dst.f[gl_GlobalInvocationID.x] = 1.0; }
