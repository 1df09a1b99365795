// f64: 64-bit integer atomics on an alias of the block; Int64 and
// Int64Atomics are added, AtomicFloat64MinMaxEXT and the extension removed.
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float64 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Vals { double vals[]; };
layout(std430, set = 0, binding = 1) buffer Dst { double mn; double mx; } dst;
void main() {
  double v = vals[gl_GlobalInvocationID.x];
  atomicMin(dst.mn, v);
  atomicMax(dst.mx, v);
}
// CHECK-DAG: OpCapability Int64Atomics
// CHECK-DAG: OpCapability Int64{{$}}
// CHECK-NOT: AtomicFloat64MinMaxEXT
// CHECK-NOT: SPV_EXT_shader_atomic_float_min_max
// CHECK: %ulong = OpTypeInt 64 0
// CHECK-DAG: %ulong_9223372036854775808 = OpConstant %ulong 9223372036854775808
// CHECK-DAG: %ulong_63 = OpConstant %ulong 63
// CHECK: OpAtomicLoad %ulong
// CHECK: OpAtomicSMin %ulong
// CHECK: OpAtomicUMax %ulong
// CHECK: OpAtomicSMax %ulong
// CHECK: OpAtomicUMin %ulong
// CHECK-NOT: OpAtomicF{{Min|Max}}EXT
