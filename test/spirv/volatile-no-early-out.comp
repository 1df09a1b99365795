// A volatile buffer under the GLSL450 memory model (glslang decorates the
// member Volatile): no early-out load, the integer atomic runs every time.
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) volatile buffer Dst { float mn; } dst;
void main() { atomicMin(dst.mn, float(gl_GlobalInvocationID.x)); }
// CHECK: OpMemoryModel Logical GLSL450
// CHECK: OpMemberDecorate %Dst 0 Volatile
// CHECK: OpFunction
// CHECK-NOT: OpAtomicLoad
// CHECK: OpAtomicSMin %uint
// CHECK: OpAtomicUMax %uint
// CHECK: OpFunctionEnd
