// A constant address (no index to compare: only the bound) in a SPIR-V 1.0
// module, whose entry point lists only inputs and outputs: the bound is
// not added to the interface.  atomicMin: the bound starts at all ones
// and an operand not below it is skipped.
// RUN: %lower-and-check --env vulkan1.0 %s --lower-float-atomic-minmax | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Dst { float lo; } dst;
layout(std430, set = 0, binding = 1) readonly buffer Vals { float v[]; } vals;
void main() {
  uint i = gl_GlobalInvocationID.x;
  for (uint k = 0u; k < 64u; ++k)
    atomicMin(dst.lo, vals.v[i * 64u + k]);
}
// CHECK: OpEntryPoint GLCompute %main "main" %gl_GlobalInvocationID{{$}}
// CHECK: %[[BOUND:[0-9]+]] = OpVariable %_ptr_Private_uint Private %uint_4294967295
// CHECK-NOT: OpVariable %_ptr_Private
// CHECK: OpFunction %float Inline
// CHECK-NOT: OpIEqual
// CHECK: %[[B:[0-9]+]] = OpLoad %uint %[[BOUND]]
// CHECK: %[[HIT:[0-9]+]] = OpUGreaterThanEqual %bool %{{[0-9]+}} %[[B]]
// CHECK-NEXT: OpSelectionMerge
// CHECK-NEXT: OpBranchConditional %[[HIT]]
// CHECK: OpStore %[[BOUND]]
// CHECK: OpFunctionEnd
