// What aggregate=auto leaves to NVIDIA's proprietary driver is only an
// unused 32-bit atomic on buffer memory (aggregate-auto-left-to-driver.comp):
// with the bundled NVIDIA profile a used f32 result, an unused f64 one and
// an unused f32 one on Workgroup memory are still aggregated, the unused
// f32 buffer atomic beside them is not.
// RUN: %lower-and-check --env vulkan1.2 %s --target-profile=%profiles/nvidia-h200.json --lower-float-atomic-minmax | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float64 : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Dst { float x[]; } dst;
layout(std430, binding = 1) buffer Vals { float v[]; } vals;
layout(std430, binding = 2) buffer Dst64 { double d[]; } dst64;
layout(std430, binding = 3) buffer Out { float r[]; } res;
layout(std430, binding = 4) buffer Kept { float k[]; } kept;
shared float wg[4];
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < 4u)
    wg[i] = 0.0;
  barrier();
  res.r[i] = atomicMax(dst.x[i / 64u], vals.v[i]);
  atomicMax(dst64.d[i / 64u], double(vals.v[i]));
  atomicMax(wg[i / 64u % 4u], vals.v[i]);
  atomicMax(kept.k[i / 64u], vals.v[i]);
}
// Each aggregated atomic tests its index's uniformity (a UMin and a UMax
// of it) and elects one invocation; the unused f32 buffer atomic does not.
// CHECK-COUNT-3: OpGroupNonUniformElect %bool %uint_3
// CHECK-NOT: OpGroupNonUniformElect
