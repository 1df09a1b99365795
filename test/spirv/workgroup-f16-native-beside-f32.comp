// A Workgroup struct with an f32 member whose atomicMax is lowered and an
// f16 member whose atomicMax the target runs natively
// (native=shaderSharedFloat16AtomicMinMax): the retype turns the f32 leaf
// into an integer and leaves the f16 leaf a float, so the f16 atomic stays
// native on it.  Without native f16 it is an error naming the f16 atomic.
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax=native=shaderSharedFloat16AtomicMinMax | FileCheck %s
// RUN: %glslang --target-env vulkan1.2 -V %s -o %t.spv
// RUN: %expect-bad-input %t.spv --target-env=vulkan1.2 --lower-float-atomic-minmax | FileCheck --check-prefix=NONATIVE %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Vals { float vals[]; };
struct S { float a; float16_t h; };
shared S s;
void main() {
  if (gl_LocalInvocationID.x == 0u) { s.a = 0.0; s.h = float16_t(0.0); }
  barrier();
  float v = vals[gl_GlobalInvocationID.x];
  atomicMax(s.a, v);
  atomicMax(s.h, float16_t(v));
  barrier();
  if (gl_LocalInvocationID.x == 0u) vals[0] = s.a + float(s.h);
}
// CHECK: OpCapability AtomicFloat16MinMaxEXT
// CHECK-NOT: OpCapability AtomicFloat32MinMaxEXT
// CHECK: OpExtension "SPV_EXT_shader_atomic_float_min_max"
// CHECK: %[[RS:[_a-z0-9]+]] = OpTypeStruct %uint %half
// CHECK: %s = OpVariable %_ptr_Workgroup_[[RS]] Workgroup
// CHECK: OpAtomicFMaxEXT %half %{{[0-9]+}}
// CHECK-NOT: OpAtomicFMaxEXT %float
// CHECK: OpAtomicSMax %uint
// NONATIVE: error: {{.*}}OpAtomicFMaxEXT: 16-bit float atomic min/max is not supported yet
