// OpenGL SPIR-V test modules (ARB_gl_spirv) as SPIR-V assembly: glslangValidator -G --target-env opengl of the
// GLSL in each comment, disassembled without debug-source lines, so the tests need no GLSL compiler at run time.
// Hand edits are named in the comments.
#pragma once

namespace bismuth::test::gl_spirv {

// #version 450
// layout(local_size_x = 4) in;
// layout(location = 0) uniform uint mul;
// layout(location = 2) uniform vec4 offs[2];
// layout(location = 4) uniform mat3 m;
// layout(location = 7) uniform bool flag;
// layout(location = 8) uniform ivec2 iv;
// layout(std430, binding = 0) buffer Out { uint o[]; };
// void main() {
//   uint i = gl_GlobalInvocationID.x;
//   o[i] = i * mul + uint(offs[i & 1u].y) + uint(m[1][2]) + (flag ? 1000u : 0u) + uint(iv.y);
// }
inline constexpr const char* kDefaultUniforms = R"(
               OpCapability Shader
          %1 = OpExtInstImport "GLSL.std.450"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %gl_GlobalInvocationID
               OpExecutionMode %main LocalSize 4 1 1
               OpName %main "main"
               OpName %i "i"
               OpName %gl_GlobalInvocationID "gl_GlobalInvocationID"
               OpName %Out "Out"
               OpMemberName %Out 0 "o"
               OpName %_ ""
               OpName %mul "mul"
               OpName %offs "offs"
               OpName %m "m"
               OpName %flag "flag"
               OpName %iv "iv"
               OpDecorate %gl_GlobalInvocationID BuiltIn GlobalInvocationId
               OpDecorate %_runtimearr_uint ArrayStride 4
               OpMemberDecorate %Out 0 Offset 0
               OpDecorate %Out BufferBlock
               OpDecorate %_ DescriptorSet 0
               OpDecorate %_ Binding 0
               OpDecorate %mul Location 0
               OpDecorate %offs Location 2
               OpDecorate %m Location 4
               OpDecorate %flag Location 7
               OpDecorate %iv Location 8
               OpDecorate %gl_WorkGroupSize BuiltIn WorkgroupSize
       %void = OpTypeVoid
          %3 = OpTypeFunction %void
       %uint = OpTypeInt 32 0
%_ptr_Function_uint = OpTypePointer Function %uint
     %v3uint = OpTypeVector %uint 3
%_ptr_Input_v3uint = OpTypePointer Input %v3uint
%gl_GlobalInvocationID = OpVariable %_ptr_Input_v3uint Input
     %uint_0 = OpConstant %uint 0
%_ptr_Input_uint = OpTypePointer Input %uint
%_runtimearr_uint = OpTypeRuntimeArray %uint
        %Out = OpTypeStruct %_runtimearr_uint
%_ptr_Uniform_Out = OpTypePointer Uniform %Out
          %_ = OpVariable %_ptr_Uniform_Out Uniform
        %int = OpTypeInt 32 1
      %int_0 = OpConstant %int 0
%_ptr_UniformConstant_uint = OpTypePointer UniformConstant %uint
        %mul = OpVariable %_ptr_UniformConstant_uint UniformConstant
      %float = OpTypeFloat 32
    %v4float = OpTypeVector %float 4
     %uint_2 = OpConstant %uint 2
%_arr_v4float_uint_2 = OpTypeArray %v4float %uint_2
%_ptr_UniformConstant__arr_v4float_uint_2 = OpTypePointer UniformConstant %_arr_v4float_uint_2
       %offs = OpVariable %_ptr_UniformConstant__arr_v4float_uint_2 UniformConstant
     %uint_1 = OpConstant %uint 1
%_ptr_UniformConstant_float = OpTypePointer UniformConstant %float
    %v3float = OpTypeVector %float 3
%mat3v3float = OpTypeMatrix %v3float 3
%_ptr_UniformConstant_mat3v3float = OpTypePointer UniformConstant %mat3v3float
          %m = OpVariable %_ptr_UniformConstant_mat3v3float UniformConstant
      %int_1 = OpConstant %int 1
       %bool = OpTypeBool
%_ptr_UniformConstant_bool = OpTypePointer UniformConstant %bool
       %flag = OpVariable %_ptr_UniformConstant_bool UniformConstant
  %uint_1000 = OpConstant %uint 1000
      %v2int = OpTypeVector %int 2
%_ptr_UniformConstant_v2int = OpTypePointer UniformConstant %v2int
         %iv = OpVariable %_ptr_UniformConstant_v2int UniformConstant
%_ptr_UniformConstant_int = OpTypePointer UniformConstant %int
%_ptr_Uniform_uint = OpTypePointer Uniform %uint
     %uint_4 = OpConstant %uint 4
%gl_WorkGroupSize = OpConstantComposite %v3uint %uint_4 %uint_1 %uint_1
       %main = OpFunction %void None %3
          %5 = OpLabel
          %i = OpVariable %_ptr_Function_uint Function
         %14 = OpAccessChain %_ptr_Input_uint %gl_GlobalInvocationID %uint_0
         %15 = OpLoad %uint %14
               OpStore %i %15
         %22 = OpLoad %uint %i
         %23 = OpLoad %uint %i
         %26 = OpLoad %uint %mul
         %27 = OpIMul %uint %23 %26
         %34 = OpLoad %uint %i
         %36 = OpBitwiseAnd %uint %34 %uint_1
         %38 = OpAccessChain %_ptr_UniformConstant_float %offs %36 %uint_1
         %39 = OpLoad %float %38
         %40 = OpConvertFToU %uint %39
         %41 = OpIAdd %uint %27 %40
         %47 = OpAccessChain %_ptr_UniformConstant_float %m %int_1 %uint_2
         %48 = OpLoad %float %47
         %49 = OpConvertFToU %uint %48
         %50 = OpIAdd %uint %41 %49
         %54 = OpLoad %bool %flag
         %56 = OpSelect %uint %54 %uint_1000 %uint_0
         %57 = OpIAdd %uint %50 %56
         %62 = OpAccessChain %_ptr_UniformConstant_int %iv %uint_1
         %63 = OpLoad %int %62
         %64 = OpBitcast %uint %63
         %65 = OpIAdd %uint %57 %64
         %67 = OpAccessChain %_ptr_Uniform_uint %_ %int_0 %22
               OpStore %67 %65
               OpReturn
               OpFunctionEnd
)";

// #version 450
// layout(local_size_x = 8) in;
// layout(binding = 0, offset = 4) uniform atomic_uint ctr;
// layout(binding = 2, offset = 8) uniform atomic_uint arr[2];
// layout(std430, binding = 1) buffer Out { uint o[]; };
// void main() {
//   uint i = gl_GlobalInvocationID.x;
//   uint c = atomicCounterIncrement(ctr);
//   atomicCounterDecrement(arr[i & 1u]);
//   o[i] = c + 1000u * uint(o.length());
// }
// (compiled with arr at binding 0, glslang's default gl_MaxAtomicCounterBindings being 1; Binding 2 written by hand)
inline constexpr const char* kAtomicCounters = R"(
               OpCapability Shader
               OpCapability AtomicStorage
          %1 = OpExtInstImport "GLSL.std.450"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %gl_GlobalInvocationID
               OpExecutionMode %main LocalSize 8 1 1
               OpName %main "main"
               OpName %i "i"
               OpName %gl_GlobalInvocationID "gl_GlobalInvocationID"
               OpName %c "c"
               OpName %ctr "ctr"
               OpName %arr "arr"
               OpName %Out "Out"
               OpMemberName %Out 0 "o"
               OpName %_ ""
               OpDecorate %gl_GlobalInvocationID BuiltIn GlobalInvocationId
               OpDecorate %ctr Offset 4
               OpDecorate %ctr Binding 0
               OpDecorate %arr Offset 8
               OpDecorate %arr Binding 2
               OpDecorate %_runtimearr_uint ArrayStride 4
               OpMemberDecorate %Out 0 Offset 0
               OpDecorate %Out BufferBlock
               OpDecorate %_ DescriptorSet 0
               OpDecorate %_ Binding 1
               OpDecorate %gl_WorkGroupSize BuiltIn WorkgroupSize
       %void = OpTypeVoid
          %3 = OpTypeFunction %void
       %uint = OpTypeInt 32 0
%_ptr_Function_uint = OpTypePointer Function %uint
     %v3uint = OpTypeVector %uint 3
%_ptr_Input_v3uint = OpTypePointer Input %v3uint
%gl_GlobalInvocationID = OpVariable %_ptr_Input_v3uint Input
     %uint_0 = OpConstant %uint 0
%_ptr_Input_uint = OpTypePointer Input %uint
%_ptr_AtomicCounter_uint = OpTypePointer AtomicCounter %uint
        %ctr = OpVariable %_ptr_AtomicCounter_uint AtomicCounter
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
%_arr_uint_uint_2 = OpTypeArray %uint %uint_2
%_ptr_AtomicCounter__arr_uint_uint_2 = OpTypePointer AtomicCounter %_arr_uint_uint_2
        %arr = OpVariable %_ptr_AtomicCounter__arr_uint_uint_2 AtomicCounter
        %int = OpTypeInt 32 1
      %int_1 = OpConstant %int 1
%_runtimearr_uint = OpTypeRuntimeArray %uint
        %Out = OpTypeStruct %_runtimearr_uint
%_ptr_Uniform_Out = OpTypePointer Uniform %Out
          %_ = OpVariable %_ptr_Uniform_Out Uniform
      %int_0 = OpConstant %int 0
  %uint_1000 = OpConstant %uint 1000
%_ptr_Uniform_uint = OpTypePointer Uniform %uint
     %uint_8 = OpConstant %uint 8
%gl_WorkGroupSize = OpConstantComposite %v3uint %uint_8 %uint_1 %uint_1
       %main = OpFunction %void None %3
          %5 = OpLabel
          %i = OpVariable %_ptr_Function_uint Function
          %c = OpVariable %_ptr_Function_uint Function
         %14 = OpAccessChain %_ptr_Input_uint %gl_GlobalInvocationID %uint_0
         %15 = OpLoad %uint %14
               OpStore %i %15
         %20 = OpAtomicIIncrement %uint %ctr %uint_1 %uint_0
               OpStore %c %20
         %25 = OpLoad %uint %i
         %26 = OpBitwiseAnd %uint %25 %uint_1
         %27 = OpAccessChain %_ptr_AtomicCounter_uint %arr %26
         %28 = OpAtomicIDecrement %uint %27 %uint_1 %uint_0
         %31 = OpISub %uint %28 %int_1
         %37 = OpLoad %uint %i
         %38 = OpLoad %uint %c
         %40 = OpArrayLength %uint %_ 0
         %41 = OpBitcast %int %40
         %42 = OpBitcast %uint %41
         %43 = OpIMul %uint %uint_1000 %42
         %44 = OpIAdd %uint %38 %43
         %46 = OpAccessChain %_ptr_Uniform_uint %_ %int_0 %37
               OpStore %46 %44
               OpReturn
               OpFunctionEnd
)";

// #version 450
// layout(local_size_x_id = 4, local_size_y = 1, local_size_z = 1) in;
// layout(std430, binding = 0) buffer Out { uint o[]; };
// void main() { o[gl_GlobalInvocationID.x] = gl_WorkGroupSize.x * 100u + gl_LocalInvocationID.x; }
inline constexpr const char* kSpecializedSize = R"(
               OpCapability Shader
          %1 = OpExtInstImport "GLSL.std.450"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %gl_GlobalInvocationID %gl_LocalInvocationID
               OpExecutionMode %main LocalSize 1 1 1
               OpName %main "main"
               OpName %Out "Out"
               OpMemberName %Out 0 "o"
               OpName %_ ""
               OpName %gl_GlobalInvocationID "gl_GlobalInvocationID"
               OpName %gl_LocalInvocationID "gl_LocalInvocationID"
               OpDecorate %_runtimearr_uint ArrayStride 4
               OpMemberDecorate %Out 0 Offset 0
               OpDecorate %Out BufferBlock
               OpDecorate %_ DescriptorSet 0
               OpDecorate %_ Binding 0
               OpDecorate %gl_GlobalInvocationID BuiltIn GlobalInvocationId
               OpDecorate %20 SpecId 4
               OpDecorate %gl_WorkGroupSize BuiltIn WorkgroupSize
               OpDecorate %gl_LocalInvocationID BuiltIn LocalInvocationId
       %void = OpTypeVoid
          %3 = OpTypeFunction %void
       %uint = OpTypeInt 32 0
%_runtimearr_uint = OpTypeRuntimeArray %uint
        %Out = OpTypeStruct %_runtimearr_uint
%_ptr_Uniform_Out = OpTypePointer Uniform %Out
          %_ = OpVariable %_ptr_Uniform_Out Uniform
        %int = OpTypeInt 32 1
      %int_0 = OpConstant %int 0
     %v3uint = OpTypeVector %uint 3
%_ptr_Input_v3uint = OpTypePointer Input %v3uint
%gl_GlobalInvocationID = OpVariable %_ptr_Input_v3uint Input
     %uint_0 = OpConstant %uint 0
%_ptr_Input_uint = OpTypePointer Input %uint
         %20 = OpSpecConstant %uint 1
     %uint_1 = OpConstant %uint 1
%gl_WorkGroupSize = OpSpecConstantComposite %v3uint %20 %uint_1 %uint_1
         %23 = OpSpecConstantOp %uint CompositeExtract %gl_WorkGroupSize 0
   %uint_100 = OpConstant %uint 100
         %25 = OpSpecConstantOp %uint IMul %23 %uint_100
%gl_LocalInvocationID = OpVariable %_ptr_Input_v3uint Input
%_ptr_Uniform_uint = OpTypePointer Uniform %uint
       %main = OpFunction %void None %3
          %5 = OpLabel
         %18 = OpAccessChain %_ptr_Input_uint %gl_GlobalInvocationID %uint_0
         %19 = OpLoad %uint %18
         %27 = OpAccessChain %_ptr_Input_uint %gl_LocalInvocationID %uint_0
         %28 = OpLoad %uint %27
         %29 = OpIAdd %uint %25 %28
         %31 = OpAccessChain %_ptr_Uniform_uint %_ %int_0 %19
               OpStore %31 %29
               OpReturn
               OpFunctionEnd
)";

// kSpecializedSize with the size stated as SPIR-V 1.2's LocalSizeId (hand edit: OpExecutionModeId instead of
// LocalSize and the WorkgroupSize built-in decoration removed). Assemble for SPIR-V 1.2 or later.
inline constexpr const char* kLocalSizeId = R"(
               OpCapability Shader
          %1 = OpExtInstImport "GLSL.std.450"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %gl_GlobalInvocationID %gl_LocalInvocationID
               OpExecutionModeId %main LocalSizeId %20 %uint_1 %uint_1
               OpName %main "main"
               OpName %Out "Out"
               OpMemberName %Out 0 "o"
               OpName %_ ""
               OpName %gl_GlobalInvocationID "gl_GlobalInvocationID"
               OpName %gl_LocalInvocationID "gl_LocalInvocationID"
               OpDecorate %_runtimearr_uint ArrayStride 4
               OpMemberDecorate %Out 0 Offset 0
               OpDecorate %Out BufferBlock
               OpDecorate %_ DescriptorSet 0
               OpDecorate %_ Binding 0
               OpDecorate %gl_GlobalInvocationID BuiltIn GlobalInvocationId
               OpDecorate %20 SpecId 4
               OpDecorate %gl_LocalInvocationID BuiltIn LocalInvocationId
       %void = OpTypeVoid
          %3 = OpTypeFunction %void
       %uint = OpTypeInt 32 0
%_runtimearr_uint = OpTypeRuntimeArray %uint
        %Out = OpTypeStruct %_runtimearr_uint
%_ptr_Uniform_Out = OpTypePointer Uniform %Out
          %_ = OpVariable %_ptr_Uniform_Out Uniform
        %int = OpTypeInt 32 1
      %int_0 = OpConstant %int 0
     %v3uint = OpTypeVector %uint 3
%_ptr_Input_v3uint = OpTypePointer Input %v3uint
%gl_GlobalInvocationID = OpVariable %_ptr_Input_v3uint Input
     %uint_0 = OpConstant %uint 0
%_ptr_Input_uint = OpTypePointer Input %uint
         %20 = OpSpecConstant %uint 1
     %uint_1 = OpConstant %uint 1
%gl_WorkGroupSize = OpSpecConstantComposite %v3uint %20 %uint_1 %uint_1
         %23 = OpSpecConstantOp %uint CompositeExtract %gl_WorkGroupSize 0
   %uint_100 = OpConstant %uint 100
         %25 = OpSpecConstantOp %uint IMul %23 %uint_100
%gl_LocalInvocationID = OpVariable %_ptr_Input_v3uint Input
%_ptr_Uniform_uint = OpTypePointer Uniform %uint
       %main = OpFunction %void None %3
          %5 = OpLabel
         %18 = OpAccessChain %_ptr_Input_uint %gl_GlobalInvocationID %uint_0
         %19 = OpLoad %uint %18
         %27 = OpAccessChain %_ptr_Input_uint %gl_LocalInvocationID %uint_0
         %28 = OpLoad %uint %27
         %29 = OpIAdd %uint %25 %28
         %31 = OpAccessChain %_ptr_Uniform_uint %_ %int_0 %19
               OpStore %31 %29
               OpReturn
               OpFunctionEnd
)";

// #version 450
// #extension GL_ARB_shader_ballot : require
// #extension GL_ARB_shader_group_vote : require
// layout(local_size_x = 64) in;
// layout(std430, binding = 0) buffer Out { uint o[]; };
// void main() {
//   uint i = gl_LocalInvocationID.x;
//   bool all_small = allInvocationsARB(i < 64u);
//   bool any_big = anyInvocationARB(i >= 64u);
//   o[i] = (all_small ? 1u : 0u) + (any_big ? 2u : 0u) + (readFirstInvocationARB(i + 7u) << 4);
// }
inline constexpr const char* kBallotVote = R"(
               OpCapability Shader
               OpCapability SubgroupBallotKHR
               OpCapability SubgroupVoteKHR
               OpExtension "SPV_KHR_shader_ballot"
               OpExtension "SPV_KHR_subgroup_vote"
          %1 = OpExtInstImport "GLSL.std.450"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %gl_LocalInvocationID
               OpExecutionMode %main LocalSize 64 1 1
               OpName %main "main"
               OpName %i "i"
               OpName %gl_LocalInvocationID "gl_LocalInvocationID"
               OpName %all_small "all_small"
               OpName %any_big "any_big"
               OpName %Out "Out"
               OpMemberName %Out 0 "o"
               OpName %_ ""
               OpDecorate %gl_LocalInvocationID BuiltIn LocalInvocationId
               OpDecorate %_runtimearr_uint ArrayStride 4
               OpMemberDecorate %Out 0 Offset 0
               OpDecorate %Out BufferBlock
               OpDecorate %_ DescriptorSet 0
               OpDecorate %_ Binding 0
               OpDecorate %gl_WorkGroupSize BuiltIn WorkgroupSize
       %void = OpTypeVoid
          %3 = OpTypeFunction %void
       %uint = OpTypeInt 32 0
%_ptr_Function_uint = OpTypePointer Function %uint
     %v3uint = OpTypeVector %uint 3
%_ptr_Input_v3uint = OpTypePointer Input %v3uint
%gl_LocalInvocationID = OpVariable %_ptr_Input_v3uint Input
     %uint_0 = OpConstant %uint 0
%_ptr_Input_uint = OpTypePointer Input %uint
       %bool = OpTypeBool
%_ptr_Function_bool = OpTypePointer Function %bool
    %uint_64 = OpConstant %uint 64
%_runtimearr_uint = OpTypeRuntimeArray %uint
        %Out = OpTypeStruct %_runtimearr_uint
%_ptr_Uniform_Out = OpTypePointer Uniform %Out
          %_ = OpVariable %_ptr_Uniform_Out Uniform
        %int = OpTypeInt 32 1
      %int_0 = OpConstant %int 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
     %uint_7 = OpConstant %uint 7
      %int_4 = OpConstant %int 4
%_ptr_Uniform_uint = OpTypePointer Uniform %uint
%gl_WorkGroupSize = OpConstantComposite %v3uint %uint_64 %uint_1 %uint_1
       %main = OpFunction %void None %3
          %5 = OpLabel
          %i = OpVariable %_ptr_Function_uint Function
  %all_small = OpVariable %_ptr_Function_bool Function
    %any_big = OpVariable %_ptr_Function_bool Function
         %14 = OpAccessChain %_ptr_Input_uint %gl_LocalInvocationID %uint_0
         %15 = OpLoad %uint %14
               OpStore %i %15
         %19 = OpLoad %uint %i
         %21 = OpULessThan %bool %19 %uint_64
         %22 = OpSubgroupAllKHR %bool %21
               OpStore %all_small %22
         %24 = OpLoad %uint %i
         %25 = OpUGreaterThanEqual %bool %24 %uint_64
         %26 = OpSubgroupAnyKHR %bool %25
               OpStore %any_big %26
         %33 = OpLoad %uint %i
         %34 = OpLoad %bool %all_small
         %36 = OpSelect %uint %34 %uint_1 %uint_0
         %37 = OpLoad %bool %any_big
         %39 = OpSelect %uint %37 %uint_2 %uint_0
         %40 = OpIAdd %uint %36 %39
         %41 = OpLoad %uint %i
         %43 = OpIAdd %uint %41 %uint_7
         %44 = OpSubgroupFirstInvocationKHR %uint %43
         %46 = OpShiftLeftLogical %uint %44 %int_4
         %47 = OpIAdd %uint %40 %46
         %49 = OpAccessChain %_ptr_Uniform_uint %_ %int_0 %33
               OpStore %49 %47
               OpReturn
               OpFunctionEnd
)";

// #version 450
// layout(local_size_x = 4) in;
// struct Inner { float x; mat2 m; };
// struct S { float a; vec2 b[2]; uint c; Inner inner[2]; };
// layout(location = 1) uniform S s;
// layout(location = 0) uniform int first;
// layout(std430, binding = 0) buffer Out { uint o[]; };
// void main() {
//   uint i = gl_GlobalInvocationID.x;
//   S t = s;
//   o[i] = uint(first) + uint(t.a) + uint(s.b[i & 1u].y) + s.c + uint(s.inner[i & 1u].m[1][0]) + uint(t.inner[1].x);
// }
inline constexpr const char* kStructUniforms = R"(
               OpCapability Shader
          %1 = OpExtInstImport "GLSL.std.450"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %gl_GlobalInvocationID
               OpExecutionMode %main LocalSize 4 1 1
               OpName %main "main"
               OpName %i "i"
               OpName %gl_GlobalInvocationID "gl_GlobalInvocationID"
               OpName %Inner "Inner"
               OpMemberName %Inner 0 "x"
               OpMemberName %Inner 1 "m"
               OpName %S "S"
               OpMemberName %S 0 "a"
               OpMemberName %S 1 "b"
               OpMemberName %S 2 "c"
               OpMemberName %S 3 "inner"
               OpName %t "t"
               OpName %s "s"
               OpName %Out "Out"
               OpMemberName %Out 0 "o"
               OpName %_ ""
               OpName %first "first"
               OpDecorate %gl_GlobalInvocationID BuiltIn GlobalInvocationId
               OpDecorate %s Location 1
               OpDecorate %_runtimearr_uint ArrayStride 4
               OpMemberDecorate %Out 0 Offset 0
               OpDecorate %Out BufferBlock
               OpDecorate %_ DescriptorSet 0
               OpDecorate %_ Binding 0
               OpDecorate %first Location 0
               OpDecorate %gl_WorkGroupSize BuiltIn WorkgroupSize
       %void = OpTypeVoid
          %3 = OpTypeFunction %void
       %uint = OpTypeInt 32 0
%_ptr_Function_uint = OpTypePointer Function %uint
     %v3uint = OpTypeVector %uint 3
%_ptr_Input_v3uint = OpTypePointer Input %v3uint
%gl_GlobalInvocationID = OpVariable %_ptr_Input_v3uint Input
     %uint_0 = OpConstant %uint 0
%_ptr_Input_uint = OpTypePointer Input %uint
      %float = OpTypeFloat 32
    %v2float = OpTypeVector %float 2
     %uint_2 = OpConstant %uint 2
%_arr_v2float_uint_2 = OpTypeArray %v2float %uint_2
%mat2v2float = OpTypeMatrix %v2float 2
      %Inner = OpTypeStruct %float %mat2v2float
%_arr_Inner_uint_2 = OpTypeArray %Inner %uint_2
          %S = OpTypeStruct %float %_arr_v2float_uint_2 %uint %_arr_Inner_uint_2
%_ptr_Function_S = OpTypePointer Function %S
%_ptr_UniformConstant_S = OpTypePointer UniformConstant %S
          %s = OpVariable %_ptr_UniformConstant_S UniformConstant
%_runtimearr_uint = OpTypeRuntimeArray %uint
        %Out = OpTypeStruct %_runtimearr_uint
%_ptr_Uniform_Out = OpTypePointer Uniform %Out
          %_ = OpVariable %_ptr_Uniform_Out Uniform
        %int = OpTypeInt 32 1
      %int_0 = OpConstant %int 0
%_ptr_UniformConstant_int = OpTypePointer UniformConstant %int
      %first = OpVariable %_ptr_UniformConstant_int UniformConstant
%_ptr_Function_float = OpTypePointer Function %float
      %int_1 = OpConstant %int 1
     %uint_1 = OpConstant %uint 1
%_ptr_UniformConstant_float = OpTypePointer UniformConstant %float
      %int_2 = OpConstant %int 2
%_ptr_UniformConstant_uint = OpTypePointer UniformConstant %uint
      %int_3 = OpConstant %int 3
%_ptr_Uniform_uint = OpTypePointer Uniform %uint
     %uint_4 = OpConstant %uint 4
%gl_WorkGroupSize = OpConstantComposite %v3uint %uint_4 %uint_1 %uint_1
       %main = OpFunction %void None %3
          %5 = OpLabel
          %i = OpVariable %_ptr_Function_uint Function
          %t = OpVariable %_ptr_Function_S Function
         %14 = OpAccessChain %_ptr_Input_uint %gl_GlobalInvocationID %uint_0
         %15 = OpLoad %uint %14
               OpStore %i %15
         %28 = OpLoad %S %s
               OpStore %t %28
         %35 = OpLoad %uint %i
         %38 = OpLoad %int %first
         %39 = OpBitcast %uint %38
         %41 = OpAccessChain %_ptr_Function_float %t %int_0
         %42 = OpLoad %float %41
         %43 = OpConvertFToU %uint %42
         %44 = OpIAdd %uint %39 %43
         %46 = OpLoad %uint %i
         %48 = OpBitwiseAnd %uint %46 %uint_1
         %50 = OpAccessChain %_ptr_UniformConstant_float %s %int_1 %48 %uint_1
         %51 = OpLoad %float %50
         %52 = OpConvertFToU %uint %51
         %53 = OpIAdd %uint %44 %52
         %56 = OpAccessChain %_ptr_UniformConstant_uint %s %int_2
         %57 = OpLoad %uint %56
         %58 = OpIAdd %uint %53 %57
         %60 = OpLoad %uint %i
         %61 = OpBitwiseAnd %uint %60 %uint_1
         %62 = OpAccessChain %_ptr_UniformConstant_float %s %int_3 %61 %int_1 %int_1 %uint_0
         %63 = OpLoad %float %62
         %64 = OpConvertFToU %uint %63
         %65 = OpIAdd %uint %58 %64
         %66 = OpAccessChain %_ptr_Function_float %t %int_3 %int_1 %int_0
         %67 = OpLoad %float %66
         %68 = OpConvertFToU %uint %67
         %69 = OpIAdd %uint %65 %68
         %71 = OpAccessChain %_ptr_Uniform_uint %_ %int_0 %35
               OpStore %71 %69
               OpReturn
               OpFunctionEnd
)";

}  // namespace bismuth::test::gl_spirv
