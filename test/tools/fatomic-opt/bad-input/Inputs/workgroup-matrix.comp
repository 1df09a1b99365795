#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
struct S { mat2 m; float lo; };
shared S s;
layout(std430, set = 0, binding = 0) buffer Out { float o; } outb;
void main() {
  if (gl_LocalInvocationIndex == 0u) { s.m = mat2(1.0); s.lo = 1.0; }
  barrier();
  atomicMin(s.lo, float(gl_LocalInvocationIndex));
  barrier();
  if (gl_LocalInvocationIndex == 0u) outb.o = s.lo + s.m[1][1];
}
