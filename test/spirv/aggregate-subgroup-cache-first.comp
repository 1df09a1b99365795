// aggregate=subgroup with the bound cache (the default cache=on), result
// unused: the uniformity test (every invocation, in uniform control flow),
// then each invocation tests its own cache, and only those it cannot decide
// take part in the reduction and the atomic.  The elected invocation's
// lowered atomic makes no second test but records its early-out's load;
// the others record the reduced key, which the elected atomic completes.
// The per-invocation path makes no second test either.
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax=aggregate=subgroup | FileCheck %s
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
// CHECK: OpFunction %float Inline
// CHECK-NEXT: %[[IDX:[0-9]+]] = OpFunctionParameter %uint
// CHECK: %[[MIN:[0-9]+]] = OpGroupNonUniformUMin %uint %uint_3 Reduce %[[IDX]]
// CHECK-NEXT: %[[MAX:[0-9]+]] = OpGroupNonUniformUMax %uint %uint_3 Reduce %[[IDX]]
// CHECK-NEXT: %[[UNIFORM:[0-9]+]] = OpIEqual %bool %[[MIN]] %[[MAX]]
// CHECK: %[[K:[0-9]+]] = OpSelect %uint %{{[0-9]+}} %uint_0 %{{[0-9]+}}
// CHECK-NEXT: %[[LASTIDX:[0-9]+]] = OpLoad %uint %[[KEY]]
// CHECK-NEXT: %[[SAME:[0-9]+]] = OpIEqual %bool %[[LASTIDX]] %[[IDX]]
// CHECK-NEXT: %[[B:[0-9]+]] = OpLoad %uint %[[BOUND]]
// CHECK-NEXT: %[[NOTPAST:[0-9]+]] = OpULessThanEqual %bool %[[K]] %[[B]]
// CHECK-NEXT: %[[HIT:[0-9]+]] = OpLogicalAnd %bool %[[SAME]] %[[NOTPAST]]
// CHECK-NEXT: OpSelectionMerge %[[JOIN:[0-9]+]] None
// CHECK-NEXT: OpBranchConditional %[[HIT]] %[[JOIN]] %[[MISS:[0-9]+]]
// CHECK-NEXT: %[[MISS]] = OpLabel
// CHECK-NEXT: OpSelectionMerge %[[MERGE:[0-9]+]] None
// CHECK-NEXT: OpBranchConditional %[[UNIFORM]] %[[AGG:[0-9]+]] %[[SINGLE:[0-9]+]]
// CHECK-NEXT: %[[AGG]] = OpLabel
// CHECK-NEXT: %[[R:[0-9]+]] = OpGroupNonUniformUMax %uint %uint_3 Reduce %[[K]]
// CHECK-NEXT: %[[ELECTED:[0-9]+]] = OpGroupNonUniformElect %bool %uint_3
// CHECK-NEXT: OpSelectionMerge %[[AGGMERGE:[0-9]+]] None
// CHECK-NEXT: OpBranchConditional %[[ELECTED]] %[[ELECTING:[0-9]+]] %[[OTHERS:[0-9]+]]
// CHECK-NEXT: %[[ELECTING]] = OpLabel
// CHECK-NOT: OpLoad %uint %[[BOUND]]
// CHECK: %[[LOADED:[0-9]+]] = OpAtomicLoad %uint
// CHECK-NOT: OpLoad %uint %[[BOUND]]
// CHECK: OpAtomicSMax
// CHECK: OpAtomicUMin
// CHECK: %[[LNEW:[0-9]+]] = OpSelect %uint %{{[0-9]+}} %uint_0 %{{[0-9]+}}
// CHECK-NEXT: OpStore %[[KEY]] %[[IDX]]
// CHECK-NEXT: OpStore %[[BOUND]] %[[LNEW]]
// CHECK: %[[OTHERS]] = OpLabel
// CHECK-NEXT: OpStore %[[KEY]] %[[IDX]]
// CHECK-NEXT: OpStore %[[BOUND]] %[[R]]
// CHECK-NEXT: OpBranch %[[AGGMERGE]]
// CHECK: %[[SINGLE]] = OpLabel
// CHECK-NOT: OpLoad %uint %[[BOUND]]
// CHECK: OpAtomicLoad %uint
// CHECK-NOT: OpLoad %uint %[[BOUND]]
// CHECK: OpStore %[[BOUND]]
// CHECK: %[[MERGE]] = OpLabel
// CHECK: OpBranch %[[JOIN]]
// CHECK-NEXT: %[[JOIN]] = OpLabel
// CHECK-NEXT: OpPhi %float
// CHECK: OpFunctionEnd
