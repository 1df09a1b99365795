// A float max whose result is used, lowered inline (outline=off): the
// original result id becomes an OpBitcast of a phi over the early-out value
// and the integer atomic's result (or, after a NaN fix-up, the value its CAS
// saw), so later code is untouched.  By default the same code ends in a
// helper's OpReturnValue and the result id is the call's
// (outline-helpers.comp).
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax=outline=off | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Vals { float vals[]; };
layout(std430, set = 0, binding = 1) buffer Dst { float mx; } dst;
void main() {
  uint i = gl_GlobalInvocationID.x;
  vals[i] = atomicMax(dst.mx, vals[i]);
}
// CHECK: %[[CUR:[0-9]+]] = OpAtomicLoad %uint
// CHECK: OpAtomicSMax %uint
// CHECK: OpAtomicUMin %uint
// CHECK: %[[OLD:[0-9]+]] = OpPhi %uint
// The NaN fix-up's result: what its CAS saw, or the atomic's result.
// CHECK: %[[FIXED:[0-9]+]] = OpPhi %uint %{{[0-9]+}} %{{[0-9]+}} %[[OLD]] %{{[0-9]+}}
// CHECK: %[[BITS:[0-9]+]] = OpPhi %uint %[[CUR]] %{{[0-9]+}} %[[FIXED]] %{{[0-9]+}}
// CHECK-NEXT: %[[RES:[0-9]+]] = OpBitcast %float %[[BITS]]
// CHECK: OpStore %{{[0-9]+}} %[[RES]]
// CHECK-NOT: OpAtomicFMaxEXT
