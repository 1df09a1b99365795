// SPIR-V 1.4+: the alias variable joins the entry point's interface list.
// RUN: %lower-and-check --env vulkan1.2 %s --lower-float-atomic-minmax | FileCheck %s
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) buffer Dst { float mx; } dst;
void main() { atomicMax(dst.mx, 1.0); }
// CHECK: OpEntryPoint GLCompute %main "main" %dst %[[ALIAS:[0-9]+]]
// CHECK: %[[ALIAS]] = OpVariable
