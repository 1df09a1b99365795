// The result stored into a local variable that is never read: glslang
// stores it into a Function variable with no load.  A dead store does not
// read the value: the unused form.
// RUN: %glslang --target-env vulkan1.2 -V %s -o %t.spv
// RUN: %spirv-dis %t.spv | FileCheck --check-prefix=INPUT %s
// INPUT: %r = OpVariable %_ptr_Function_float Function
// INPUT: %[[A:[0-9]+]] = OpAtomicFMaxEXT %float
// INPUT-NEXT: OpStore %r %[[A]]
// INPUT-NOT: %r
// INPUT: OpFunctionEnd
// RUN: %lower-and-check --env vulkan1.2 %t.spv --lower-float-atomic-minmax | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Dst { float dst[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  float r = atomicMax(dst[i & 7u], float(i));
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
