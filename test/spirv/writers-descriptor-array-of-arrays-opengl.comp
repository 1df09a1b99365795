// OpenGL allows arrays of arrays of buffer blocks (Vulkan does not): every
// array level above the block indexes a descriptor, and two descriptors may
// name one buffer.  The exchange through bufs[0][1] may then write the
// memory of the atomic on bufs[0][0]: no proof, so under nan=propagate the
// compare-exchange form (not one sign-dispatched integer atomic, which a
// negative NaN stored between the early-out load and the atomic would not
// stop) and no bound cache (no Private variable).  Before, the inner index
// was taken as an offset into one buffer and the two called apart; a
// one-dimensional array (bufs[1] and bufs[0]) was already right.
// RUN: %glslang -G --target-env opengl %s -o %t.spv
// RUN: %lower-and-check --env opengl4.5 %t.spv --target-env=opengl4.5 \
// RUN:   --lower-float-atomic-minmax=nan=propagate,outline=off | FileCheck %s
// RUN: %lower-and-check --env opengl4.5 %t.spv --target-env=opengl4.5 \
// RUN:   --lower-float-atomic-minmax | FileCheck --check-prefix=NUMBER %s
// CHECK-NOT: Private
// CHECK: OpAtomicExchange
// CHECK: OpAtomicCompareExchange
// NUMBER-NOT: Private
// NUMBER: OpAtomicSMax
#version 450
#extension GL_EXT_shader_atomic_float2 : require
#extension GL_EXT_shader_atomic_float : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Dst { float x; } bufs[2][2];
layout(std430, binding = 4) buffer Out { float o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i == 0u)
    o[1] = atomicExchange(bufs[0][1].x, uintBitsToFloat(0xffc00000u));
  else
    atomicMax(bufs[0][0].x, o[i]);
}
