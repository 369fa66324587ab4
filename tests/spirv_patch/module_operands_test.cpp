// Module keeps the id operands parse()'s walk and each edit found (Module::known_id_operands), and reparse(words,
// from) carries them over: what the passes read must be what a fresh walk of the grammar finds, and the pipeline's
// words must not depend on which module it started from.
#include <catch2/catch.hpp>

#include "analysis/id_operands.hpp"
#include "analysis/use_index.hpp"
#include "bismuth/spirv_patch/module.hpp"
#include "bismuth/spirv_patch/passes/compact_ids.hpp"
#include "bismuth/spirv_patch/pipeline.hpp"
#include "shader_sources.hpp"

using bismuth::spirv_patch::IdOperands;
using bismuth::spirv_patch::InstructionHandle;
using bismuth::spirv_patch::Module;
using bismuth::test::compile_or_fail;

namespace {

const char* kLiterals = R"(#version 450
layout(local_size_x = 8, local_size_y = 2) in;
layout(std430, binding = 0) buffer B { uint data[]; };
shared uint scratch[16];
uint twice(uint v) { return v * 2u + 7u; }
void main() {
  uint i = gl_LocalInvocationIndex;
  scratch[i] = twice(i) ^ 5u;
  barrier();
  switch (i & 3u) {
    case 0u: data[gl_GlobalInvocationID.x] = atomicAdd(data[0], scratch[15u - i]); break;
    default: data[gl_GlobalInvocationID.x] = max(scratch[i], 3u) + gl_WorkGroupSize.x; break;
  }
}
)";

// id_operands on `module` (known operands where it keeps them) against a fresh walk: a reparse() of its words keeps
// none.
void check_known_operands(const Module& module, bool most_known = true) {
  const auto words = module.serialize();
  auto walked = Module::reparse(words);
  REQUIRE(walked);
  const std::vector<InstructionHandle> mine = module.instructions();
  const std::vector<InstructionHandle> theirs = walked->instructions();
  REQUIRE(mine.size() == theirs.size());
  IdOperands scratch;
  size_t known = 0;
  for (size_t i = 0; i < mine.size(); ++i) {
    known += module.known_id_operands(mine[i], scratch) ? 1 : 0;
    CHECK_FALSE(walked->known_id_operands(theirs[i], scratch));
    const IdOperands a = bismuth::spirv_patch::id_operands(module, mine[i]);
    const IdOperands b = bismuth::spirv_patch::id_operands(*walked, theirs[i]);
    CHECK(a.ids == b.ids);
    CHECK(a.constant_required == b.constant_required);
    CHECK(a.result_type == b.result_type);
    CHECK(a.result == b.result);
    CHECK(a.rest == b.rest);
  }
  if (most_known) CHECK(known > mine.size() / 2);  // most are kept (OpSwitch and the broadcasts are not)
}

}  // namespace

TEST_CASE("Kept id operands match a fresh walk after parse, edits and reparse from a module") {
  auto parsed = Module::parse(compile_or_fail(kLiterals));
  REQUIRE(parsed);
  check_known_operands(*parsed);

  // Edits: added and replaced instructions are walked when written.
  const uint32_t added = parsed->spec_constant_u32(7, 42).value();
  CHECK(parsed->definition(added).has_value());
  for (InstructionHandle h : parsed->instructions(bismuth::spirv_patch::Section::Function)) {
    if (parsed->opcode(h) != spv::Op::OpIAdd) continue;
    const auto w = parsed->words(h);
    const std::vector<uint32_t> operands = {w[1], w[2], w[4], w[3]};  // the operands swapped
    parsed->replace(h, spv::Op::OpIAdd, operands);
  }
  check_known_operands(*parsed);

  // reparse(words, from): the module reparse(words) gives, with from's operands.
  const auto words = parsed->serialize();
  auto carried = Module::reparse(words, *parsed);
  auto plain = Module::reparse(words);
  REQUIRE(carried);
  REQUIRE(plain);
  CHECK(carried->serialize() == words);
  REQUIRE(carried->instructions() == plain->instructions());
  for (InstructionHandle h : plain->instructions()) {
    CHECK(carried->section(h) == plain->section(h));
    CHECK(carried->source_offset(h) == plain->source_offset(h));
  }
  for (uint32_t id = 0; id < plain->bound(); ++id) CHECK(carried->definition(id) == plain->definition(id));
  check_known_operands(*carried);
  CHECK(bismuth::spirv_patch::compact_ids(*carried) == bismuth::spirv_patch::compact_ids(*plain));
}

TEST_CASE("reparse from a module whose words differ keeps nothing for the instructions that differ") {
  auto parsed = Module::parse(compile_or_fail(kLiterals));
  REQUIRE(parsed);
  auto words = parsed->serialize();
  auto other = Module::parse(compile_or_fail(R"(#version 450
layout(local_size_x = 1) in;
void main() {}
)"));
  REQUIRE(other);
  auto carried = Module::reparse(words, *other);
  REQUIRE(carried);
  check_known_operands(*carried, false);
}

TEST_CASE("run_pipeline on a module parsed beforehand gives the words of run_pipeline on the words") {
  const auto words = compile_or_fail(kLiterals);
  bismuth::spirv_patch::PipelineOptions options;
  options.runtime_group_size = bismuth::spirv_patch::RuntimeGroupSizeOptions{};
  options.literals_to_push_constants = bismuth::spirv_patch::LiteralsToPushConstantsOptions{};
  options.validate = bismuth::spirv_patch::TargetEnv::Vulkan1_1;
  auto fresh = bismuth::spirv_patch::run_pipeline(words, options);
  auto parsed = Module::parse(words);
  REQUIRE(parsed);
  auto handed = bismuth::spirv_patch::run_pipeline(words, options, std::move(*parsed));
  REQUIRE(fresh);
  REQUIRE(handed);
  CHECK(handed->words == fresh->words);
  CHECK(handed->runtime_group_size_note == fresh->runtime_group_size_note);
  REQUIRE(handed->runtime_group_size.has_value() == fresh->runtime_group_size.has_value());
  if (fresh->runtime_group_size) {
    CHECK(handed->runtime_group_size->words == fresh->runtime_group_size->words);
    CHECK(handed->runtime_group_size->literals.values == fresh->runtime_group_size->literals.values);
  }
}

TEST_CASE("UseIndex and use_counts skip operands at or above the bound that parse() lets through") {
  // parse() checks the grammar's id operands against the bound; OpExtInst's operands come from the extended
  // instruction set, not the grammar, so a corrupted one (here 0xffffffff and 0x80000003) parses. They name nothing:
  // the index must neither size its tables by them (gigabytes) nor overflow at id + 1.
  const char* text = R"(
OpCapability Shader
%std = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%one = OpConstant %float 1
%main = OpFunction %void None %fn
%entry = OpLabel
%a = OpExtInst %float %std FAbs %one
%b = OpExtInst %float %std FMax %one %one
OpReturn
OpFunctionEnd
)";
  auto words = bismuth::test::assemble_or_fail(text);
  // Corrupt the last operand of each OpExtInst (FAbs's %one, FMax's second %one): a walk of the raw words.
  uint32_t one = 0;
  int corrupted = 0;
  for (size_t at = 5; at < words.size(); at += words[at] >> 16) {
    const auto op = static_cast<spv::Op>(words[at] & 0xffff);
    const size_t count = words[at] >> 16;
    if (op == spv::Op::OpConstant) one = words[at + 2];
    if (op == spv::Op::OpExtInst) words[at + count - 1] = corrupted++ == 0 ? 0xffffffffu : 0x80000003u;
  }
  REQUIRE(corrupted == 2);
  auto corrupt = Module::parse(words);
  REQUIRE(corrupt);
  const bismuth::spirv_patch::UseIndex uses(*corrupt);
  CHECK(uses.users(0xffffffffu).empty());
  CHECK(uses.users(0x80000003u).empty());
  CHECK(uses.users(one).size() == 1);  // FMax's first operand, the one left
  const std::vector<uint32_t> counts = bismuth::spirv_patch::use_counts(*corrupt);
  CHECK(counts.size() == corrupt->bound());
  CHECK(counts[one] == 1);
}
