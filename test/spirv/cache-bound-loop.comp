// cache=on (the default): a loop of atomicMax with the result unused, on a
// buffer that only lowered max atomics write.  Each invocation keeps, in
// Private variables, the index it last used and a bound its memory has
// reached (U order, initially 0: nothing but a no-op skipped); an operand
// not past the bound at the same index skips the early-out's atomic load
// and the integer atomic.  After the lowered atomic, the index and the new
// bound (U of the early-out's load; a NaN under `number`, which the first
// number replaces, gives the identity) are stored.  SPIR-V 1.5: the
// variables are in the entry point's interface.
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Dst { float x[]; } dst;
layout(std430, set = 0, binding = 1) readonly buffer Vals { float v[]; } vals;
void main() {
  uint i = gl_GlobalInvocationID.x;
  for (uint k = 0u; k < 64u; ++k)
    atomicMax(dst.x[(i >> 5) & 7u], vals.v[i * 64u + k]);
}
// CHECK: OpEntryPoint GLCompute %main "main" {{.*}} %[[KEY:[0-9]+]] %[[BOUND:[0-9]+]]{{$}}
// CHECK: %[[KEY]] = OpVariable %_ptr_Private_uint Private %uint_0
// CHECK: %[[BOUND]] = OpVariable %_ptr_Private_uint Private %uint_0
// CHECK: OpFunction %float Inline
// CHECK-NEXT: %[[IDX:[0-9]+]] = OpFunctionParameter %uint
// CHECK: %[[LASTIDX:[0-9]+]] = OpLoad %uint %[[KEY]]
// CHECK-NEXT: %[[SAME:[0-9]+]] = OpIEqual %bool %[[LASTIDX]] %[[IDX]]
// CHECK-NEXT: %[[B:[0-9]+]] = OpLoad %uint %[[BOUND]]
// CHECK-NEXT: %[[NOTPAST:[0-9]+]] = OpULessThanEqual %bool %[[UOP:[0-9]+]] %[[B]]
// CHECK-NEXT: %[[HIT:[0-9]+]] = OpLogicalAnd %bool %[[SAME]] %[[NOTPAST]]
// CHECK-NEXT: OpSelectionMerge %[[JOIN:[0-9]+]] None
// CHECK-NEXT: OpBranchConditional %[[HIT]] %[[JOIN]] %[[MISS:[0-9]+]]
// CHECK-NEXT: %[[MISS]] = OpLabel
// CHECK-NEXT: %[[LOADED:[0-9]+]] = OpAtomicLoad %uint
// CHECK: OpAtomicSMax
// CHECK: OpAtomicUMin
// CHECK: %[[LMAG:[0-9]+]] = OpBitwiseAnd %uint %[[LOADED]] %uint_2147483647
// CHECK-NEXT: %[[LNAN:[0-9]+]] = OpUGreaterThan %bool %[[LMAG]] %uint_2139095040
// CHECK-NEXT: %[[NEW:[0-9]+]] = OpSelect %uint %[[LNAN]] %uint_0
// CHECK-NEXT: OpStore %[[KEY]] %[[IDX]]
// CHECK-NEXT: OpStore %[[BOUND]] %[[NEW]]
// CHECK-NEXT: OpBranch %[[JOIN]]
// CHECK-NEXT: %[[JOIN]] = OpLabel
// CHECK-NEXT: OpPhi %uint %[[UOP]] %{{[0-9]+}} %[[LOADED]]
// CHECK: OpFunctionEnd
