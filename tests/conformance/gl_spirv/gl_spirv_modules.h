/* gl_spirv_modules.h: the OpenGL SPIR-V modules of spirv_program.c as C arrays (spirv-as --target-env spv1.0 of
 * the assembly in each comment, itself glslangValidator -G --target-env opengl of the GLSL quoted), so the program
 * needs no SPIR-V tool at run time. */
#ifndef GL_SPIRV_MODULES_H
#define GL_SPIRV_MODULES_H

#include <stdint.h>

/* GLSL:
 *   #version 450
 *   layout(local_size_x = 4) in;
 *   layout(location = 0) uniform uint mul;
 *   layout(location = 2) uniform vec4 offs[2];
 *   layout(location = 4) uniform mat3 m;
 *   layout(location = 7) uniform bool flag;
 *   layout(location = 8) uniform ivec2 iv;
 *   layout(std430, binding = 0) buffer Out { uint o[]; };
 *   void main() {
 *     uint i = gl_GlobalInvocationID.x;
 *     o[i] = i * mul + uint(offs[i & 1u].y) + uint(m[1][2]) + (flag ? 1000u : 0u) + uint(iv.y);
 *   }
 * SPIR-V assembly:
 *                OpCapability Shader
 *           %1 = OpExtInstImport "GLSL.std.450"
 *                OpMemoryModel Logical GLSL450
 *                OpEntryPoint GLCompute %main "main" %gl_GlobalInvocationID
 *                OpExecutionMode %main LocalSize 4 1 1
 *                OpDecorate %gl_GlobalInvocationID BuiltIn GlobalInvocationId
 *                OpDecorate %_runtimearr_uint ArrayStride 4
 *                OpMemberDecorate %Out 0 Offset 0
 *                OpDecorate %Out BufferBlock
 *                OpDecorate %_ DescriptorSet 0
 *                OpDecorate %_ Binding 0
 *                OpDecorate %mul Location 0
 *                OpDecorate %offs Location 2
 *                OpDecorate %m Location 4
 *                OpDecorate %flag Location 7
 *                OpDecorate %iv Location 8
 *                OpDecorate %gl_WorkGroupSize BuiltIn WorkgroupSize
 *        %void = OpTypeVoid
 *           %3 = OpTypeFunction %void
 *        %uint = OpTypeInt 32 0
 * %_ptr_Function_uint = OpTypePointer Function %uint
 *      %v3uint = OpTypeVector %uint 3
 * %_ptr_Input_v3uint = OpTypePointer Input %v3uint
 * %gl_GlobalInvocationID = OpVariable %_ptr_Input_v3uint Input
 *      %uint_0 = OpConstant %uint 0
 * %_ptr_Input_uint = OpTypePointer Input %uint
 * %_runtimearr_uint = OpTypeRuntimeArray %uint
 *         %Out = OpTypeStruct %_runtimearr_uint
 * %_ptr_Uniform_Out = OpTypePointer Uniform %Out
 *           %_ = OpVariable %_ptr_Uniform_Out Uniform
 *         %int = OpTypeInt 32 1
 *       %int_0 = OpConstant %int 0
 * %_ptr_UniformConstant_uint = OpTypePointer UniformConstant %uint
 *         %mul = OpVariable %_ptr_UniformConstant_uint UniformConstant
 *       %float = OpTypeFloat 32
 *     %v4float = OpTypeVector %float 4
 *      %uint_2 = OpConstant %uint 2
 * %_arr_v4float_uint_2 = OpTypeArray %v4float %uint_2
 * %_ptr_UniformConstant__arr_v4float_uint_2 = OpTypePointer UniformConstant %_arr_v4float_uint_2
 *        %offs = OpVariable %_ptr_UniformConstant__arr_v4float_uint_2 UniformConstant
 *      %uint_1 = OpConstant %uint 1
 * %_ptr_UniformConstant_float = OpTypePointer UniformConstant %float
 *     %v3float = OpTypeVector %float 3
 * %mat3v3float = OpTypeMatrix %v3float 3
 * %_ptr_UniformConstant_mat3v3float = OpTypePointer UniformConstant %mat3v3float
 *           %m = OpVariable %_ptr_UniformConstant_mat3v3float UniformConstant
 *       %int_1 = OpConstant %int 1
 *        %bool = OpTypeBool
 * %_ptr_UniformConstant_bool = OpTypePointer UniformConstant %bool
 *        %flag = OpVariable %_ptr_UniformConstant_bool UniformConstant
 *   %uint_1000 = OpConstant %uint 1000
 *       %v2int = OpTypeVector %int 2
 * %_ptr_UniformConstant_v2int = OpTypePointer UniformConstant %v2int
 *          %iv = OpVariable %_ptr_UniformConstant_v2int UniformConstant
 * %_ptr_UniformConstant_int = OpTypePointer UniformConstant %int
 * %_ptr_Uniform_uint = OpTypePointer Uniform %uint
 *      %uint_4 = OpConstant %uint 4
 * %gl_WorkGroupSize = OpConstantComposite %v3uint %uint_4 %uint_1 %uint_1
 *        %main = OpFunction %void None %3
 *           %5 = OpLabel
 *           %i = OpVariable %_ptr_Function_uint Function
 *          %14 = OpAccessChain %_ptr_Input_uint %gl_GlobalInvocationID %uint_0
 *          %15 = OpLoad %uint %14
 *                OpStore %i %15
 *          %22 = OpLoad %uint %i
 *          %23 = OpLoad %uint %i
 *          %26 = OpLoad %uint %mul
 *          %27 = OpIMul %uint %23 %26
 *          %34 = OpLoad %uint %i
 *          %36 = OpBitwiseAnd %uint %34 %uint_1
 *          %38 = OpAccessChain %_ptr_UniformConstant_float %offs %36 %uint_1
 *          %39 = OpLoad %float %38
 *          %40 = OpConvertFToU %uint %39
 *          %41 = OpIAdd %uint %27 %40
 *          %47 = OpAccessChain %_ptr_UniformConstant_float %m %int_1 %uint_2
 *          %48 = OpLoad %float %47
 *          %49 = OpConvertFToU %uint %48
 *          %50 = OpIAdd %uint %41 %49
 *          %54 = OpLoad %bool %flag
 *          %56 = OpSelect %uint %54 %uint_1000 %uint_0
 *          %57 = OpIAdd %uint %50 %56
 *          %62 = OpAccessChain %_ptr_UniformConstant_int %iv %uint_1
 *          %63 = OpLoad %int %62
 *          %64 = OpBitcast %uint %63
 *          %65 = OpIAdd %uint %57 %64
 *          %67 = OpAccessChain %_ptr_Uniform_uint %_ %int_0 %22
 *                OpStore %67 %65
 *                OpReturn
 *                OpFunctionEnd */
static const uint32_t kUniformsModule[] = {
    0x07230203, 0x00010000, 0x00070000, 0x00000046, 0x00000000, 0x00020011, 0x00000001, 0x0006000b,
    0x00000001, 0x4c534c47, 0x6474732e, 0x3035342e, 0x00000000, 0x0003000e, 0x00000000, 0x00000001,
    0x0006000f, 0x00000005, 0x00000002, 0x6e69616d, 0x00000000, 0x00000003, 0x00060010, 0x00000002,
    0x00000011, 0x00000004, 0x00000001, 0x00000001, 0x00040047, 0x00000003, 0x0000000b, 0x0000001c,
    0x00040047, 0x00000004, 0x00000006, 0x00000004, 0x00050048, 0x00000005, 0x00000000, 0x00000023,
    0x00000000, 0x00030047, 0x00000005, 0x00000003, 0x00040047, 0x00000006, 0x00000022, 0x00000000,
    0x00040047, 0x00000006, 0x00000021, 0x00000000, 0x00040047, 0x00000007, 0x0000001e, 0x00000000,
    0x00040047, 0x00000008, 0x0000001e, 0x00000002, 0x00040047, 0x00000009, 0x0000001e, 0x00000004,
    0x00040047, 0x0000000a, 0x0000001e, 0x00000007, 0x00040047, 0x0000000b, 0x0000001e, 0x00000008,
    0x00040047, 0x0000000c, 0x0000000b, 0x00000019, 0x00020013, 0x0000000d, 0x00030021, 0x0000000e,
    0x0000000d, 0x00040015, 0x0000000f, 0x00000020, 0x00000000, 0x00040020, 0x00000010, 0x00000007,
    0x0000000f, 0x00040017, 0x00000011, 0x0000000f, 0x00000003, 0x00040020, 0x00000012, 0x00000001,
    0x00000011, 0x0004003b, 0x00000012, 0x00000003, 0x00000001, 0x0004002b, 0x0000000f, 0x00000013,
    0x00000000, 0x00040020, 0x00000014, 0x00000001, 0x0000000f, 0x0003001d, 0x00000004, 0x0000000f,
    0x0003001e, 0x00000005, 0x00000004, 0x00040020, 0x00000015, 0x00000002, 0x00000005, 0x0004003b,
    0x00000015, 0x00000006, 0x00000002, 0x00040015, 0x00000016, 0x00000020, 0x00000001, 0x0004002b,
    0x00000016, 0x00000017, 0x00000000, 0x00040020, 0x00000018, 0x00000000, 0x0000000f, 0x0004003b,
    0x00000018, 0x00000007, 0x00000000, 0x00030016, 0x00000019, 0x00000020, 0x00040017, 0x0000001a,
    0x00000019, 0x00000004, 0x0004002b, 0x0000000f, 0x0000001b, 0x00000002, 0x0004001c, 0x0000001c,
    0x0000001a, 0x0000001b, 0x00040020, 0x0000001d, 0x00000000, 0x0000001c, 0x0004003b, 0x0000001d,
    0x00000008, 0x00000000, 0x0004002b, 0x0000000f, 0x0000001e, 0x00000001, 0x00040020, 0x0000001f,
    0x00000000, 0x00000019, 0x00040017, 0x00000020, 0x00000019, 0x00000003, 0x00040018, 0x00000021,
    0x00000020, 0x00000003, 0x00040020, 0x00000022, 0x00000000, 0x00000021, 0x0004003b, 0x00000022,
    0x00000009, 0x00000000, 0x0004002b, 0x00000016, 0x00000023, 0x00000001, 0x00020014, 0x00000024,
    0x00040020, 0x00000025, 0x00000000, 0x00000024, 0x0004003b, 0x00000025, 0x0000000a, 0x00000000,
    0x0004002b, 0x0000000f, 0x00000026, 0x000003e8, 0x00040017, 0x00000027, 0x00000016, 0x00000002,
    0x00040020, 0x00000028, 0x00000000, 0x00000027, 0x0004003b, 0x00000028, 0x0000000b, 0x00000000,
    0x00040020, 0x00000029, 0x00000000, 0x00000016, 0x00040020, 0x0000002a, 0x00000002, 0x0000000f,
    0x0004002b, 0x0000000f, 0x0000002b, 0x00000004, 0x0006002c, 0x00000011, 0x0000000c, 0x0000002b,
    0x0000001e, 0x0000001e, 0x00050036, 0x0000000d, 0x00000002, 0x00000000, 0x0000000e, 0x000200f8,
    0x0000002c, 0x0004003b, 0x00000010, 0x0000002d, 0x00000007, 0x00050041, 0x00000014, 0x0000002e,
    0x00000003, 0x00000013, 0x0004003d, 0x0000000f, 0x0000002f, 0x0000002e, 0x0003003e, 0x0000002d,
    0x0000002f, 0x0004003d, 0x0000000f, 0x00000030, 0x0000002d, 0x0004003d, 0x0000000f, 0x00000031,
    0x0000002d, 0x0004003d, 0x0000000f, 0x00000032, 0x00000007, 0x00050084, 0x0000000f, 0x00000033,
    0x00000031, 0x00000032, 0x0004003d, 0x0000000f, 0x00000034, 0x0000002d, 0x000500c7, 0x0000000f,
    0x00000035, 0x00000034, 0x0000001e, 0x00060041, 0x0000001f, 0x00000036, 0x00000008, 0x00000035,
    0x0000001e, 0x0004003d, 0x00000019, 0x00000037, 0x00000036, 0x0004006d, 0x0000000f, 0x00000038,
    0x00000037, 0x00050080, 0x0000000f, 0x00000039, 0x00000033, 0x00000038, 0x00060041, 0x0000001f,
    0x0000003a, 0x00000009, 0x00000023, 0x0000001b, 0x0004003d, 0x00000019, 0x0000003b, 0x0000003a,
    0x0004006d, 0x0000000f, 0x0000003c, 0x0000003b, 0x00050080, 0x0000000f, 0x0000003d, 0x00000039,
    0x0000003c, 0x0004003d, 0x00000024, 0x0000003e, 0x0000000a, 0x000600a9, 0x0000000f, 0x0000003f,
    0x0000003e, 0x00000026, 0x00000013, 0x00050080, 0x0000000f, 0x00000040, 0x0000003d, 0x0000003f,
    0x00050041, 0x00000029, 0x00000041, 0x0000000b, 0x0000001e, 0x0004003d, 0x00000016, 0x00000042,
    0x00000041, 0x0004007c, 0x0000000f, 0x00000043, 0x00000042, 0x00050080, 0x0000000f, 0x00000044,
    0x00000040, 0x00000043, 0x00060041, 0x0000002a, 0x00000045, 0x00000006, 0x00000017, 0x00000030,
    0x0003003e, 0x00000045, 0x00000044, 0x000100fd, 0x00010038,
};

/* GLSL:
 *   #version 450
 *   layout(local_size_x = 8) in;
 *   layout(binding = 0, offset = 4) uniform atomic_uint ctr;
 *   layout(binding = 2, offset = 8) uniform atomic_uint arr[2];   (compiled at binding 0; Binding 2 by hand)
 *   layout(std430, binding = 1) buffer Out { uint o[]; };
 *   void main() {
 *     uint i = gl_GlobalInvocationID.x;
 *     uint c = atomicCounterIncrement(ctr);
 *     atomicCounterDecrement(arr[i & 1u]);
 *     o[i] = c + 1000u * uint(o.length());
 *   }
 * SPIR-V assembly:
 *                OpCapability Shader
 *                OpCapability AtomicStorage
 *           %1 = OpExtInstImport "GLSL.std.450"
 *                OpMemoryModel Logical GLSL450
 *                OpEntryPoint GLCompute %main "main" %gl_GlobalInvocationID
 *                OpExecutionMode %main LocalSize 8 1 1
 *                OpDecorate %gl_GlobalInvocationID BuiltIn GlobalInvocationId
 *                OpDecorate %ctr Offset 4
 *                OpDecorate %ctr Binding 0
 *                OpDecorate %arr Offset 8
 *                OpDecorate %arr Binding 2
 *                OpDecorate %_runtimearr_uint ArrayStride 4
 *                OpMemberDecorate %Out 0 Offset 0
 *                OpDecorate %Out BufferBlock
 *                OpDecorate %_ DescriptorSet 0
 *                OpDecorate %_ Binding 1
 *                OpDecorate %gl_WorkGroupSize BuiltIn WorkgroupSize
 *        %void = OpTypeVoid
 *           %3 = OpTypeFunction %void
 *        %uint = OpTypeInt 32 0
 * %_ptr_Function_uint = OpTypePointer Function %uint
 *      %v3uint = OpTypeVector %uint 3
 * %_ptr_Input_v3uint = OpTypePointer Input %v3uint
 * %gl_GlobalInvocationID = OpVariable %_ptr_Input_v3uint Input
 *      %uint_0 = OpConstant %uint 0
 * %_ptr_Input_uint = OpTypePointer Input %uint
 * %_ptr_AtomicCounter_uint = OpTypePointer AtomicCounter %uint
 *         %ctr = OpVariable %_ptr_AtomicCounter_uint AtomicCounter
 *      %uint_1 = OpConstant %uint 1
 *      %uint_2 = OpConstant %uint 2
 * %_arr_uint_uint_2 = OpTypeArray %uint %uint_2
 * %_ptr_AtomicCounter__arr_uint_uint_2 = OpTypePointer AtomicCounter %_arr_uint_uint_2
 *         %arr = OpVariable %_ptr_AtomicCounter__arr_uint_uint_2 AtomicCounter
 *         %int = OpTypeInt 32 1
 *       %int_1 = OpConstant %int 1
 * %_runtimearr_uint = OpTypeRuntimeArray %uint
 *         %Out = OpTypeStruct %_runtimearr_uint
 * %_ptr_Uniform_Out = OpTypePointer Uniform %Out
 *           %_ = OpVariable %_ptr_Uniform_Out Uniform
 *       %int_0 = OpConstant %int 0
 *   %uint_1000 = OpConstant %uint 1000
 * %_ptr_Uniform_uint = OpTypePointer Uniform %uint
 *      %uint_8 = OpConstant %uint 8
 * %gl_WorkGroupSize = OpConstantComposite %v3uint %uint_8 %uint_1 %uint_1
 *        %main = OpFunction %void None %3
 *           %5 = OpLabel
 *           %i = OpVariable %_ptr_Function_uint Function
 *           %c = OpVariable %_ptr_Function_uint Function
 *          %14 = OpAccessChain %_ptr_Input_uint %gl_GlobalInvocationID %uint_0
 *          %15 = OpLoad %uint %14
 *                OpStore %i %15
 *          %20 = OpAtomicIIncrement %uint %ctr %uint_1 %uint_0
 *                OpStore %c %20
 *          %25 = OpLoad %uint %i
 *          %26 = OpBitwiseAnd %uint %25 %uint_1
 *          %27 = OpAccessChain %_ptr_AtomicCounter_uint %arr %26
 *          %28 = OpAtomicIDecrement %uint %27 %uint_1 %uint_0
 *          %31 = OpISub %uint %28 %int_1
 *          %37 = OpLoad %uint %i
 *          %38 = OpLoad %uint %c
 *          %40 = OpArrayLength %uint %_ 0
 *          %41 = OpBitcast %int %40
 *          %42 = OpBitcast %uint %41
 *          %43 = OpIMul %uint %uint_1000 %42
 *          %44 = OpIAdd %uint %38 %43
 *          %46 = OpAccessChain %_ptr_Uniform_uint %_ %int_0 %37
 *                OpStore %46 %44
 *                OpReturn
 *                OpFunctionEnd */
static const uint32_t kCountersModule[] = {
    0x07230203, 0x00010000, 0x00070000, 0x00000031, 0x00000000, 0x00020011, 0x00000001, 0x00020011,
    0x00000015, 0x0006000b, 0x00000001, 0x4c534c47, 0x6474732e, 0x3035342e, 0x00000000, 0x0003000e,
    0x00000000, 0x00000001, 0x0006000f, 0x00000005, 0x00000002, 0x6e69616d, 0x00000000, 0x00000003,
    0x00060010, 0x00000002, 0x00000011, 0x00000008, 0x00000001, 0x00000001, 0x00040047, 0x00000003,
    0x0000000b, 0x0000001c, 0x00040047, 0x00000004, 0x00000023, 0x00000004, 0x00040047, 0x00000004,
    0x00000021, 0x00000000, 0x00040047, 0x00000005, 0x00000023, 0x00000008, 0x00040047, 0x00000005,
    0x00000021, 0x00000002, 0x00040047, 0x00000006, 0x00000006, 0x00000004, 0x00050048, 0x00000007,
    0x00000000, 0x00000023, 0x00000000, 0x00030047, 0x00000007, 0x00000003, 0x00040047, 0x00000008,
    0x00000022, 0x00000000, 0x00040047, 0x00000008, 0x00000021, 0x00000001, 0x00040047, 0x00000009,
    0x0000000b, 0x00000019, 0x00020013, 0x0000000a, 0x00030021, 0x0000000b, 0x0000000a, 0x00040015,
    0x0000000c, 0x00000020, 0x00000000, 0x00040020, 0x0000000d, 0x00000007, 0x0000000c, 0x00040017,
    0x0000000e, 0x0000000c, 0x00000003, 0x00040020, 0x0000000f, 0x00000001, 0x0000000e, 0x0004003b,
    0x0000000f, 0x00000003, 0x00000001, 0x0004002b, 0x0000000c, 0x00000010, 0x00000000, 0x00040020,
    0x00000011, 0x00000001, 0x0000000c, 0x00040020, 0x00000012, 0x0000000a, 0x0000000c, 0x0004003b,
    0x00000012, 0x00000004, 0x0000000a, 0x0004002b, 0x0000000c, 0x00000013, 0x00000001, 0x0004002b,
    0x0000000c, 0x00000014, 0x00000002, 0x0004001c, 0x00000015, 0x0000000c, 0x00000014, 0x00040020,
    0x00000016, 0x0000000a, 0x00000015, 0x0004003b, 0x00000016, 0x00000005, 0x0000000a, 0x00040015,
    0x00000017, 0x00000020, 0x00000001, 0x0004002b, 0x00000017, 0x00000018, 0x00000001, 0x0003001d,
    0x00000006, 0x0000000c, 0x0003001e, 0x00000007, 0x00000006, 0x00040020, 0x00000019, 0x00000002,
    0x00000007, 0x0004003b, 0x00000019, 0x00000008, 0x00000002, 0x0004002b, 0x00000017, 0x0000001a,
    0x00000000, 0x0004002b, 0x0000000c, 0x0000001b, 0x000003e8, 0x00040020, 0x0000001c, 0x00000002,
    0x0000000c, 0x0004002b, 0x0000000c, 0x0000001d, 0x00000008, 0x0006002c, 0x0000000e, 0x00000009,
    0x0000001d, 0x00000013, 0x00000013, 0x00050036, 0x0000000a, 0x00000002, 0x00000000, 0x0000000b,
    0x000200f8, 0x0000001e, 0x0004003b, 0x0000000d, 0x0000001f, 0x00000007, 0x0004003b, 0x0000000d,
    0x00000020, 0x00000007, 0x00050041, 0x00000011, 0x00000021, 0x00000003, 0x00000010, 0x0004003d,
    0x0000000c, 0x00000022, 0x00000021, 0x0003003e, 0x0000001f, 0x00000022, 0x000600e8, 0x0000000c,
    0x00000023, 0x00000004, 0x00000013, 0x00000010, 0x0003003e, 0x00000020, 0x00000023, 0x0004003d,
    0x0000000c, 0x00000024, 0x0000001f, 0x000500c7, 0x0000000c, 0x00000025, 0x00000024, 0x00000013,
    0x00050041, 0x00000012, 0x00000026, 0x00000005, 0x00000025, 0x000600e9, 0x0000000c, 0x00000027,
    0x00000026, 0x00000013, 0x00000010, 0x00050082, 0x0000000c, 0x00000028, 0x00000027, 0x00000018,
    0x0004003d, 0x0000000c, 0x00000029, 0x0000001f, 0x0004003d, 0x0000000c, 0x0000002a, 0x00000020,
    0x00050044, 0x0000000c, 0x0000002b, 0x00000008, 0x00000000, 0x0004007c, 0x00000017, 0x0000002c,
    0x0000002b, 0x0004007c, 0x0000000c, 0x0000002d, 0x0000002c, 0x00050084, 0x0000000c, 0x0000002e,
    0x0000001b, 0x0000002d, 0x00050080, 0x0000000c, 0x0000002f, 0x0000002a, 0x0000002e, 0x00060041,
    0x0000001c, 0x00000030, 0x00000008, 0x0000001a, 0x00000029, 0x0003003e, 0x00000030, 0x0000002f,
    0x000100fd, 0x00010038,
};

#endif
