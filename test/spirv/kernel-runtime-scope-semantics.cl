// OpenCL kernel whose atomics take their Scope and Semantics from run-time
// values (kernel arguments; clang-22 passes them through for
// __spirv_AtomicF{Max,Min}EXT).  The outlined helper gets them as
// parameters, and every atomic in it uses the parameters; a constant
// semantics stays a constant.  (Before, the helper used the caller's ids.)
// The barrier after the NaN fix-up's loop has the run-time semantics with
// the memory's class bit (CrossWorkgroupMemory, 512) OR'd in: OpenCL C
// passes an ordering alone (2 for acquire), and a barrier orders only the
// memory its semantics name.  (Before, the barrier took the value as given.)
// RUN: %lower-and-check --env spv1.4 %s --lower-float-atomic-minmax | FileCheck %s
float __spirv_AtomicFMaxEXT(global float *, int, int, float);
float __spirv_AtomicFMinEXT(global float *, int, int, float);
kernel void k(global float *p, global float *v, int scope, int sem) {
  size_t i = get_global_id(0);
  v[i] = __spirv_AtomicFMaxEXT(p, scope, sem, v[i]);
  v[i] += __spirv_AtomicFMinEXT(p + 1, scope, 0, v[i]);
}
// CHECK: OpMemoryModel Physical64 OpenCL
// CHECK: %k = OpFunction
// CHECK: %[[SCOPE:[0-9]+]] = OpFunctionParameter %uint
// CHECK-NEXT: %[[SEM:[0-9]+]] = OpFunctionParameter %uint
// CHECK-NOT: OpAtomic
// CHECK: OpFunctionCall %float %[[MAX:[0-9]+]] %{{[0-9]+}} %[[SCOPE]] %[[SEM]] %
// CHECK: OpFunctionCall %float %[[MIN:[0-9]+]] %{{[0-9]+}} %[[SCOPE]] %
// CHECK: %[[MAX]] = OpFunction %float Inline
// CHECK-NEXT: OpFunctionParameter %_ptr_CrossWorkgroup_float
// CHECK-NEXT: %[[S:[0-9]+]] = OpFunctionParameter %uint
// CHECK-NEXT: %[[M:[0-9]+]] = OpFunctionParameter %uint
// CHECK-NEXT: OpFunctionParameter %float
// CHECK-NOT: OpFunctionEnd
// CHECK: OpAtomic{{[A-Za-z]+}} %uint %{{[0-9]+}} %[[S]] %[[M]]
// CHECK: OpLoopMerge %[[MERGE:[0-9]+]]
// CHECK: %[[MERGE]] = OpLabel
// CHECK-NEXT: %[[BAR:[0-9]+]] = OpBitwiseOr %uint %[[M]] %uint_512
// CHECK-NEXT: OpMemoryBarrier %[[S]] %[[BAR]]
// CHECK: OpFunctionEnd
// CHECK: %[[MIN]] = OpFunction %float Inline
// CHECK-NEXT: OpFunctionParameter %_ptr_CrossWorkgroup_float
// CHECK-NEXT: %[[S2:[0-9]+]] = OpFunctionParameter %uint
// CHECK-NEXT: OpFunctionParameter %float
// CHECK-NOT: OpFunctionEnd
// CHECK: OpAtomic{{[A-Za-z]+}} %uint %{{[0-9]+}} %[[S2]] %
// CHECK: OpFunctionEnd
// CHECK-NOT: OpAtomicF{{Min|Max}}EXT
