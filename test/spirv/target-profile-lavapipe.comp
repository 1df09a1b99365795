// With lavapipe's profile (native f32 buffer/shared min/max, no f64) only the
// f64 atomic is lowered; the f32 one and its capability stay.
// RUN: %lower-and-check --env vulkan1.2 %s --target-profile=%profiles/lavapipe.json --lower-float-atomic-minmax | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float64 : require
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) buffer Dst { float f; double d; } dst;
void main() {
  atomicMin(dst.f, 1.0);
  atomicMin(dst.d, 1.0lf);
}
// CHECK-DAG: OpCapability AtomicFloat32MinMaxEXT
// CHECK-DAG: OpCapability Int64Atomics
// CHECK-DAG: OpExtension "SPV_EXT_shader_atomic_float_min_max"
// CHECK-NOT: AtomicFloat64MinMaxEXT
// CHECK: OpAtomicFMinEXT %float
// CHECK: OpAtomicSMin %ulong
// CHECK-NOT: OpAtomicFMinEXT %double
