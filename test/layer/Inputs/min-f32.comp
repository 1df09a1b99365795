#version 460
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { float v[]; };
void main() { atomicMin(v[0], v[gl_GlobalInvocationID.x + 1u]); }
