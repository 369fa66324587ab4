#include "bismuth/spirv_patch/passes/set_spec_constant_defaults.hpp"

#include <string>
#include <vector>

namespace bismuth::spirv_patch {

Status set_spec_constant_defaults(Module& m, std::span<const uint32_t> ids, std::span<const uint32_t> values) {
  if (ids.size() != values.size()) return fail("set_spec_constant_defaults: one value per SpecId is needed");
  for (size_t i = 0; i < ids.size(); ++i) {
    bool applied = false;
    for (InstructionHandle h : m.instructions(Section::Annotation)) {
      auto w = m.words(h);
      if (m.opcode(h) != spv::Op::OpDecorate || w.size() < 4 || w[2] != uint32_t(spv::Decoration::SpecId) ||
          w[3] != ids[i]) {
        continue;
      }
      auto def = m.definition(w[1]);
      if (!def) break;
      const std::vector<uint32_t> d(m.words(*def).begin(), m.words(*def).end());
      switch (m.opcode(*def)) {
        case spv::Op::OpSpecConstant: {
          std::vector<uint32_t> operands(d.begin() + 1, d.end());
          operands[2] = values[i];
          for (size_t k = 3; k < operands.size(); ++k) operands[k] = 0;  // 64-bit: the value is 32-bit
          m.replace(*def, spv::Op::OpSpecConstant, operands);
          applied = true;
          break;
        }
        case spv::Op::OpSpecConstantTrue:
        case spv::Op::OpSpecConstantFalse: {
          const uint32_t operands[] = {d[1], d[2]};
          m.replace(*def, values[i] ? spv::Op::OpSpecConstantTrue : spv::Op::OpSpecConstantFalse, operands);
          applied = true;
          break;
        }
        default: break;
      }
    }
    if (!applied) {
      return fail("specialization constant " + std::to_string(ids[i]) + " is not declared in the module");
    }
  }
  return {};
}

}  // namespace bismuth::spirv_patch
