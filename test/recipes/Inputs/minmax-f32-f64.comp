#version 450
#extension GL_EXT_shader_atomic_float2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float64 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Bounds { float lo; double hi; } b;
layout(std430, set = 0, binding = 1) readonly buffer Values { float v[]; } vals;
shared float groupMax;
void main() {
  float x = vals.v[gl_GlobalInvocationID.x];
  atomicMax(groupMax, x);
  barrier();
  atomicMin(b.lo, x);
  if (gl_LocalInvocationIndex == 0) atomicMax(b.hi, double(groupMax));
}
