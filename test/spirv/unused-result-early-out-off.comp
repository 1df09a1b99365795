// Result unused, number policy, early-out=off: no atomic load is added
// before the one dispatched atomic; the NaN fix-up reads the atomic's
// result (a load of its own costs more than a reduction saves, except on a
// single hot address: docs/gpu-performance.md).
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax=early-out=off | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Dst { float mx; } dst;
void main() { atomicMax(dst.mx, float(gl_GlobalInvocationID.x)); }
// CHECK-NOT: OpAtomicLoad
// CHECK: %[[R1:[0-9]+]] = OpAtomicSMax %uint %[[P:[0-9]+]] %uint_1 %uint_0
// CHECK: %[[R2:[0-9]+]] = OpAtomicUMin %uint %[[P]] %uint_1 %uint_0
// CHECK: %[[OLD:[0-9]+]] = OpPhi %uint %[[R1]] %{{[0-9]+}} %[[R2]]
// CHECK: OpBitwiseAnd %uint %[[OLD]] %uint_2147483648
// CHECK: OpAtomicLoad %uint %[[P]]
// CHECK: OpAtomicCompareExchange %uint %[[P]]
