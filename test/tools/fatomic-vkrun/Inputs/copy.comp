#version 450
// a[0] = a[1]: the smallest job that shows a run happened.
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer A { uint a[]; };
void main() { a[0] = a[1]; }
