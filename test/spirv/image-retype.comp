// images=retype on glslang output: an r32f image2D with imageAtomicMax
// (GL_EXT_shader_atomic_float2), imageLoad/imageStore on it, a descriptor
// array of r32f images with imageAtomicMin, and an image of the same type
// that no float min/max touches.  The two atomic images get a new
// `uint 2D 0 0 0 2 R32ui` type (the array a new array type); the other image
// keeps the float type; reads and writes of the retyped image are bitcast;
// texel pointers become Image uint pointers under the integer atomics.
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax=images=retype | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, r32f) uniform image2D img;
layout(set = 0, binding = 1, r32f) uniform image2D other;
layout(set = 0, binding = 2, r32f) uniform image2D arr[4];
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  float v = imageLoad(other, p).x;
  float r = imageAtomicMax(img, p, v);
  imageStore(img, p + 1, vec4(r + imageLoad(img, p).x));
  imageAtomicMin(arr[gl_LocalInvocationIndex & 3], p, v);
}
// CHECK-NOT: AtomicFloat32MinMaxEXT
// CHECK-NOT: SPV_EXT_shader_atomic_float_min_max
// CHECK: %[[FIMG:[0-9]+]] = OpTypeImage %float 2D 0 0 0 2 R32f
// CHECK: %_ptr_UniformConstant_[[FIMG]] = OpTypePointer UniformConstant %[[FIMG]]
// CHECK: %other = OpVariable %_ptr_UniformConstant_[[FIMG]] UniformConstant
// CHECK: %[[UIMG:[0-9]+]] = OpTypeImage %uint 2D 0 0 0 2 R32ui
// CHECK: %img = OpVariable %_ptr_UniformConstant_[[UIMG]] UniformConstant
// CHECK: %_ptr_Image_uint = OpTypePointer Image %uint
// CHECK: %[[UARR:[_a-z0-9]+]] = OpTypeArray %[[UIMG]] %uint_4
// CHECK: %_ptr_UniformConstant_[[UARR]] = OpTypePointer UniformConstant %[[UARR]]
// CHECK: %arr = OpVariable %_ptr_UniformConstant_[[UARR]] UniformConstant
// CHECK: OpFunction
// CHECK: OpLoad %[[FIMG]] %other
// CHECK: OpImageRead %v4float
// CHECK: %[[TP:[0-9]+]] = OpImageTexelPointer %_ptr_Image_uint %img
// CHECK: OpAtomicLoad %uint %[[TP]]
// CHECK: OpAtomicSMax %uint %[[TP]]
// CHECK: OpAtomicUMin %uint %[[TP]]
// CHECK: %[[W:[0-9]+]] = OpLoad %[[UIMG]] %img
// CHECK: %[[R:[0-9]+]] = OpLoad %[[UIMG]] %img
// CHECK: %[[RU:[0-9]+]] = OpImageRead %v4uint %[[R]]
// CHECK-NEXT: OpBitcast %v4float %[[RU]]
// CHECK: %[[TU:[0-9]+]] = OpBitcast %v4uint
// CHECK-NEXT: OpImageWrite %[[W]] %{{[0-9]+}} %[[TU]]
// CHECK: %[[AC:[0-9]+]] = OpAccessChain %_ptr_UniformConstant_[[UIMG]] %arr
// CHECK: %[[TP2:[0-9]+]] = OpImageTexelPointer %_ptr_Image_uint %[[AC]]
// CHECK: OpAtomicSMin %uint %[[TP2]]
// CHECK: OpAtomicUMax %uint %[[TP2]]
// CHECK-NOT: OpAtomicF{{Min|Max}}EXT
