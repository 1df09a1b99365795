// REQUIRES: lavapipe
// The usual workgroup reduction: invocation 0 sets the shared maximum to
// -inf, a barrier, then every invocation's atomicMax.  The store of a
// constant without NaNs happens before every atomic in every invocation
// (lib/SPIRV/BarrierOrder.h), so it leaves the atomics the writer proof:
// the bound cache's Private variables are made and the NaN fix-up is decided
// from the early-out's load (no integer atomic's result is read); under
// nan=propagate the single integer atomic is used, no compare-exchange
// loop.  Both run on lavapipe without float atomics, NaNs and zeros among
// the operands (Inputs/shared_init_max_check.py).
// RUN: rm -rf %t && mkdir %t
// RUN: %glslang --target-env vulkan1.2 -V %s -o %t/in.spv
// RUN: %fatomic-opt %t/in.spv --target-env=vulkan1.2 --lower-float-atomic-minmax -o %t/number.spv
// RUN: %validate vulkan1.2 %t/number.spv
// RUN: %spirv-dis %t/number.spv | FileCheck --check-prefix=NUMBER %s
// RUN: %fatomic-opt %t/in.spv --target-env=vulkan1.2 --lower-float-atomic-minmax=nan=propagate -o %t/propagate.spv
// RUN: %validate vulkan1.2 %t/propagate.spv
// RUN: %spirv-dis %t/propagate.spv | FileCheck --check-prefix=PROPAGATE %s
// RUN: env VK_ICD_FILENAMES=%lavapipe-icd %python %S/Inputs/shared_init_max_check.py %fatomic-vkrun %t/number.spv %t/run-number 1 number | FileCheck --check-prefix=EXEC %s
// RUN: env VK_ICD_FILENAMES=%lavapipe-icd %python %S/Inputs/shared_init_max_check.py %fatomic-vkrun %t/propagate.spv %t/run-propagate 1 propagate | FileCheck --check-prefix=EXEC %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer Vals { float vals[]; };
layout(std430, set = 0, binding = 1) buffer Out { float outv[]; };
shared float m;
void main() {
  if (gl_LocalInvocationID.x == 0u)
    m = -1.0 / 0.0;
  barrier();
  uint i = gl_GlobalInvocationID.x;
  for (uint k = 0u; k < 16u; ++k)
    atomicMax(m, vals[i * 16u + k]);
  barrier();
  if (gl_LocalInvocationID.x == 0u)
    outv[gl_WorkGroupID.x] = m;
}
// NUMBER: %m = OpVariable %_ptr_Workgroup_uint Workgroup
// NUMBER: %[[BOUND:[0-9]+]] = OpVariable %_ptr_Private_uint Private %uint_0
// NUMBER: OpStore %m
// NUMBER: OpControlBarrier %uint_2 %uint_2 %uint_264
// NUMBER: OpLoad %uint %[[BOUND]]
// NUMBER: %[[L:[0-9]+]] = OpAtomicLoad %uint %[[P:[0-9]+]] %uint_1 %uint_0
// NUMBER: %[[R1:[0-9]+]] = OpAtomicSMax %uint %[[P]] %uint_1 %uint_0
// NUMBER: %[[R2:[0-9]+]] = OpAtomicUMin %uint %[[P]] %uint_1 %uint_0
// NUMBER-NOT: %[[R1]]
// NUMBER-NOT: %[[R2]]
// NUMBER: OpStore %[[BOUND]]
// PROPAGATE-NOT: OpAtomicCompareExchange
// PROPAGATE: OpAtomicSMax %uint
// PROPAGATE-NOT: OpAtomicCompareExchange
// EXEC-NOT: error
// EXEC: ok: 1 phases x 16 groups
