#version 450
#extension GL_EXT_shader_atomic_float2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float64 : require
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) buffer Dst { double d; } dst;
void main() { atomicMax(dst.d, 1.0lf); }
