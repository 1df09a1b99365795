// aggregate=auto aggregates a 64-bit atomic only where the target has
// shaderSubgroupExtendedTypes (64-bit subgroup operands): with the bundled
// NVIDIA profile both widths are aggregated; with shaderSubgroupExtendedTypes
// false only the 32-bit one is.  The profile's driverID is another driver's,
// so that the f32 atomic is not left to the driver
// (aggregate-auto-left-to-driver.comp).
// RUN: sed 's/VK_DRIVER_ID_NVIDIA_PROPRIETARY/VK_DRIVER_ID_MESA_NVK/' %profiles/nvidia-h200.json > %t.nvk.json
// RUN: %lower-and-check --env vulkan1.2 %s --target-profile=%t.nvk.json --lower-float-atomic-minmax | FileCheck --check-prefix=BOTH %s
// RUN: sed 's/"shaderSubgroupExtendedTypes": true/"shaderSubgroupExtendedTypes": false/' %t.nvk.json > %t.json
// RUN: %lower-and-check --env vulkan1.2 %s --target-profile=%t.json --lower-float-atomic-minmax | FileCheck --check-prefix=F32 %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float64 : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Dst { float x[]; } dst;
layout(std430, binding = 2) buffer Dst64 { double d[]; } dst64;
layout(std430, binding = 1) buffer Vals { float v[]; } vals;
void main() {
  uint i = gl_GlobalInvocationID.x;
  atomicMax(dst.x[i / 64u], vals.v[i]);
  atomicMax(dst64.d[i / 64u], double(vals.v[i]));
}
// The 64-bit key is reduced as two 32-bit halves (the high halves, then
// the low halves of the invocations that hold the top high half).
// BOTH: OpGroupNonUniformUMax %uint %uint_3 Reduce
// BOTH: %[[HI:[0-9]+]] = OpUConvert %uint %{{[0-9]+}}
// BOTH-NEXT: %[[LO:[0-9]+]] = OpUConvert %uint %[[KEY:[0-9]+]]
// BOTH-NEXT: %[[TOPHI:[0-9]+]] = OpGroupNonUniformUMax %uint %uint_3 Reduce %[[HI]]
// BOTH-NEXT: %[[SAME:[0-9]+]] = OpIEqual %bool %[[HI]] %[[TOPHI]]
// BOTH-NEXT: %[[LOKEY:[0-9]+]] = OpSelect %uint %[[SAME]] %[[LO]] %uint_0
// BOTH-NEXT: %[[TOPLO:[0-9]+]] = OpGroupNonUniformUMax %uint %uint_3 Reduce %[[LOKEY]]
// BOTH-NOT: OpGroupNonUniformUMax %ulong
// F32: OpGroupNonUniformUMin %uint %uint_3 Reduce %[[IDX:[0-9]+]]
// F32-NEXT: OpGroupNonUniformUMax %uint %uint_3 Reduce %[[IDX]]
// F32: OpGroupNonUniformUMax %uint %uint_3 Reduce
// F32-NOT: OpGroupNonUniformUMax
