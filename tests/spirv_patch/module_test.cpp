#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>

#include "bismuth/spirv_patch/module.hpp"
#include "shader_sources.hpp"

using bismuth::spirv_patch::Module;
using bismuth::spirv_patch::Section;
using bismuth::spirv_patch::TargetEnv;
using bismuth::test::compile_or_fail;

namespace {

const char* kSimple = R"(#version 450
layout(local_size_x = 4) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void main() { data[gl_LocalInvocationIndex] = gl_LocalInvocationIndex * 3u; }
)";

// Word offset of the first instruction with opcode `op`, or 0.
size_t offset_of(const std::vector<uint32_t>& words, spv::Op op) {
  for (size_t i = 5; i < words.size() && (words[i] >> 16) != 0; i += words[i] >> 16) {
    if ((words[i] & 0xffff) == static_cast<uint32_t>(op)) return i;
  }
  return 0;
}

std::string parse_error(const std::vector<uint32_t>& words) {
  auto module = Module::parse(words);
  REQUIRE_FALSE(module);
  return module.error().message;
}

// Section of every instruction in serialized order must never decrease.
bool sections_in_order(const Module& module) {
  Section last = Section::Capability;
  for (auto h : module.instructions()) {
    if (module.section(h) < last) return false;
    last = module.section(h);
  }
  return true;
}

}  // namespace

TEST_CASE("Parsing then serializing a module reproduces its words") {
  const auto words = compile_or_fail(kSimple);
  auto module = Module::parse(words);
  REQUIRE_OK(module);
  CHECK(module->serialize() == words);
  CHECK(module->version() == words[1]);
  CHECK(module->generator() == words[2]);
  CHECK(module->bound() == words[3]);
}

TEST_CASE("Instructions are grouped into the logical sections of SPIR-V 2.4") {
  auto module = Module::parse(compile_or_fail(kSimple));
  REQUIRE_OK(module);
  for (auto h : module->instructions(Section::Capability)) CHECK(module->opcode(h) == spv::Op::OpCapability);
  for (auto h : module->instructions(Section::EntryPoint)) CHECK(module->opcode(h) == spv::Op::OpEntryPoint);
  REQUIRE_FALSE(module->instructions(Section::Function).empty());
  CHECK(module->opcode(module->instructions(Section::Function).front()) == spv::Op::OpFunction);
  REQUIRE(module->entry_points().size() == 1);
  CHECK(module->entry_points()[0].name == "main");
  CHECK(module->entry_points()[0].model == spv::ExecutionModel::GLCompute);
}

TEST_CASE("New ids come from the bound, which grows") {
  auto module = Module::parse(compile_or_fail(kSimple));
  REQUIRE_OK(module);
  const uint32_t bound = module->bound();
  auto id = module->allocate_id();
  REQUIRE_OK(id);
  CHECK(*id == bound);
  CHECK(module->bound() == bound + 1);
  CHECK(module->serialize()[3] == bound + 1);
}

TEST_CASE("Capabilities, extensions and decorations are added once, in their own sections") {
  auto module = Module::parse(compile_or_fail(kSimple));
  REQUIRE_OK(module);
  module->add_capability(spv::Capability::GroupNonUniform);
  module->add_capability(spv::Capability::GroupNonUniform);
  module->add_capability(spv::Capability::Shader);  // already there
  module->add_extension("SPV_KHR_storage_buffer_storage_class");
  module->add_extension("SPV_KHR_storage_buffer_storage_class");
  CHECK(module->instructions(Section::Capability).size() == 2);
  CHECK(module->instructions(Section::Extension).size() == 1);
  CHECK(module->has_extension("SPV_KHR_storage_buffer_storage_class"));
  CHECK(sections_in_order(*module));
  const auto annotations = module->instructions(Section::Annotation).size();
  auto constant = module->spec_constant_u32(9, 40);
  REQUIRE_OK(constant);
  module->add_decoration(*constant, spv::Decoration::SpecId, std::vector<uint32_t>{40});  // duplicate
  CHECK(module->instructions(Section::Annotation).size() == annotations + 1);
  CHECK(module->decoration_literal(*constant, spv::Decoration::SpecId) == 40u);
  const auto out = module->serialize();
  REQUIRE_VALID(out, TargetEnv::Vulkan1_1);
  module->remove_capability(spv::Capability::GroupNonUniform);
  module->remove_extension("SPV_KHR_storage_buffer_storage_class");
  CHECK_FALSE(module->has_capability(spv::Capability::GroupNonUniform));
  CHECK_FALSE(module->has_extension("SPV_KHR_storage_buffer_storage_class"));
}

TEST_CASE("Types and constants are deduplicated against the module's own declarations") {
  const auto words = compile_or_fail(kSimple);
  auto module = Module::parse(words);
  REQUIRE_OK(module);
  const uint32_t bound = module->bound();
  auto uint_type = module->type_int(32, false);
  auto again = module->type_int(32, false);
  REQUIRE_OK(uint_type);
  REQUIRE_OK(again);
  CHECK(*uint_type == *again);
  CHECK(*uint_type < bound);  // the shader already declares uint
  auto three = module->constant_u32(3);  // `* 3u` is in the shader
  REQUIRE_OK(three);
  CHECK(*three < bound);
  auto fresh = module->constant_u32(123456);
  REQUIRE_OK(fresh);
  CHECK(*fresh == bound);
  auto fresh_again = module->constant_u32(123456);
  REQUIRE_OK(fresh_again);
  CHECK(*fresh_again == *fresh);
  auto vector = module->type_vector(*uint_type, 4);
  REQUIRE_OK(vector);
  CHECK(sections_in_order(*module));
  REQUIRE_VALID(module->serialize(), TargetEnv::Vulkan1_1);
}

TEST_CASE("Erased instructions disappear from the serialized module") {
  auto module = Module::parse(compile_or_fail(kSimple));
  REQUIRE_OK(module);
  const auto names = module->instructions(Section::Debug);
  REQUIRE_FALSE(names.empty());
  for (auto h : names) module->erase(h);
  const auto out = module->serialize();
  CHECK(offset_of(out, spv::Op::OpName) == 0);
  REQUIRE_VALID(out, TargetEnv::Vulkan1_1);
}

TEST_CASE("Bad input: an empty module is an error") {
  CHECK_THAT(parse_error({}), Catch::Contains("empty"));
}

TEST_CASE("Bad input: a module shorter than its header is an error") {
  CHECK_THAT(parse_error({0x07230203, 0x00010300, 0}), Catch::Contains("truncated"));
}

TEST_CASE("Bad input: a wrong magic number is an error naming word 0") {
  auto words = compile_or_fail(kSimple);
  words[0] = 0xdeadbeef;
  CHECK_THAT(parse_error(words), Catch::StartsWith("word 0") && Catch::Contains("magic"));
}

TEST_CASE("Bad input: an instruction with word count 0 is an error naming its offset and opcode") {
  auto words = compile_or_fail(kSimple);
  words[5] = static_cast<uint32_t>(spv::Op::OpCapability);  // word count 0
  CHECK_THAT(parse_error(words), Catch::StartsWith("word 5 (OpCapability)"));
}

TEST_CASE("Bad input: a word count past the end of the module is an error") {
  auto words = compile_or_fail(kSimple);
  words.resize(words.size() - 1);  // cuts the last OpFunctionEnd short... which has one word: drop it all
  words.push_back((5u << 16) | static_cast<uint32_t>(spv::Op::OpFunctionEnd));
  const std::string message = parse_error(words);
  CHECK_THAT(message, Catch::StartsWith("word " + std::to_string(words.size() - 1) + " (OpFunctionEnd)"));
}

TEST_CASE("Bad input: an id at or above the bound is an error") {
  auto words = compile_or_fail(kSimple);
  const size_t entry = offset_of(words, spv::Op::OpEntryPoint);
  REQUIRE(entry != 0);
  words[entry + 2] = words[3] + 7;  // the entry point's function id
  CHECK_THAT(parse_error(words),
             Catch::StartsWith("word " + std::to_string(entry) + " (OpEntryPoint)") && Catch::Contains("bound"));
}

TEST_CASE("Bad input: a bound above the universal limit is an error") {
  auto words = compile_or_fail(kSimple);
  words[3] = 0xffffffff;
  CHECK_THAT(parse_error(words), Catch::StartsWith("word 3") && Catch::Contains("bound"));
  words[3] = 0;
  CHECK_THAT(parse_error(words), Catch::StartsWith("word 3"));
}

TEST_CASE("Bad input: an unknown opcode is an error naming its offset and number") {
  auto words = compile_or_fail(kSimple);
  words[5] = (2u << 16) | 4090u;
  CHECK_THAT(parse_error(words), Catch::StartsWith("word 5 (Op4090)"));
}

TEST_CASE("Bad input: an unterminated string is an error") {
  auto words = compile_or_fail(kSimple);
  const size_t entry = offset_of(words, spv::Op::OpEntryPoint);
  REQUIRE(entry != 0);
  words[entry + 3] = 0x6e69616d;  // "main" without its terminating zero word ...
  words[entry] = (4u << 16) | static_cast<uint32_t>(spv::Op::OpEntryPoint);  // ... and nothing after it
  CHECK_THAT(parse_error(words), Catch::StartsWith("word " + std::to_string(entry)));
}

TEST_CASE("Bad input: instructions out of the logical layout order are an error") {
  auto words = compile_or_fail(kSimple);
  const size_t memory_model = offset_of(words, spv::Op::OpMemoryModel);
  REQUIRE(memory_model != 0);
  words.insert(words.begin() + memory_model + 3, {(2u << 16) | static_cast<uint32_t>(spv::Op::OpCapability), 1u});
  CHECK_THAT(parse_error(words), Catch::Contains("(OpCapability)") && Catch::Contains("2.4"));
}

TEST_CASE("Bad input: an id defined twice is an error") {
  auto words = compile_or_fail(kSimple);
  const size_t label = offset_of(words, spv::Op::OpLabel);
  REQUIRE(label != 0);
  words.insert(words.begin() + label + 2, {words[label], words[label + 1]});
  CHECK_THAT(parse_error(words), Catch::StartsWith("word " + std::to_string(label + 2) + " (OpLabel)") &&
                                     Catch::Contains("defined"));
}

TEST_CASE("Bad input: an unknown enumerant is an error naming its kind") {
  auto words = compile_or_fail(kSimple);
  words[6] = 99999;  // OpCapability <unknown>
  CHECK_THAT(parse_error(words), Catch::StartsWith("word 5 (OpCapability)") && Catch::Contains("Capability 99999"));
}

TEST_CASE("Bad input: an instruction missing an operand is an error") {
  auto words = compile_or_fail(kSimple);
  const size_t entry = offset_of(words, spv::Op::OpEntryPoint);
  REQUIRE(entry != 0);
  // Word count 2 leaves the entry point without its function id; the rest parses as whatever it happens to be,
  // but the entry point fails first.
  words[entry] = (2u << 16) | static_cast<uint32_t>(spv::Op::OpEntryPoint);
  CHECK_THAT(parse_error(words),
             Catch::StartsWith("word " + std::to_string(entry) + " (OpEntryPoint)") && Catch::Contains("missing"));
}

TEST_CASE("Bad input: words after an instruction's last operand are an error") {
  auto words = compile_or_fail(kSimple);
  words[5] = (3u << 16) | static_cast<uint32_t>(spv::Op::OpCapability);  // swallows the next word
  CHECK_THAT(parse_error(words), Catch::StartsWith("word 5 (OpCapability)") && Catch::Contains("after the last"));
}

// Module::reparse: words parse() accepted (or a parsed module serialized) give the same module without the grammar
// walk; the header, word-count, section-order and definition checks still hold.
TEST_CASE("Reparsing serialized words gives the module parse gives") {
  auto parsed = Module::parse(compile_or_fail(kSimple));
  REQUIRE_OK(parsed);
  const uint32_t added = parsed->spec_constant_u32(7, 42).value();  // an edit, as the passes make
  const auto words = parsed->serialize();
  auto checked = Module::parse(words);
  auto again = Module::reparse(words);
  REQUIRE_OK(checked);
  REQUIRE_OK(again);
  CHECK(again->serialize() == words);
  REQUIRE(again->instructions() == checked->instructions());
  for (auto h : checked->instructions()) {
    CHECK(again->section(h) == checked->section(h));
    CHECK(again->source_offset(h) == checked->source_offset(h));
  }
  for (uint32_t id = 0; id < checked->bound(); ++id) CHECK(again->definition(id) == checked->definition(id));
  CHECK(again->definition(added).has_value());
  CHECK(again->decoration_literal(added, spv::Decoration::SpecId) == 42u);
}

TEST_CASE("Bad input: reparse still refuses broken headers, word counts, section order and double definitions") {
  auto reparse_error = [](const std::vector<uint32_t>& words) {
    auto module = Module::reparse(words);
    REQUIRE_FALSE(module);
    return module.error().message;
  };
  auto words = compile_or_fail(kSimple);
  CHECK_THAT(reparse_error({0x07230203, 0x00010300, 0}), Catch::Contains("truncated"));
  auto zero_count = words;
  zero_count[5] = static_cast<uint32_t>(spv::Op::OpCapability);
  CHECK_THAT(reparse_error(zero_count), Catch::StartsWith("word 5 (OpCapability)"));
  auto out_of_order = words;
  const size_t memory_model = offset_of(words, spv::Op::OpMemoryModel);
  REQUIRE(memory_model != 0);
  out_of_order.insert(out_of_order.begin() + memory_model + 3,
                      {(2u << 16) | static_cast<uint32_t>(spv::Op::OpCapability), 1u});
  CHECK_THAT(reparse_error(out_of_order), Catch::Contains("2.4"));
  auto twice = words;
  const size_t label = offset_of(words, spv::Op::OpLabel);
  REQUIRE(label != 0);
  twice.insert(twice.begin() + label + 2, {words[label], words[label + 1]});
  CHECK_THAT(reparse_error(twice), Catch::Contains("defined"));
  auto no_result = words;  // OpLabel with word count 1: no room for its result id
  no_result[label] = (1u << 16) | static_cast<uint32_t>(spv::Op::OpLabel);
  no_result.erase(no_result.begin() + label + 1);
  CHECK_THAT(reparse_error(no_result), Catch::StartsWith("word " + std::to_string(label) + " (OpLabel)"));
}

// The grammar's enumerant lookup answers small values from a direct table and larger ones by search: both must agree
// with the grammar (an unknown value is an error naming it, whichever path looks it up).
TEST_CASE("Bad input: unknown enumerants below and above the direct-lookup range are errors") {
  for (uint32_t value : {63u, 64u, 4999u}) {
    auto words = compile_or_fail(kSimple);
    const size_t model = offset_of(words, spv::Op::OpMemoryModel);
    REQUIRE(model != 0);
    words[model + 2] = value;  // MemoryModel: Simple 0, GLSL450 1, OpenCL 2, Vulkan 3
    CHECK_THAT(parse_error(words), Catch::Contains("MemoryModel " + std::to_string(value)));
  }
  auto words = compile_or_fail(kSimple);
  const size_t model = offset_of(words, spv::Op::OpMemoryModel);
  words[model + 2] = 3;  // Vulkan: known
  CHECK(Module::parse(words).has_value());
}
