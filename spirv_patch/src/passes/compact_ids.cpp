// compact_ids: every id is a result id or an <id> operand (SPIR-V 1.6 section 2.2.1); the grammar walk of
// analysis/id_operands finds both, so literals (numbers, strings, enumerants) are never renumbered.
#include "bismuth/spirv_patch/passes/compact_ids.hpp"

#include <algorithm>

#include "analysis/id_operands.hpp"
#include "bismuth/spirv_patch/module.hpp"

namespace bismuth::spirv_patch {

Expected<std::vector<uint32_t>> compact_ids(std::span<const uint32_t> words) {
  auto module = Module::parse(words);
  if (!module) return module.error();
  std::vector<uint32_t> out = compact_ids(*module);
  std::copy(words.begin(), words.begin() + 3, out.begin());  // the header as given (serialize() writes its own)
  out[4] = words[4];
  return out;
}

std::vector<uint32_t> compact_ids(const Module& module) {
  // The words serialize() would give: its header, then each instruction in module order.
  const std::vector<InstructionHandle> instructions = module.instructions();
  size_t words = 5;
  for (InstructionHandle h : instructions) words += module.words(h).size();
  std::vector<uint32_t> out = {spv::MagicNumber, module.version(), module.generator(), module.bound(), 0};
  out.reserve(words);
  std::vector<uint32_t> renumbered(module.bound(), 0);  // old id -> new id (0: not seen yet)
  uint32_t next = 1;
  auto map = [&](uint32_t& id) {
    if (renumbered[id] == 0) renumbered[id] = next++;
    id = renumbered[id];
  };
  IdOperands operands;  // one for every instruction: id_operands reuses its storage
  for (InstructionHandle h : instructions) {
    const auto w = module.words(h);
    const size_t at = out.size();
    out.insert(out.end(), w.begin(), w.end());
    id_operands(module, h, operands);
    if (operands.result_type != 0) map(out[at + operands.result_type]);
    if (operands.result != 0) map(out[at + operands.result]);
    for (size_t i : operands.ids) map(out[at + i]);
  }
  out[3] = next;
  return out;
}

}  // namespace bismuth::spirv_patch
