// buffer_reference (PhysicalStorageBuffer): the pointer itself may be
// bitcast there; the other storage classes stay un-bitcast (checked).
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 64) in;
layout(buffer_reference, std430) buffer Acc { float mn; };
layout(std430, set = 0, binding = 0) buffer Vals { Acc acc; float vals[]; };
void main() { atomicMin(acc.mn, vals[gl_GlobalInvocationID.x]); }
// CHECK: OpMemoryModel PhysicalStorageBuffer64 GLSL450
// CHECK: %[[P:[_a-zA-Z0-9]+]] = OpTypePointer PhysicalStorageBuffer %uint
// CHECK: %[[IP:[0-9]+]] = OpBitcast %[[P]] %{{[0-9]+}}
// CHECK: OpAtomicLoad %uint %[[IP]]
// CHECK: OpAtomicSMin %uint %[[IP]]
