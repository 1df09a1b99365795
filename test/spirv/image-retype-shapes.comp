// images=retype, more shapes: an arrayed r32f image with explicit
// AcquireRelease Image semantics under strategy=cas (the barriers carry
// ImageMemory, 0x800), float atomic store, load and exchange on texel
// pointers of the retyped image (bitcast), a sparse read (the residency
// struct is rebuilt), and a runtime descriptor array indexed NonUniform.
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax=images=retype,strategy=cas | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
#extension GL_EXT_shader_atomic_float : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_ARB_sparse_texture2 : require
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, r32f) uniform image2DArray layers;
layout(set = 0, binding = 1, r32f) uniform image2D imgs[];
layout(std430, set = 0, binding = 2) buffer Out { float o[]; };
void main() {
  ivec3 p = ivec3(gl_GlobalInvocationID.xy, 1);
  uint i = gl_LocalInvocationIndex;
  float v = float(i);
  float a = imageAtomicMin(layers, p, v, gl_ScopeDevice, gl_StorageSemanticsImage, gl_SemanticsAcquireRelease);
  imageAtomicStore(layers, p + 1, a, gl_ScopeDevice, gl_StorageSemanticsImage, gl_SemanticsRelease);
  float b = imageAtomicLoad(layers, p + 2, gl_ScopeDevice, gl_StorageSemanticsImage, gl_SemanticsAcquire);
  float c = imageAtomicExchange(layers, p + 3, b);
  vec4 t;
  int code = sparseImageLoadARB(layers, p, t);
  float d = imageAtomicMax(imgs[nonuniformEXT(i)], p.xy, t.x + c);
  o[i] = d + float(code);
}
// CHECK-NOT: AtomicFloat32MinMaxEXT
// CHECK: %[[LAYERS:[0-9]+]] = OpTypeImage %uint 2D 0 1 0 2 R32ui
// CHECK: %layers = OpVariable %_ptr_UniformConstant_[[LAYERS]] UniformConstant
// CHECK: %[[IMG:[0-9]+]] = OpTypeImage %uint 2D 0 0 0 2 R32ui
// CHECK: %_runtimearr_[[IMG]] = OpTypeRuntimeArray %[[IMG]]
// CHECK: %imgs = OpVariable %_ptr_UniformConstant__runtimearr_[[IMG]] UniformConstant
// CHECK: %[[TP:[0-9]+]] = OpImageTexelPointer %_ptr_Image_uint %layers
// CHECK: OpMemoryBarrier %int_1 %uint_2052
// CHECK-NEXT: OpAtomicLoad %uint %[[TP]] %int_1 %uint_0
// CHECK: OpAtomicCompareExchange %uint %[[TP]] %int_1 %uint_0 %uint_0
// CHECK: OpMemoryBarrier %int_1 %uint_2050
// CHECK: %[[ST:[0-9]+]] = OpImageTexelPointer %_ptr_Image_uint %layers
// CHECK-NEXT: %[[SV:[0-9]+]] = OpBitcast %uint
// CHECK-NEXT: OpAtomicStore %[[ST]] %int_1 %uint_2052 %[[SV]]
// CHECK: %[[LD:[0-9]+]] = OpImageTexelPointer %_ptr_Image_uint %layers
// CHECK-NEXT: %[[LV:[0-9]+]] = OpAtomicLoad %uint %[[LD]] %int_1 %uint_2050
// CHECK-NEXT: OpBitcast %float %[[LV]]
// CHECK: %[[XP:[0-9]+]] = OpImageTexelPointer %_ptr_Image_uint %layers
// CHECK-NEXT: %[[XV:[0-9]+]] = OpBitcast %uint
// CHECK-NEXT: %[[XR:[0-9]+]] = OpAtomicExchange %uint %[[XP]] %uint_1 %uint_0 %[[XV]]
// CHECK-NEXT: OpBitcast %float %[[XR]]
// CHECK: %[[SP:[0-9]+]] = OpImageSparseRead %{{[_a-z0-9]+}}
// CHECK-NEXT: %[[CODE:[0-9]+]] = OpCompositeExtract %int %[[SP]] 0
// CHECK-NEXT: %[[TX:[0-9]+]] = OpCompositeExtract %v4uint %[[SP]] 1
// CHECK-NEXT: %[[TF:[0-9]+]] = OpBitcast %v4float %[[TX]]
// CHECK-NEXT: OpCompositeConstruct %ResType %[[CODE]] %[[TF]]
// CHECK: %[[AC:[0-9]+]] = OpAccessChain %_ptr_UniformConstant_[[IMG]] %imgs
// CHECK: %[[TP2:[0-9]+]] = OpImageTexelPointer %_ptr_Image_uint %[[AC]]
// CHECK: OpAtomicCompareExchange %uint %[[TP2]] %uint_1 %uint_0 %uint_0
// CHECK-NOT: OpAtomicF{{Min|Max}}EXT
