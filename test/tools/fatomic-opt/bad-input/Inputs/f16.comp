#version 450
#extension GL_EXT_shader_atomic_float2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) buffer Dst { float16_t mn; } dst;
void main() { atomicMin(dst.mn, float16_t(1.0)); }
