#define SPV_ENABLE_UTILITY_CODE  // HasResultAndType
#include "analysis/type_queries.hpp"

namespace bismuth::spirv_patch {

using spv::Op;

uint32_t result_type(const Module& module, uint32_t id) {
  auto def = module.definition(id);
  if (!def) return 0;
  bool has_result = false, has_type = false;
  spv::HasResultAndType(module.opcode(*def), &has_result, &has_type);
  const auto w = module.words(*def);
  return has_type && w.size() > 1 ? w[1] : 0;
}

std::optional<bool> int32_type(const Module& module, uint32_t type, uint32_t count) {
  auto def = module.definition(type);
  if (!def) return std::nullopt;
  auto w = module.words(*def);
  if (count != 1) {
    if (module.opcode(*def) != Op::OpTypeVector || w.size() != 4 || w[3] != count) return std::nullopt;
    def = module.definition(w[2]);
    if (!def) return std::nullopt;
    w = module.words(*def);
  }
  if (module.opcode(*def) != Op::OpTypeInt || w.size() != 4 || w[2] != 32) return std::nullopt;
  return w[3] != 0;
}

std::optional<std::pair<uint32_t, uint32_t>> pointer_type(const Module& module, uint32_t type) {
  auto def = module.definition(type);
  if (!def || module.opcode(*def) != Op::OpTypePointer) return std::nullopt;
  const auto w = module.words(*def);
  if (w.size() != 4) return std::nullopt;
  return std::pair{w[2], w[3]};
}

}  // namespace bismuth::spirv_patch
