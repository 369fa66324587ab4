// Reflection. Resources come from SPIRV-Cross (resource_reflection.cpp); the rest is a walk over the functions each
// entry point reaches (call_graph.hpp).
#include "bismuth/spirv_patch/analysis/reflection.hpp"

#include <spirv-tools/libspirv.hpp>

#include <algorithm>
#include <map>
#include <set>

#include "analysis/call_graph.hpp"
#include "analysis/id_operands.hpp"
#include "analysis/resource_reflection.hpp"

namespace bismuth::spirv_patch {

namespace {

struct FunctionFacts {
  bool barrier = false;
  bool workgroup = false;
  bool subgroup = false;
  bool atomics = false;
};

bool is_subgroup(spv::Op op) {
  const auto n = static_cast<uint32_t>(op);
  return (n >= static_cast<uint32_t>(spv::Op::OpGroupNonUniformElect) &&
          n <= static_cast<uint32_t>(spv::Op::OpGroupNonUniformQuadSwap)) ||
         op == spv::Op::OpSubgroupBallotKHR || op == spv::Op::OpSubgroupFirstInvocationKHR ||
         op == spv::Op::OpSubgroupAllKHR || op == spv::Op::OpSubgroupAnyKHR || op == spv::Op::OpSubgroupAllEqualKHR ||
         op == spv::Op::OpSubgroupReadInvocationKHR || op == spv::Op::OpGroupNonUniformRotateKHR ||
         op == spv::Op::OpGroupNonUniformPartitionNV;
}

// Word indices of the pointer operands through which an instruction touches memory or hands a pointer on.
std::vector<size_t> pointer_operands(spv::Op op, size_t word_count) {
  switch (op) {
    case spv::Op::OpStore:
    case spv::Op::OpAtomicStore: return {1};
    case spv::Op::OpCopyMemory:
    case spv::Op::OpCopyMemorySized: return {1, 2};
    case spv::Op::OpLoad:
    case spv::Op::OpAccessChain:
    case spv::Op::OpInBoundsAccessChain:
    case spv::Op::OpPtrAccessChain:
    case spv::Op::OpInBoundsPtrAccessChain: return {3};
    case spv::Op::OpFunctionCall: {
      std::vector<size_t> arguments;
      for (size_t i = 4; i < word_count; ++i) arguments.push_back(i);
      return arguments;
    }
    default: return is_atomic(op) ? std::vector<size_t>{3} : std::vector<size_t>{};
  }
}

// What one function does itself (its callees are not looked at).
FunctionFacts facts_of(const Module& module, const Function& f, const std::set<uint32_t>& workgroup_variables) {
  FunctionFacts facts;
  for (InstructionHandle h : f.body) {
    const spv::Op op = module.opcode(h);
    const auto w = module.words(h);
    if (op == spv::Op::OpControlBarrier) facts.barrier = true;
    if (is_atomic(op)) facts.atomics = true;
    if (is_subgroup(op)) facts.subgroup = true;
    for (size_t index : pointer_operands(op, w.size())) {
      if (index < w.size() && workgroup_variables.contains(w[index])) facts.workgroup = true;
    }
  }
  return facts;
}

// Vulkan 1.3 rules (SPIR-V 1.0 to 1.6): everything Bismuth reflects is meant for Vulkan, and SPIRV-Cross expects
// the shapes Vulkan requires (Block structs for buffers and push constants, ...).
Status validate_for_vulkan(std::span<const uint32_t> words) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_3);
  std::string diagnostics;
  tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t& position, const char* text) {
    if (diagnostics.empty()) diagnostics = "word " + std::to_string(position.index) + ": " + text;
  });
  if (!tools.Validate(words.data(), words.size())) return fail("invalid module: " + diagnostics);
  return {};
}

}  // namespace

Expected<ModuleReflection> reflect(std::span<const uint32_t> words) {
  auto parsed = Module::parse(words);
  if (!parsed) return parsed.error();
  const Module& module = *parsed;
  if (auto valid = validate_for_vulkan(words); !valid) return valid.error();

  ModuleReflection out;
  out.version = module.version();
  for (InstructionHandle h : module.instructions(Section::Capability)) {
    out.capabilities.push_back(static_cast<spv::Capability>(module.words(h)[1]));
  }
  for (InstructionHandle h : module.instructions(Section::Extension)) {
    out.extensions.emplace_back(module.string_operand(h, 1));
  }

  std::set<uint32_t> workgroup_variables;
  for (InstructionHandle h : module.instructions(Section::Global)) {
    const auto w = module.words(h);
    if (module.opcode(h) == spv::Op::OpVariable && w.size() >= 4 &&
        w[3] == static_cast<uint32_t>(spv::StorageClass::Workgroup)) {
      workgroup_variables.insert(w[2]);
    }
  }

  auto functions = collect_functions(module);
  if (!functions) return functions.error();
  std::map<uint32_t, FunctionFacts> facts;
  for (const Function& f : *functions) facts[f.id] = facts_of(module, f, workgroup_variables);

  for (const auto& entry : module.entry_points()) {
    EntryPointReflection reflection;
    reflection.name = entry.name;
    reflection.model = entry.model;
    if (entry.model == spv::ExecutionModel::GLCompute) {
      auto size = find_workgroup_size(module, entry);
      if (!size) return fail("entry point \"" + entry.name + "\": " + size.error().message);
      reflection.workgroup_size = *size;
    }
    for (uint32_t id : reachable_functions(*functions, entry.function_id)) {
      auto it = facts.find(id);
      if (it == facts.end()) continue;
      reflection.uses_barriers |= it->second.barrier;
      reflection.uses_workgroup_storage |= it->second.workgroup;
      reflection.uses_subgroup_operations |= it->second.subgroup;
      reflection.uses_atomics |= it->second.atomics;
    }
    auto resources = reflect_resources(words, entry.name, static_cast<uint32_t>(entry.model));
    if (!resources) return fail("entry point \"" + entry.name + "\": " + resources.error().message);
    reflection.resources = std::move(*resources);
    out.entry_points.push_back(std::move(reflection));
  }
  return out;
}

}  // namespace bismuth::spirv_patch
