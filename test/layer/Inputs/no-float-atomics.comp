#version 460
// Integer atomics and float arithmetic, no float atomic min/max.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint counter; float v[]; };
void main() {
  atomicAdd(counter, 1u);
  v[gl_GlobalInvocationID.x] = min(v[gl_GlobalInvocationID.x], 1.0);
}
