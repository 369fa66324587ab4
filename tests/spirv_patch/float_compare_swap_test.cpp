// lower_float_compare_swap: GL_INTEL_shader_atomic_float_minmax's "float atomicCompSwap(inout float mem, float
// compare, float data)" as glslang emits it through the front's marker declaration, lowered to SPIR-V's integer
// OpAtomicCompareExchange ("Result Type must be an integer type scalar", SPIR-V 1.6 section 3.42.18) on a uint view
// of the same memory, inside a loop that compares as floats: GLSL 4.60 section 8.11 swaps "If the content of mem is
// equal to compare", and float equality is OpFOrdEqual (a NaN equals nothing, -0.0 equals +0.0), not equality of
// bits. The loop splits the marker's block, so markers sit in loops, branches, selection and loop headers and
// continue targets here. Every lowered module must pass spirv-val; the refusals name the variable.
#include <catch2/catch.hpp>

#include <string>

#include "bismuth/spirv_patch/passes/float_compare_swap.hpp"
#include "bismuth/spirv_patch/pipeline.hpp"
#include "shader_sources.hpp"

using bismuth::spirv_patch::kFloatCompareSwapGlslDeclaration;
using bismuth::spirv_patch::kFloatCompareSwapSet;
using bismuth::spirv_patch::lower_float_compare_swap;
using bismuth::spirv_patch::Module;
using bismuth::spirv_patch::Section;
using bismuth::spirv_patch::TargetEnv;
using bismuth::test::assemble_or_fail;
using bismuth::test::compile_or_fail;
using bismuth::test::count_op;

namespace {

// `body` after "#version 450" and the front's declaration, as the GLSL front gives glslang a shader that enables
// GL_INTEL_shader_atomic_float_minmax.
std::vector<uint32_t> compile_with_marker(const std::string& body, TargetEnv target = TargetEnv::Vulkan1_1) {
  return compile_or_fail("#version 450\n" + std::string(kFloatCompareSwapGlslDeclaration) + body, target);
}

// Every OpAtomicCompareExchange is the swap step of a float-equality loop: its Comparator is an OpAtomicLoad of
// the same pointer, and that load, as a float, is compared with OpFOrdEqual. Returns how many there are.
size_t float_equality_loops(const std::vector<uint32_t>& words) {
  auto module = Module::parse(words);
  REQUIRE(module);
  size_t loops = 0;
  for (auto h : module->instructions()) {
    if (module->opcode(h) != spv::Op::OpAtomicCompareExchange) continue;
    const auto cas = module->words(h);
    auto load = module->definition(cas[8]);
    REQUIRE(load);
    REQUIRE(module->opcode(*load) == spv::Op::OpAtomicLoad);
    CHECK(module->words(*load)[3] == cas[3]);
    bool compared = false;
    for (auto b : module->instructions()) {
      if (module->opcode(b) != spv::Op::OpBitcast || module->words(b)[3] != cas[8]) continue;
      const uint32_t as_float = module->words(b)[2];
      for (auto e : module->instructions()) {
        const auto w = module->words(e);
        compared |= module->opcode(e) == spv::Op::OpFOrdEqual && (w[3] == as_float || w[4] == as_float);
      }
    }
    CHECK(compared);
    // The result after the loop: the loaded word when unequal, the exchange's result when it swapped (two distinct
    // values; lavapipe mishandled an OpPhi of the load twice).
    bool merged = false;
    for (auto p : module->instructions()) {
      const auto w = module->words(p);
      merged |= module->opcode(p) == spv::Op::OpPhi && w.size() == 7 && w[3] == cas[8] && w[5] == cas[2];
    }
    CHECK(merged);
    ++loops;
  }
  return loops;
}

bool mentions_marker_set(const std::vector<uint32_t>& words) {
  auto text = bismuth::spirv_patch::disassemble(words);
  REQUIRE(text);
  return text->find(std::string(kFloatCompareSwapSet)) != std::string::npos;
}

// Buffer members reached through a struct offset, a dynamically indexed array, a column-major matrix, a vector
// component and an array of blocks indexed at run time.
const char* kBuffer = R"(
layout(local_size_x = 64) in;
layout(std430, binding = 3) buffer Result {
  vec3 pad;
  float total;
  float group_max[4];
  mat2 m;
  vec4 v;
};
layout(std430, binding = 5) buffer Many { float values[]; } many[2];
void main() {
  uint g = gl_WorkGroupID.x;
  float a = atomicCompSwap(total, 0.0, 1.0);
  a += atomicCompSwap(group_max[g], a, 2.0);
  a += atomicCompSwap(m[1][g & 1u], 5.0, 7.5);
  a += atomicCompSwap(v.z, 1.0, a);
  a += atomicCompSwap(many[g & 1u].values[gl_LocalInvocationIndex], 3.0, a);
  int i = 0;
  total = a + float(i);
}
)";

const char* kShared = R"(
#extension GL_EXT_shader_atomic_float : enable
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Result { float r[4]; };
shared float s_total;
shared float s_parts[2][3];
shared float s_untouched;
void main() {
  uint i = gl_LocalInvocationIndex;
  if (i == 0u) { s_total = 0.0; s_parts[1][2] = 4.0; s_untouched = 1.0; }
  barrier();
  float seen = atomicCompSwap(s_total, 0.0, 1.0);
  seen += atomicCompSwap(s_parts[1][i % 3u], seen, 2.0);
  float old = atomicExchange(s_parts[0][1], 4.5);
  barrier();
  r[0] = s_total + seen + old;
  r[1] = s_parts[1][2] + s_untouched;
}
)";

}  // namespace

TEST_CASE("float atomicCompSwap on buffer members becomes a uint compare-exchange on an aliased view",
          "[spirv_patch][float_compare_swap]") {
  const std::vector<uint32_t> input = compile_with_marker(kBuffer);
  REQUIRE(mentions_marker_set(input));
  auto patch = lower_float_compare_swap(input);
  REQUIRE_OK(patch);
  REQUIRE_VALID(patch->words, TargetEnv::Vulkan1_1);
  CHECK(patch->report.changed);
  CHECK(patch->report.lowered == 5);
  CHECK(patch->report.buffer_views == 2);  // Result and the array of Many blocks
  CHECK(patch->report.shared_retyped == 0);
  CHECK_FALSE(mentions_marker_set(patch->words));
  CHECK(float_equality_loops(patch->words) == 5);
  CHECK(count_op(patch->words, spv::Op::OpLoopMerge) == 5);
  CHECK(count_op(patch->words, spv::Op::OpExtInst) == 0);

  // Each view shares its variable's DescriptorSet and Binding, and both are Aliased (SPIR-V 2.18.2).
  auto module = Module::parse(patch->words);
  REQUIRE(module);
  std::vector<uint32_t> at_binding_3, at_binding_5;
  for (auto h : module->instructions(Section::Global)) {
    if (module->opcode(h) != spv::Op::OpVariable) continue;
    const uint32_t id = module->words(h)[2];
    const auto binding = module->decoration_literal(id, spv::Decoration::Binding);
    if (binding == 3u) at_binding_3.push_back(id);
    if (binding == 5u) at_binding_5.push_back(id);
  }
  REQUIRE(at_binding_3.size() == 2);
  REQUIRE(at_binding_5.size() == 2);
  for (uint32_t id : {at_binding_3[0], at_binding_3[1], at_binding_5[0], at_binding_5[1]}) {
    CHECK(module->decoration_literal(id, spv::Decoration::DescriptorSet) == 0u);
    bool aliased = false;
    for (auto h : module->instructions(Section::Annotation)) {
      const auto w = module->words(h);
      aliased |= module->opcode(h) == spv::Op::OpDecorate && w[1] == id && w[2] == uint32_t(spv::Decoration::Aliased);
    }
    CHECK(aliased);
  }
}

TEST_CASE("float atomicCompSwap word offsets follow the block layout", "[spirv_patch][float_compare_swap]") {
  // total is at byte 12 (after a vec3): word 3 of the view, a constant index.
  const std::vector<uint32_t> input = compile_with_marker(
      "layout(local_size_x = 1) in;\n"
      "layout(std430, binding = 0) buffer B { vec3 pad; float total; };\n"
      "void main() { atomicCompSwap(total, 0.0, 1.0); }\n");
  auto patch = lower_float_compare_swap(input);
  REQUIRE_OK(patch);
  REQUIRE_VALID(patch->words, TargetEnv::Vulkan1_1);
  auto text = bismuth::spirv_patch::disassemble(patch->words);
  REQUIRE(text);
  INFO(*text);
  CHECK(text->find("OpAccessChain %_ptr_StorageBuffer_uint %bsm_uint_view_of_") != std::string::npos);
  CHECK(text->find("%uint_0 %uint_3") != std::string::npos);
}

TEST_CASE("float atomicCompSwap on shared floats retypes them to uint with bitcast loads and stores",
          "[spirv_patch][float_compare_swap]") {
  const std::vector<uint32_t> input = compile_with_marker(kShared);
  auto patch = lower_float_compare_swap(input);
  REQUIRE_OK(patch);
  REQUIRE_VALID(patch->words, TargetEnv::Vulkan1_1);
  CHECK(patch->report.lowered == 2);
  CHECK(patch->report.shared_retyped == 2);
  CHECK(patch->report.buffer_views == 0);
  CHECK_FALSE(mentions_marker_set(patch->words));
  CHECK(float_equality_loops(patch->words) == 2);
  // atomicExchange on a retyped element is a uint exchange too.
  auto text = bismuth::spirv_patch::disassemble(patch->words);
  REQUIRE(text);
  INFO(*text);
  CHECK(text->find("OpAtomicExchange %uint") != std::string::npos);
  CHECK(text->find("OpAtomicExchange %float") == std::string::npos);
  // A shared float no compare-and-swap touches keeps its type.
  CHECK(text->find("%s_untouched = OpVariable %_ptr_Workgroup_float Workgroup") != std::string::npos);
}

TEST_CASE("float atomicCompSwap lowering lists the views in SPIR-V 1.4+ entry point interfaces",
          "[spirv_patch][float_compare_swap]") {
  const std::vector<uint32_t> input = compile_with_marker(kBuffer, TargetEnv::Vulkan1_3);
  auto patch = lower_float_compare_swap(input);
  REQUIRE_OK(patch);
  REQUIRE_VALID(patch->words, TargetEnv::Vulkan1_3);
  const std::vector<uint32_t> shared = compile_with_marker(kShared, TargetEnv::Vulkan1_3);
  auto shared_patch = lower_float_compare_swap(shared);
  REQUIRE_OK(shared_patch);
  REQUIRE_VALID(shared_patch->words, TargetEnv::Vulkan1_3);
}

TEST_CASE("run_pipeline lowers float atomicCompSwap and validates the result", "[spirv_patch][float_compare_swap]") {
  const std::vector<uint32_t> input = compile_with_marker(kBuffer);
  auto piped = bismuth::spirv_patch::run_pipeline(input, {});
  REQUIRE_OK(piped);
  CHECK(piped->float_compare_swap.lowered == 5);
  CHECK_FALSE(mentions_marker_set(piped->words));
}

TEST_CASE("a module without the marker is left as it is", "[spirv_patch][float_compare_swap]") {
  const std::vector<uint32_t> input = compile_or_fail(
      "#version 450\nlayout(local_size_x = 1) in;\nlayout(std430, binding = 0) buffer B { uint v; };\n"
      "void main() { atomicCompSwap(v, 1u, 2u); }\n");
  auto patch = lower_float_compare_swap(input);
  REQUIRE_OK(patch);
  CHECK_FALSE(patch->report.changed);
  CHECK(patch->words == input);
}

TEST_CASE("float atomicCompSwap inside loops, branches, selection headers and continue targets",
          "[spirv_patch][float_compare_swap]") {
  // Each marker's block is split around the new loop: a marker in a loop and in an if (nested in the outer loop),
  // a marker whose block is a selection header (`if` on its result; a `switch` on it), one whose block ends in a
  // short-circuit `&&` (glslang's OpSelectionMerge plus an OpPhi in the merge block naming the marker's block as
  // parent), and one in a for loop's continue target (the increment).
  const std::vector<uint32_t> input = compile_with_marker(R"(
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { float v[64]; float total; int picked; };
shared float s[4];
void main() {
  uint i = gl_LocalInvocationIndex;
  for (int k = 0; k < 4; ++k) {
    if ((i & 1u) == 0u) {
      float seen = total;
      for (;;) {
        float p = atomicCompSwap(total, seen, seen + 1.0);
        if (p == seen) break;
        seen = p;
      }
    } else {
      v[i] = atomicCompSwap(s[k], v[i], 2.0);
    }
  }
  if (atomicCompSwap(v[0], 0.0, 1.0) == 0.0) { v[1] = 1.0; } else { v[2] = 2.0; }
  switch (int(atomicCompSwap(v[3], 3.0, 4.0))) {
    case 3: picked = 3; break;
    case 4: picked = 4; break;
    default: picked = -1; break;
  }
  bool both = atomicCompSwap(v[4], 0.0, 5.0) == 0.0 && v[5] > 1.0;
  for (int k = 0; k < 8; k += 1 + int(atomicCompSwap(v[6], float(k), float(k + 1)))) v[7] += 1.0;
  picked += both ? 1 : 0;
}
)");
  auto patch = lower_float_compare_swap(input);
  REQUIRE_OK(patch);
  REQUIRE_VALID(patch->words, TargetEnv::Vulkan1_1);
  CHECK(patch->report.lowered == 6);
  CHECK(patch->report.shared_retyped == 1);
  CHECK(float_equality_loops(patch->words) == 6);
  // The shader's own three loops and one per marker.
  CHECK(count_op(patch->words, spv::Op::OpLoopMerge) == 3 + 6);
  CHECK_FALSE(mentions_marker_set(patch->words));

  const std::vector<uint32_t> input_1_3 = compile_with_marker(R"(
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer B { float v[8]; };
void main() {
  for (int k = 0; k < 4; k += 1 + int(atomicCompSwap(v[0], float(k), 1.0))) {
    if (atomicCompSwap(v[1], 0.0, 1.0) == 0.0) v[2] += 1.0;
  }
}
)",
                                                              TargetEnv::Vulkan1_3);
  auto patch_1_3 = lower_float_compare_swap(input_1_3);
  REQUIRE_OK(patch_1_3);
  REQUIRE_VALID(patch_1_3->words, TargetEnv::Vulkan1_3);
  CHECK(float_equality_loops(patch_1_3->words) == 2);
}

namespace {

// A marker in a loop header (glslang puts loop headers' work in other blocks; an optimizer merges them): the
// header's OpPhis name the back edge and the loop's exit OpPhi names the header. `%continue_target` and the
// branch are filled in by the test: a loop whose continue target is its own header, or a separate one.
std::string loop_header_module(bool single_block) {
  const std::string header_continue = single_block ? "%header" : "%continue";
  std::string text = R"(
               OpCapability Shader
               OpExtension "SPV_KHR_non_semantic_info"
        %ext = OpExtInstImport "NonSemantic.BismuthFloatCompareSwap"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
               OpName %header "header"
               OpName %exit "exit"
               OpDecorate %B BufferBlock
               OpMemberDecorate %B 0 Offset 0
               OpMemberDecorate %B 1 Offset 4
               OpDecorate %buf DescriptorSet 0
               OpDecorate %buf Binding 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
      %float = OpTypeFloat 32
       %uint = OpTypeInt 32 0
       %bool = OpTypeBool
          %B = OpTypeStruct %float %float
      %ptr_B = OpTypePointer Uniform %B
      %ptr_f = OpTypePointer Uniform %float
        %buf = OpVariable %ptr_B Uniform
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_4 = OpConstant %uint 4
    %float_0 = OpConstant %float 0
    %float_1 = OpConstant %float 1
       %main = OpFunction %void None %fn
      %entry = OpLabel
          %p = OpAccessChain %ptr_f %buf %uint_0
          %q = OpAccessChain %ptr_f %buf %uint_1
               OpBranch %header
     %header = OpLabel
          %i = OpPhi %uint %uint_0 %entry %next CONTINUE
        %acc = OpPhi %float %float_0 %entry %sum CONTINUE
        %old = OpExtInst %float %ext 1 %p %float_0 %float_1
        %sum = OpFAdd %float %acc %old
)";
  if (single_block) {
    text += R"(
       %next = OpIAdd %uint %i %uint_1
       %more = OpULessThan %bool %next %uint_4
               OpLoopMerge %exit %header None
               OpBranchConditional %more %header %exit
)";
  } else {
    text += R"(
       %more = OpULessThan %bool %i %uint_4
               OpLoopMerge %exit %continue None
               OpBranchConditional %more %continue %exit
   %continue = OpLabel
       %next = OpIAdd %uint %i %uint_1
               OpBranch %header
)";
  }
  text += R"(
       %exit = OpLabel
       %last = OpPhi %float %sum %header
               OpStore %q %last
               OpReturn
               OpFunctionEnd
)";
  for (size_t at = text.find("CONTINUE"); at != std::string::npos; at = text.find("CONTINUE")) {
    text.replace(at, 8, header_continue);
  }
  return text;
}

}  // namespace

TEST_CASE("float atomicCompSwap in a loop header keeps the header the target of the back edge",
          "[spirv_patch][float_compare_swap]") {
  for (bool single_block : {false, true}) {
    INFO((single_block ? "continue target = header" : "separate continue target"));
    const std::vector<uint32_t> input = assemble_or_fail(loop_header_module(single_block).c_str());
    // (The input is not valid SPIR-V by itself: a semantic instruction uses the non-semantic marker's result,
    // as in glslang's output; the pass is what makes it valid.)
    auto patch = lower_float_compare_swap(input);
    REQUIRE_OK(patch);
    auto text = bismuth::spirv_patch::disassemble(patch->words);
    REQUIRE(text);
    INFO(*text);
    REQUIRE_VALID(patch->words, TargetEnv::Vulkan1_1);
    CHECK(patch->report.lowered == 1);
    CHECK(float_equality_loops(patch->words) == 1);
    CHECK(count_op(patch->words, spv::Op::OpLoopMerge) == 2);
    // The outer loop's OpLoopMerge stays in the block its back edge targets: the block after the OpPhis.
    const std::string header_label = "%header = OpLabel";
    const size_t header = text->find(header_label);
    REQUIRE(header != std::string::npos);
    const size_t first_merge = text->find("OpLoopMerge", header);
    CHECK(text->find("OpLabel", header + header_label.size()) > first_merge);
    CHECK(text->find("OpLoopMerge %exit", header) == first_merge);
  }
}

TEST_CASE("float atomicCompSwap refusals name the variable", "[spirv_patch][float_compare_swap]") {
  SECTION("a shared float also used by a float atomicMax") {
    const std::vector<uint32_t> input = compile_with_marker(
        "#extension GL_EXT_shader_atomic_float2 : enable\n"
        "layout(local_size_x = 8) in;\nshared float s_value;\n"
        "void main() { atomicCompSwap(s_value, 0.0, 1.0); atomicMax(s_value, 2.0); }\n");
    auto patch = lower_float_compare_swap(input);
    REQUIRE_FALSE(patch);
    INFO(patch.error().message);
    CHECK(patch.error().message.find("'s_value'") != std::string::npos);
    CHECK(patch.error().message.find("atomicMax") != std::string::npos);
  }
  SECTION("a shared float array copied as a whole") {
    const std::vector<uint32_t> input = compile_with_marker(
        "layout(local_size_x = 8) in;\nlayout(std430, binding = 0) buffer B { float out_v[2]; };\n"
        "shared float s_pair[2];\n"
        "void main() { atomicCompSwap(s_pair[0], 0.0, 1.0); float copy[2] = s_pair; out_v = copy; }\n");
    auto patch = lower_float_compare_swap(input);
    REQUIRE_FALSE(patch);
    INFO(patch.error().message);
    CHECK(patch.error().message.find("'s_pair'") != std::string::npos);
  }
  SECTION("a shared vector component") {
    const std::vector<uint32_t> input = compile_with_marker(
        "layout(local_size_x = 8) in;\nshared vec2 s_vec;\n"
        "void main() { atomicCompSwap(s_vec.x, 0.0, 1.0); }\n");
    auto patch = lower_float_compare_swap(input);
    REQUIRE_FALSE(patch);
    INFO(patch.error().message);
    CHECK(patch.error().message.find("'s_vec'") != std::string::npos);
  }
  SECTION("a local variable: GLSL 4.60 section 8.11 allows buffer and shared variables only") {
    const std::vector<uint32_t> input = compile_with_marker(
        "layout(local_size_x = 1) in;\nlayout(std430, binding = 0) buffer B { float r; };\n"
        "void main() { float local = r; r = atomicCompSwap(local, 0.0, 1.0); }\n");
    auto patch = lower_float_compare_swap(input);
    REQUIRE_FALSE(patch);
    INFO(patch.error().message);
    CHECK(patch.error().message.find("buffer or shared variable") != std::string::npos);
  }
  SECTION("a loop header whose conditional branch is neither a break nor a continue") {
    // The split would leave the header's conditional branch in a block without the selection merge it needs.
    std::string text = loop_header_module(false);
    const std::string branch = "OpBranchConditional %more %continue %exit";
    text.replace(text.find(branch), branch.size(), "OpBranchConditional %more %left %right");
    const std::string exit_label = "%exit = OpLabel";
    text.replace(text.find(exit_label), 0,
                 "%left = OpLabel\nOpBranch %continue\n%right = OpLabel\nOpBranch %continue\n");
    const std::vector<uint32_t> input = assemble_or_fail(text.c_str());
    // Refused before any edit: the module keeps its words (the Module overload leaves it as it was).
    auto module = Module::parse(input);
    REQUIRE(module);
    auto refused = lower_float_compare_swap(*module, {});
    REQUIRE_FALSE(refused);
    CHECK(module->serialize() == input);
    auto patch = lower_float_compare_swap(input);
    REQUIRE_FALSE(patch);
    INFO(patch.error().message);
    CHECK(patch.error().message.find("neither the loop's merge block nor its continue target") != std::string::npos);
  }
  SECTION("through run_pipeline, the stage says which pass refused") {
    const std::vector<uint32_t> input = compile_with_marker(
        "layout(local_size_x = 8) in;\nshared vec2 s_vec;\n"
        "void main() { atomicCompSwap(s_vec.y, 0.0, 1.0); }\n");
    auto piped = bismuth::spirv_patch::run_pipeline(input, {});
    REQUIRE_FALSE(piped);
    CHECK(bismuth::spirv_patch::failed_stage(piped.error()) == bismuth::spirv_patch::PipelineStage::FloatCompareSwap);
  }
}
