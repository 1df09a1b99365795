// Default lowering of a float min on an SSBO: an Aliased integer alias
// variable on the same binding, an atomic load for the early-out, then one
// sign-dispatched integer atomic under structured control flow; the float
// capability and the extension are gone.  (Result used; an unused result
// is unused-result-*.comp.)
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 3) buffer Dst { uint pad; float mn[4]; } dst;
layout(std430, set = 0, binding = 0) buffer Vals { float vals[]; };
void main() {
  vals[gl_GlobalInvocationID.x] =
      atomicMin(dst.mn[gl_GlobalInvocationID.x & 3u], vals[gl_GlobalInvocationID.x]);
}
// CHECK-NOT: AtomicFloat32MinMaxEXT
// CHECK-NOT: SPV_EXT_shader_atomic_float_min_max
// CHECK-DAG: OpDecorate %dst Binding 3
// CHECK-DAG: OpDecorate %[[ALIAS:[0-9]+]] Binding 3
// CHECK-DAG: OpDecorate %[[ALIAS]] DescriptorSet 0
// CHECK-DAG: OpDecorate %dst Aliased
// CHECK-DAG: OpDecorate %[[ALIAS]] Aliased
// CHECK-DAG: OpMemberDecorate %[[BLOCK:[_a-z0-9]+]] 1 Offset 4
// CHECK-DAG: OpDecorate %[[BLOCK]] Block
// CHECK: %[[BLOCK]] = OpTypeStruct %uint %[[ARR:[_a-z0-9]+]]
// CHECK: %[[ALIAS]] = OpVariable %{{[_a-zA-Z0-9]+}} StorageBuffer
// CHECK: %[[PTR:[0-9]+]] = OpAccessChain %_ptr_StorageBuffer_uint %[[ALIAS]] %int_1
// CHECK: %[[V:[0-9]+]] = OpBitcast %uint
// CHECK: %[[CUR:[0-9]+]] = OpAtomicLoad %uint %[[PTR]] %uint_1 %uint_0
// CHECK: OpSelectionMerge
// CHECK: OpBranchConditional
// CHECK: OpINotEqual %bool
// CHECK: OpSelectionMerge %[[JOIN:[0-9]+]] None
// CHECK: OpAtomicSMin %uint %[[PTR]] %uint_1 %uint_0
// CHECK-NEXT: OpBranch %[[JOIN]]
// CHECK: OpAtomicUMax %uint %[[PTR]] %uint_1 %uint_0
// CHECK-NEXT: OpBranch %[[JOIN]]
// CHECK-NOT: OpAtomicFMinEXT
