// A loop that is one block (header = continue target = back-edge block), as
// `spirv-opt -O` makes of a do-while, with an atomic that outline=off lowers
// inline, splitting the block.  The back-edge branch moves to a new block
// that the OpLoopMerge names as continue target (before, the merge still
// named the header, which the back edge no longer post-dominated).
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
// RUN: %lower-and-check --env vulkan1.2 %t.opt.spv --lower-float-atomic-minmax=outline=off | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Buf { uint n; float v[]; } buf;
void main() {
  uint i = gl_GlobalInvocationID.x;
  float x = float(i);
  do {
    x = atomicMax(buf.v[i & 7u], x) + 1.0;
    i += 64u;
  } while (i < buf.n);
}
// CHECK: OpBranch %[[H:[0-9]+]]
// CHECK-NEXT: %[[H]] = OpLabel
// CHECK-NEXT: OpPhi %float %{{[0-9]+}} %{{[0-9]+}} %{{[0-9]+}} %[[C:[0-9]+]]
// CHECK-NEXT: OpPhi %uint %{{[0-9]+}} %{{[0-9]+}} %{{[0-9]+}} %[[C]]
// CHECK-NEXT: OpLoopMerge %[[MERGE:[0-9]+]] %[[C]] None
// CHECK-NEXT: OpBranch %
// CHECK: OpAtomicLoad
// CHECK: OpBranch %[[C]]
// CHECK-NEXT: %[[C]] = OpLabel
// CHECK-NEXT: OpBranchConditional %{{[0-9]+}} %[[H]] %[[MERGE]]
// CHECK-NEXT: %[[MERGE]] = OpLabel
