// push_constants_to_uniform_block: the variant's push-constant block -> a uniform block (the header says why).
// The rules it follows:
// - SPIR-V 2.8 ("Types"): multiple non-aggregate, non-pointer types of the same opcode and operands are invalid;
//   pointer types are exempt, so a PushConstant pointer type turned Uniform may equal one the module declares.
// - Vulkan 15.6.4 ("Offset and Stride Assignment"): a uniform block's members need extended alignment; without
//   uniformBufferStandardLayout a 3- or 4-component vector is 16-aligned, a 32-bit scalar 4-aligned.
// - Vulkan 15.6.1: a Uniform Block variable needs DescriptorSet and Binding decorations.
#include "bismuth/spirv_patch/passes/push_constants_to_uniform_block.hpp"

#include <optional>
#include <string>
#include <vector>

#include "analysis/type_queries.hpp"
#include "bismuth/spirv_patch/analysis/type_layout.hpp"

namespace bismuth::spirv_patch {

namespace {

using spv::Op;

constexpr uint32_t u(auto v) {
  return static_cast<uint32_t>(v);
}

// Each member's Offset (nullopt: a member without one).
std::vector<std::optional<uint32_t>> member_offsets(const Module& module, uint32_t struct_id, size_t members) {
  std::vector<std::optional<uint32_t>> offsets(members);
  for (InstructionHandle h : module.instructions(Section::Annotation)) {
    const auto w = module.words(h);
    if (module.opcode(h) == Op::OpMemberDecorate && w.size() == 5 && w[1] == struct_id &&
        w[3] == u(spv::Decoration::Offset) && w[2] < members) {
      offsets[w[2]] = w[4];
    }
  }
  return offsets;
}

}  // namespace

Expected<PushConstantsToUniformBlockReport> push_constants_to_uniform_block(
    Module& module, const PushConstantsToUniformBlockOptions& options) {
  const auto var_def = module.definition(options.push_variable);
  if (!var_def || module.opcode(*var_def) != Op::OpVariable || module.words(*var_def).size() < 4 ||
      module.words(*var_def)[3] != u(spv::StorageClass::PushConstant)) {
    return fail("id " + std::to_string(options.push_variable) + " is not a push-constant variable");
  }
  const auto pointer = pointer_type(module, module.words(*var_def)[1]);
  const auto struct_def = pointer ? module.definition(pointer->second) : std::nullopt;
  if (!struct_def || module.opcode(*struct_def) != Op::OpTypeStruct) {
    return fail(module.describe(*var_def) + ": the push constant variable is not a pointer to a struct");
  }
  const uint32_t struct_id = pointer->second;
  const auto struct_words = module.words(*struct_def);
  const size_t members = struct_words.size() - 2;
  const std::vector<std::optional<uint32_t>> offsets = member_offsets(module, struct_id, members);
  for (size_t m = 0; m < members; ++m) {
    const uint32_t type = struct_words[2 + m];
    const uint32_t alignment = int32_type(module, type, 1)   ? 4u
                               : int32_type(module, type, 3) ? 16u
                               : int32_type(module, type, 4) ? 16u
                                                             : 0u;
    if (alignment == 0 || !offsets[m] || *offsets[m] % alignment != 0) {
      return fail(module.describe(*struct_def) + ": member " + std::to_string(m) +
                  " is not a 32-bit integer scalar or vector at an offset a uniform block allows");
    }
  }
  bool block = false;
  for (InstructionHandle h : module.instructions(Section::Annotation)) {
    const auto a = module.words(h);
    block |=
        module.opcode(h) == Op::OpDecorate && a.size() == 3 && a[1] == struct_id && a[2] == u(spv::Decoration::Block);
  }
  if (!block) return fail(module.describe(*struct_def) + ": the push constant struct is not decorated Block");
  auto block_bytes = explicit_layout_size(module, struct_id, "push constant");
  if (!block_bytes) return block_bytes.error();

  // Every PushConstant pointer type becomes Uniform: only this variable may have that storage class, and no function
  // may take such a pointer (its parameters would change type under the function's callers).
  std::vector<InstructionHandle> pointer_types;
  std::vector<uint32_t> pointer_ids;
  for (InstructionHandle h : module.instructions(Section::Global)) {
    const auto w = module.words(h);
    const Op op = module.opcode(h);
    if (op == Op::OpTypePointer && w.size() == 4 && w[2] == u(spv::StorageClass::PushConstant)) {
      pointer_types.push_back(h);
      pointer_ids.push_back(w[1]);
    } else if (op == Op::OpVariable && w.size() >= 4 && w[3] == u(spv::StorageClass::PushConstant) &&
               w[2] != options.push_variable) {
      return fail(module.describe(h) + ": a second push-constant variable");
    }
  }
  for (InstructionHandle h : module.instructions(Section::Global)) {
    if (module.opcode(h) != Op::OpTypeFunction) continue;
    const auto w = module.words(h);
    for (size_t i = 2; i < w.size(); ++i) {
      for (uint32_t id : pointer_ids) {
        if (w[i] == id) return fail(module.describe(h) + ": a function type takes a push-constant pointer");
      }
    }
  }

  for (InstructionHandle h : pointer_types) {
    const auto w = module.words(h);
    const uint32_t operands[] = {w[1], u(spv::StorageClass::Uniform), w[3]};
    module.replace(h, Op::OpTypePointer, operands);
  }
  {
    const auto w = module.words(*var_def);
    std::vector<uint32_t> operands(w.begin() + 1, w.end());
    operands[2] = u(spv::StorageClass::Uniform);
    module.replace(*var_def, Op::OpVariable, operands);
  }
  const uint32_t set[] = {options.set};
  const uint32_t binding[] = {options.binding};
  module.add_decoration(options.push_variable, spv::Decoration::DescriptorSet, set);
  module.add_decoration(options.push_variable, spv::Decoration::Binding, binding);
  return PushConstantsToUniformBlockReport{options.binding, static_cast<uint32_t>(*block_bytes)};
}

}  // namespace bismuth::spirv_patch
