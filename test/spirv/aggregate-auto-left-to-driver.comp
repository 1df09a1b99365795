// aggregate=auto leaves an unused 32-bit atomic on buffer memory behind the
// bound cache to a driver that combines such atomics across the subgroup
// itself: the bundled NVIDIA profile's driverID is
// VK_DRIVER_ID_NVIDIA_PROPRIETARY, and the atomic below keeps the
// per-invocation lowering with its cache.  It is aggregated where the driver
// is another one, where the cache does not apply (cache=off; writers=any,
// where the cheaper forms that the cache needs are not proven), and with
// aggregate=subgroup, which asks for it.
// RUN: %lower-and-check --env vulkan1.2 %s --target-profile=%profiles/nvidia-h200.json --lower-float-atomic-minmax | FileCheck --check-prefix=ONE %s
// RUN: sed 's/VK_DRIVER_ID_NVIDIA_PROPRIETARY/VK_DRIVER_ID_MESA_NVK/' %profiles/nvidia-h200.json > %t.nvk.json
// RUN: %lower-and-check --env vulkan1.2 %s --target-profile=%t.nvk.json --lower-float-atomic-minmax | FileCheck --check-prefix=AGG %s
// RUN: %lower-and-check --env vulkan1.2 %s --target-profile=%profiles/nvidia-h200.json --lower-float-atomic-minmax=cache=off | FileCheck --check-prefix=AGG %s
// RUN: %lower-and-check --env vulkan1.2 %s --target-profile=%profiles/nvidia-h200.json --lower-float-atomic-minmax=writers=any | FileCheck --check-prefix=AGG %s
// RUN: %lower-and-check --env vulkan1.2 %s --target-profile=%profiles/nvidia-h200.json --lower-float-atomic-minmax=aggregate=subgroup | FileCheck --check-prefix=AGG %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Dst { float x[]; } dst;
layout(std430, binding = 1) buffer Vals { float v[]; } vals;
void main() {
  uint i = gl_GlobalInvocationID.x;
  atomicMax(dst.x[i / 64u], vals.v[i]);
}
// The per-invocation form: the cache's Private bound, its test, the
// early-out's load and the integer atomic, and no group operation.
// ONE-NOT: GroupNonUniform
// ONE: OpVariable %_ptr_Private_uint Private
// ONE: OpULessThanEqual %bool
// ONE: OpAtomicLoad %uint
// ONE: OpAtomicSMax %uint
// ONE-NOT: GroupNonUniform
// AGG: OpCapability GroupNonUniformArithmetic
// AGG: OpGroupNonUniformUMin %uint %uint_3 Reduce
// AGG: OpGroupNonUniformUMax %uint %uint_3 Reduce
// AGG: OpGroupNonUniformUMax %uint %uint_3 Reduce
// AGG: OpGroupNonUniformElect %bool %uint_3
