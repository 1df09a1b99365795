// Outlining (the default): each kind of atomic is lowered once, in a helper
// function marked Inline that takes the access chain's array indices and the
// operand and returns the result; each atomic becomes a call with the
// original result id.  Atomics that differ only in their array indices share
// a helper; another struct member, operation or memory gets another one.
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
struct P { float x; float y; };
layout(std430, set = 0, binding = 0) buffer Dst { P p[]; } dst;
layout(std430, set = 0, binding = 1) buffer Vals { float vals[]; };
shared float s[64];
void main() {
  uint i = gl_GlobalInvocationID.x;
  float v = vals[i];
  float r = atomicMin(dst.p[i].x, v);
  r += atomicMin(dst.p[i + 1u].x, v); // used, like the first: same kind
  atomicMin(dst.p[i].y, v);
  atomicMax(dst.p[i].x, v);
  atomicMin(s[i & 63u], v);
  vals[i] = r;
}
// CHECK-NOT: OpAtomicF{{Min|Max}}EXT
// CHECK: %main = OpFunction
// CHECK: %[[R:[0-9]+]] = OpFunctionCall %float %[[MINX:[0-9]+]] %{{[0-9]+}} %{{[0-9]+}}
// CHECK-NEXT: OpStore %r %[[R]]
// CHECK: OpFunctionCall %float %[[MINX]] %{{[0-9]+}} %{{[0-9]+}}
// CHECK: OpFunctionCall %float %[[MINY:[0-9]+]] %{{[0-9]+}} %{{[0-9]+}}
// CHECK: OpFunctionCall %float %[[MAXX:[0-9]+]] %{{[0-9]+}} %{{[0-9]+}}
// CHECK: OpFunctionCall %float %[[MINS:[0-9]+]] %{{[0-9]+}} %{{[0-9]+}}
// CHECK: OpFunctionEnd
// CHECK: %[[MINX]] = OpFunction %float Inline %[[FT:[0-9]+]]
// CHECK-NEXT: %[[I:[0-9]+]] = OpFunctionParameter %uint
// CHECK-NEXT: %[[X:[0-9]+]] = OpFunctionParameter %float
// CHECK-NEXT: OpLabel
// CHECK-NEXT: %[[C:[0-9]+]] = OpAccessChain %_ptr_StorageBuffer_uint %{{[0-9]+}} %int_0 %[[I]] %int_0
// CHECK-NEXT: OpBitcast %uint %[[X]]
// CHECK: OpAtomicLoad %uint %[[C]]
// CHECK: OpAtomicSMin %uint %[[C]]
// CHECK: OpAtomicUMax %uint %[[C]]
// CHECK: %[[RES:[0-9]+]] = OpBitcast %float
// CHECK-NEXT: OpReturnValue %[[RES]]
// CHECK-NEXT: OpFunctionEnd
// CHECK: %[[MINY]] = OpFunction %float Inline %[[FT]]
// CHECK: OpAccessChain %_ptr_StorageBuffer_uint %{{[0-9]+}} %int_0 %{{[0-9]+}} %int_1
// CHECK: OpAtomicSMin
// CHECK: %[[MAXX]] = OpFunction %float Inline %[[FT]]
// CHECK: OpAtomicSMax
// CHECK: %[[MINS]] = OpFunction %float Inline %[[FT]]
// CHECK: OpAccessChain %_ptr_Workgroup_uint %s %{{[0-9]+}}
// CHECK: OpAtomicSMin
// CHECK-NOT: OpFunction %float
