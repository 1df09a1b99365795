// Max/min luminance and the bounding box of bright pixels of an HDR image:
// the kind of reduction that needs float atomic min/max.  Each workgroup
// reduces in shared memory first, then one invocation per workgroup merges
// into the global result with SSBO atomics.
#version 450
#extension GL_EXT_shader_atomic_float2 : require

layout(local_size_x = 16, local_size_y = 16) in;

layout(set = 0, binding = 0, rgba16f) uniform readonly image2D hdr;
layout(std430, set = 0, binding = 1) buffer Result {
  float minLuminance;
  float maxLuminance;
  vec2 brightMin; // bounding box of pixels above the threshold
  vec2 brightMax;
} result;
layout(push_constant) uniform Params { float threshold; } params;

shared float groupMin;
shared float groupMax;

void main() {
  if (gl_LocalInvocationIndex == 0u) {
    groupMin = 1.0 / 0.0;
    groupMax = -1.0 / 0.0;
  }
  barrier();

  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (all(lessThan(p, imageSize(hdr)))) {
    vec3 c = imageLoad(hdr, p).rgb;
    float l = dot(c, vec3(0.2126, 0.7152, 0.0722));
    atomicMin(groupMin, l);
    atomicMax(groupMax, l);
    if (l > params.threshold) {
      atomicMin(result.brightMin.x, float(p.x));
      atomicMin(result.brightMin.y, float(p.y));
      atomicMax(result.brightMax.x, float(p.x));
      atomicMax(result.brightMax.y, float(p.y));
    }
  }
  barrier();

  if (gl_LocalInvocationIndex == 0u) {
    atomicMin(result.minLuminance, groupMin);
    atomicMax(result.maxLuminance, groupMax);
  }
}
