// A retyped Workgroup struct with f16 leaves (a scalar, a vector) beside f32
// ones: the f16 min/max (native=shaderSharedFloat16AtomicMinMax) and the f16
// add stay native on leaves that keep their type; the f32 max is lowered and
// the f32 add on the retyped array becomes a compare-exchange loop.  The
// whole struct copied out converts the f32 leaves only.  The f32 add's
// capability goes; the add extension stays for the f16 add.
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax=native=shaderSharedFloat16AtomicMinMax | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float : require
#extension GL_EXT_shader_atomic_float2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Vals { float vals[]; };
struct S { float a; float16_t h; f16vec2 hv; float b[2]; };
shared S s;
void main() {
  if (gl_LocalInvocationID.x == 0u) s = S(0.0, float16_t(0.0), f16vec2(0.0), float[2](0.0, 1.0));
  barrier();
  float v = vals[gl_GlobalInvocationID.x];
  atomicMax(s.a, v);
  atomicMax(s.h, float16_t(v));
  atomicAdd(s.h, float16_t(1.0));
  atomicAdd(s.b[1], v);
  barrier();
  S c = s;
  if (gl_LocalInvocationID.x == 0u) vals[0] = c.a + float(c.h) + float(c.hv.y) + c.b[1];
}
// CHECK-NOT: AtomicFloat32AddEXT
// CHECK: OpCapability AtomicFloat16MinMaxEXT
// CHECK: OpCapability AtomicFloat16AddEXT
// CHECK-NOT: AtomicFloat32AddEXT
// CHECK: OpExtension "SPV_EXT_shader_atomic_float_add"
// CHECK: %[[RS:[_a-z0-9]+]] = OpTypeStruct %uint %half %v2half %_arr_uint_uint_2
// CHECK: OpAtomicFMaxEXT %half
// CHECK-NEXT: OpAccessChain
// CHECK-NEXT: OpAtomicFAddEXT %half
// CHECK: OpLoopMerge
// CHECK: OpFAdd %float
// CHECK: OpAtomicCompareExchange %uint
// CHECK-NOT: OpAtomicF{{Add|Max}}EXT %float
// CHECK: OpLoad %[[RS]] %s
