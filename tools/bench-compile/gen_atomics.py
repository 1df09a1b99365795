#!/usr/bin/env python3
"""Writes a Vulkan compute shader, as SPIR-V assembly, with N f32 atomic
min/max operations: even-numbered ones on a storage buffer (OpAtomicF*EXT on
a runtime array in a Block), odd-numbered ones on a Workgroup array.  Min and
max alternate in pairs, so both kinds of memory see both operations.  All
atomics sit in the entry point's single block, each with its own index
arithmetic, access chain and value.

    gen_atomics.py N > shader.spvasm
    spirv-as --target-env vulkan1.2 shader.spvasm -o shader.spv

The output passes spirv-val --target-env vulkan1.2.
"""
import sys

LOCAL_SIZE = 64


def generate(n, out):
    w = out.write
    w("; SPIR-V\n; Version: 1.5\n")
    w("               OpCapability Shader\n")
    w("               OpCapability AtomicFloat32MinMaxEXT\n")
    w('               OpExtension "SPV_EXT_shader_atomic_float_min_max"\n')
    w("               OpMemoryModel Logical GLSL450\n")
    w('               OpEntryPoint GLCompute %main "main" %buf %shared %lid\n')
    w(f"               OpExecutionMode %main LocalSize {LOCAL_SIZE} 1 1\n")
    w('               OpName %main "main"\n')
    w('               OpName %Buf "Buf"\n')
    w('               OpMemberName %Buf 0 "data"\n')
    w('               OpName %buf "buf"\n')
    w('               OpName %shared "shared"\n')
    w('               OpName %lid "lid"\n')
    w("               OpDecorate %rta ArrayStride 4\n")
    w("               OpMemberDecorate %Buf 0 Offset 0\n")
    w("               OpDecorate %Buf Block\n")
    w("               OpDecorate %buf DescriptorSet 0\n")
    w("               OpDecorate %buf Binding 0\n")
    w("               OpDecorate %lid BuiltIn LocalInvocationId\n")
    w("       %void = OpTypeVoid\n")
    w("         %fn = OpTypeFunction %void\n")
    w("       %uint = OpTypeInt 32 0\n")
    w("      %float = OpTypeFloat 32\n")
    w("     %v3uint = OpTypeVector %uint 3\n")
    w("        %rta = OpTypeRuntimeArray %float\n")
    w("        %Buf = OpTypeStruct %rta\n")
    w("     %ptr_sb = OpTypePointer StorageBuffer %Buf\n")
    w("  %ptr_sb_f = OpTypePointer StorageBuffer %float\n")
    w(f"     %c_size = OpConstant %uint {LOCAL_SIZE}\n")
    w("     %arr = OpTypeArray %float %c_size\n")
    w("     %ptr_wg = OpTypePointer Workgroup %arr\n")
    w("   %ptr_wg_f = OpTypePointer Workgroup %float\n")
    w("    %ptr_in = OpTypePointer Input %v3uint\n")
    w("         %c0 = OpConstant %uint 0\n")
    w(f"      %c_mask = OpConstant %uint {LOCAL_SIZE - 1}\n")
    w("   %s_device = OpConstant %uint 1\n")
    w("   %s_group = OpConstant %uint 2\n")
    for k in range(LOCAL_SIZE):
        w(f"       %k{k} = OpConstant %uint {k}\n")
    w("        %buf = OpVariable %ptr_sb StorageBuffer\n")
    w("     %shared = OpVariable %ptr_wg Workgroup\n")
    w("        %lid = OpVariable %ptr_in Input\n")
    w("       %main = OpFunction %void None %fn\n")
    w("      %entry = OpLabel\n")
    w("        %l3 = OpLoad %v3uint %lid\n")
    w("         %lx = OpCompositeExtract %uint %l3 0\n")
    for i in range(n):
        k = i % LOCAL_SIZE
        op = "OpAtomicFMinEXT" if (i // 2) % 2 == 0 else "OpAtomicFMaxEXT"
        w(f"       %i{i} = OpIAdd %uint %lx %k{k}\n")
        w(f"       %v{i} = OpConvertUToF %float %i{i}\n")
        if i % 2 == 0:
            w(f"       %p{i} = OpAccessChain %ptr_sb_f %buf %c0 %i{i}\n")
            w(f"       %r{i} = {op} %float %p{i} %s_device %c0 %v{i}\n")
        else:
            w(f"       %m{i} = OpBitwiseAnd %uint %i{i} %c_mask\n")
            w(f"       %p{i} = OpAccessChain %ptr_wg_f %shared %m{i}\n")
            w(f"       %r{i} = {op} %float %p{i} %s_group %c0 %v{i}\n")
    w("               OpReturn\n")
    w("               OpFunctionEnd\n")


def main():
    if len(sys.argv) != 2 or not sys.argv[1].isdigit():
        sys.stderr.write("usage: gen_atomics.py N > shader.spvasm\n")
        return 2
    generate(int(sys.argv[1]), sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
