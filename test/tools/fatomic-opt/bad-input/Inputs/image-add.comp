#version 450
#extension GL_EXT_shader_atomic_float : require
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, r32f) uniform image2D img;
void main() {
  imageAtomicMax(img, ivec2(gl_GlobalInvocationID.xy), 1.0);
  imageAtomicAdd(img, ivec2(gl_GlobalInvocationID.yx), 2.0);
}
