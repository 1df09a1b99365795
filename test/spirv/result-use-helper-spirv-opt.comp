// The helper-wrapped atomic after `spirv-opt -O`: the helper is inlined and
// the result is stored into the inliner's return variable, which nothing
// loads.  A dead store does not read the value: the unused form.
// RUN: %glslang --target-env vulkan1.2 -V %s -o %t.spv
// RUN: %spirv-opt -O %t.spv -o %t.opt.spv
// RUN: %spirv-dis %t.opt.spv | FileCheck --check-prefix=INPUT %s
// INPUT: %[[V:[0-9]+]] = OpVariable %_ptr_Function_float Function
// INPUT-NOT: OpLoad %float %[[V]]
// INPUT: %[[A:[0-9]+]] = OpAtomicFMaxEXT %float
// INPUT-NEXT: OpStore %[[V]] %[[A]]
// INPUT-NOT: %[[V]]
// INPUT: OpFunctionEnd
// RUN: %lower-and-check --env vulkan1.2 %t.opt.spv --lower-float-atomic-minmax | FileCheck %s
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
