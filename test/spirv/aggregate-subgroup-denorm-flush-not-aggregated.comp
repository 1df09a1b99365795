// aggregate=subgroup leaves an atomic of a width the module flushes
// (DenormFlushToZero 32) to the per-invocation lowering: the subgroup keys
// would have to follow the flush.  The same shader without the execution
// mode is aggregated (its shape is that of aggregate-subgroup-constant-address.comp).
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax=aggregate=subgroup | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
#extension GL_EXT_spirv_intrinsics : require
spirv_execution_mode(4460, 32);
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Dst { float peak; } dst;
layout(std430, binding = 1) buffer Vals { float v[]; } vals;
spirv_instruction(extensions = ["SPV_KHR_float_controls"], capabilities = [4465], id = 0) void noop();
void main() {
  atomicMax(dst.peak, vals.v[gl_GlobalInvocationID.x]);
}
// CHECK: OpExecutionMode %main DenormFlushToZero 32
// CHECK-NOT: GroupNonUniform
// CHECK: OpAtomicSMax
// CHECK-NOT: GroupNonUniform
