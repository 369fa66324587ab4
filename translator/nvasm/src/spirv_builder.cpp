#include "spirv_builder.hpp"

namespace bismuth::nvasm::detail {
namespace {

// 8, 16, 32, 64 -> 0, 1, 2, 3; anything else -> 4.
uint32_t width_index(uint32_t width) {
  switch (width) {
    case 8: return 0;
    case 16: return 1;
    case 32: return 2;
    case 64: return 3;
    default: return 4;
  }
}

}  // namespace

uint32_t SpirvBuilder::global(spv::Op op, std::vector<uint32_t> operands, bool has_type) {
  operands.push_back(static_cast<uint32_t>(op));
  auto [it, inserted] = cache_.try_emplace(std::move(operands), 0);
  if (!inserted) return it->second;
  const std::vector<uint32_t>& key = it->first;
  const uint32_t result = id();
  const size_t n = key.size() - 1;  // operands without the opcode
  globals.push_back((static_cast<uint32_t>(n + 2) << 16) | static_cast<uint32_t>(op));
  if (has_type) {
    globals.push_back(key[0]);
    globals.push_back(result);
    globals.insert(globals.end(), key.begin() + 1, key.begin() + static_cast<std::ptrdiff_t>(n));
  } else {
    globals.push_back(result);
    globals.insert(globals.end(), key.begin(), key.begin() + static_cast<std::ptrdiff_t>(n));
  }
  it->second = result;
  return result;
}

uint32_t SpirvBuilder::type_int(uint32_t width, bool is_signed) {
  const uint32_t w = width_index(width);
  if (w >= 4) return global(spv::Op::OpTypeInt, {width, is_signed ? 1u : 0u}, false);
  return remember(int_types_[w * 2 + (is_signed ? 1 : 0)], spv::Op::OpTypeInt, {width, is_signed ? 1u : 0u});
}

uint32_t SpirvBuilder::type_float(uint32_t width) {
  const uint32_t w = width_index(width);
  if (w == 0 || w >= 4) return global(spv::Op::OpTypeFloat, {width}, false);
  return remember(float_types_[w - 1], spv::Op::OpTypeFloat, {width});
}

uint32_t SpirvBuilder::type_vector(uint32_t component, uint32_t count) {
  if (count < 2 || count > 4) return global(spv::Op::OpTypeVector, {component, count}, false);
  if (component >= vector_types_.size()) vector_types_.resize(component + 1);
  return remember(vector_types_[component][count - 2], spv::Op::OpTypeVector, {component, count});
}

uint32_t SpirvBuilder::type_pointer(spv::StorageClass storage_class, uint32_t type) {
  const uint64_t key = (uint64_t(storage_class) << 32) | type;
  auto it = pointer_types_.find(key);
  if (it != pointer_types_.end()) return it->second;
  const uint32_t id = global(spv::Op::OpTypePointer, {static_cast<uint32_t>(storage_class), type}, false);
  pointer_types_.emplace(key, id);
  return id;
}

uint32_t SpirvBuilder::constant_u32(uint32_t value) {
  auto it = u32_constants_.find(value);
  if (it != u32_constants_.end()) return it->second;
  const uint32_t id = global(spv::Op::OpConstant, {type_int(32, false), value}, true);
  u32_constants_.emplace(value, id);
  return id;
}

std::vector<uint32_t> SpirvBuilder::finish() const {
  std::vector<uint32_t> out = {0x07230203u, 0x00010300u, 0u, bound_, 0u};
  for (const auto* section : {&capabilities, &extensions, &imports, &memory_model, &entry_points, &modes, &names,
                              &annotations, &globals, &functions}) {
    out.insert(out.end(), section->begin(), section->end());
  }
  return out;
}

}  // namespace bismuth::nvasm::detail
