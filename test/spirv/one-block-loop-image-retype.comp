// A one-block loop (header = continue target = back-edge block, as
// `spirv-opt -O` makes of a do-while) with an image atomic: images=retype
// lowers image atomics inline even with the default outline=on, splitting
// the block.  The back-edge branch moves to a new block that the
// OpLoopMerge names as continue target (before, the merge still named the
// header, which the back edge no longer post-dominated).
// RUN: %glslang --target-env vulkan1.2 -V %s -o %t.spv
// RUN: %spirv-opt -O %t.spv -o %t.opt.spv
// RUN: %spirv-dis %t.opt.spv | FileCheck --check-prefix=INPUT %s
// INPUT: OpBranch %[[H:[0-9]+]]
// INPUT-NEXT: %[[H]] = OpLabel
// INPUT-NOT: OpLabel
// INPUT: OpAtomicFMaxEXT
// INPUT-NOT: OpLabel
// INPUT: OpLoopMerge %{{[0-9]+}} %[[H]] None
// INPUT-NEXT: OpBranchConditional %{{[0-9]+}} %[[H]] %
// RUN: %lower-and-check --env vulkan1.2 %t.opt.spv --lower-float-atomic-minmax=images=retype | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, r32f) uniform image2D img;
layout(std430, set = 0, binding = 1) buffer Buf { int n; } buf;
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  float x = float(p.x);
  do {
    x = imageAtomicMax(img, p, x) + 1.0;
    p.y += 8;
  } while (p.y < buf.n);
}
// CHECK: OpBranch %[[H:[0-9]+]]
// CHECK-NEXT: %[[H]] = OpLabel
// CHECK: OpLoopMerge %[[MERGE:[0-9]+]] %[[C:[0-9]+]] None
// CHECK-NEXT: OpBranch %
// CHECK: OpImageTexelPointer %_ptr_Image_uint
// CHECK: OpBranch %[[C]]
// CHECK-NEXT: %[[C]] = OpLabel
// CHECK-NEXT: OpBranchConditional %{{[0-9]+}} %[[H]] %[[MERGE]]
// CHECK-NEXT: %[[MERGE]] = OpLabel
