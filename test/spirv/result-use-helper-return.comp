// The atomic inside a helper that returns its value, the helper called as a
// statement: the result reaches only the helper's OpReturnValue and the
// call's result, which nothing reads, so the pass emits the unused form
// (the NaN fix-up decided from the early-out load, the integer atomics'
// results unused: drivers may use a reduction).
// RUN: %glslang --target-env vulkan1.2 -V %s -o %t.spv
// RUN: %spirv-dis %t.spv | FileCheck --check-prefix=INPUT %s
// INPUT: %[[A:[0-9]+]] = OpAtomicFMaxEXT %float
// INPUT-NEXT: OpReturnValue %[[A]]
// RUN: %lower-and-check --env vulkan1.2 %t.spv --lower-float-atomic-minmax | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Dst { float dst[]; };
float op(uint a, float v) { return atomicMax(dst[a], v); }
void main() {
  uint i = gl_GlobalInvocationID.x;
  op(i & 7u, float(i));
}
// CHECK: %[[L:[0-9]+]] = OpAtomicLoad %uint %[[P:[0-9]+]] %uint_1 %uint_0
// CHECK: OpBranchConditional %{{[0-9]+}} %{{[0-9]+}} %[[RMW:[0-9]+]]
// CHECK: %[[RMW]] = OpLabel
// The sticky-NaN test reads the early-out's load.
// CHECK-NEXT: OpBitwiseAnd %uint %[[L]] %uint_2147483648
// CHECK: OpAtomicCompareExchange %uint %[[P]]
// CHECK: %[[R1:[0-9]+]] = OpAtomicSMax %uint %[[P]] %uint_1 %uint_0
// CHECK: %[[R2:[0-9]+]] = OpAtomicUMin %uint %[[P]] %uint_1 %uint_0
// CHECK-NOT: %[[R1]]
// CHECK-NOT: %[[R2]]
// CHECK: OpFunctionEnd
