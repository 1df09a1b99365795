#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Bounds { float lo; float hi; } b;
layout(std430, set = 0, binding = 1) readonly buffer Values { float v[]; } vals;
void main() {
  float x = vals.v[gl_GlobalInvocationID.x];
  atomicMin(b.lo, x);
  atomicMax(b.hi, x);
}
