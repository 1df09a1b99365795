// strategy=cas: a compare-exchange loop that compares bits (OpIEqual on the
// integers, never a float compare), and no dispatched integer min/max.
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax=strategy=cas | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Dst { float mn; } dst;
void main() { atomicMin(dst.mn, float(gl_GlobalInvocationID.x)); }
// CHECK-NOT: OpAtomicSMin
// CHECK-NOT: OpAtomicUMax
// CHECK: %[[C0:[0-9]+]] = OpAtomicLoad %uint
// CHECK: %[[HDR:[0-9]+]] = OpLabel
// CHECK-NEXT: %[[C:[0-9]+]] = OpPhi %uint %[[C0]] %{{[0-9]+}} %[[CX:[0-9]+]] %[[CONT:[0-9]+]]
// CHECK-NEXT: OpLoopMerge %[[MERGE:[0-9]+]] %[[CONT]] None
// CHECK: %[[SAME:[0-9]+]] = OpIEqual %bool %[[NEW:[0-9]+]] %[[C]]
// CHECK-NEXT: OpBranchConditional %[[SAME]] %[[MERGE]]
// CHECK: %[[CX]] = OpAtomicCompareExchange %uint %{{[0-9]+}} %uint_1 %uint_0 %uint_0 %[[NEW]] %[[C]]
// CHECK-NEXT: %[[OK:[0-9]+]] = OpIEqual %bool %[[CX]] %[[C]]
// CHECK-NEXT: OpBranchConditional %[[OK]] %[[MERGE]] %[[CONT]]
// CHECK-NOT: OpFOrd
// CHECK-NOT: OpFUnord
