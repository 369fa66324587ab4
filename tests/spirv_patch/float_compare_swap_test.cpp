// lower_float_compare_swap: GL_INTEL_shader_atomic_float_minmax's "float atomicCompSwap(inout float mem, float
// compare, float data)" as glslang emits it through the front's marker declaration, lowered to SPIR-V's integer
// OpAtomicCompareExchange ("Result Type must be an integer type scalar", SPIR-V 1.6 section 3.42.18) on a uint view
// of the same memory. Every lowered module must pass spirv-val; the refusals name the variable.
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
using bismuth::test::compile_or_fail;

namespace {

// `body` after "#version 450" and the front's declaration, as the GLSL front gives glslang a shader that enables
// GL_INTEL_shader_atomic_float_minmax.
std::vector<uint32_t> compile_with_marker(const std::string& body, TargetEnv target = TargetEnv::Vulkan1_1) {
  return compile_or_fail("#version 450\n" + std::string(kFloatCompareSwapGlslDeclaration) + body, target);
}

size_t count_op(const std::vector<uint32_t>& words, spv::Op op) {
  auto module = Module::parse(words);
  REQUIRE(module);
  size_t n = 0;
  for (auto h : module->instructions()) n += module->opcode(h) == op ? 1 : 0;
  return n;
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
  CHECK(count_op(patch->words, spv::Op::OpAtomicCompareExchange) == 5);
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
  CHECK(count_op(patch->words, spv::Op::OpAtomicCompareExchange) == 2);
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
  SECTION("through run_pipeline, the stage says which pass refused") {
    const std::vector<uint32_t> input = compile_with_marker(
        "layout(local_size_x = 8) in;\nshared vec2 s_vec;\n"
        "void main() { atomicCompSwap(s_vec.y, 0.0, 1.0); }\n");
    auto piped = bismuth::spirv_patch::run_pipeline(input, {});
    REQUIRE_FALSE(piped);
    CHECK(bismuth::spirv_patch::failed_stage(piped.error()) == bismuth::spirv_patch::PipelineStage::FloatCompareSwap);
  }
}
