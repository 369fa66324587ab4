#include "shared_memory.hpp"

#include <algorithm>
#include <unordered_map>

#include "bismuth/spirv_patch/module.hpp"

namespace bismuth::translator {

namespace {

constexpr uint64_t kSaturated = uint64_t{1} << 63;

uint64_t saturating_add(uint64_t a, uint64_t b) {
  return std::min(kSaturated, a + std::min(b, kSaturated));
}
uint64_t saturating_mul(uint64_t a, uint64_t b) {
  uint64_t product = 0;
  return __builtin_mul_overflow(a, b, &product) ? kSaturated : std::min(product, kSaturated);
}
uint64_t round_up(uint64_t value, uint64_t alignment) {
  return alignment <= 1 ? value : saturating_mul((value + alignment - 1) / alignment, alignment);
}

struct Layout {
  uint64_t size = 0;
  uint64_t alignment = 1;
};

class Std430 {
 public:
  explicit Std430(const spirv_patch::Module& module) : module_(module) {}

  std::optional<Layout> of(uint32_t type_id) {
    if (auto known = memo_.find(type_id); known != memo_.end()) return known->second;
    memo_[type_id] = std::nullopt;  // a type that (malformed) contains itself has no size
    std::optional<Layout> layout = compute(type_id);
    memo_[type_id] = layout;
    return layout;
  }

 private:
  // The value of an integer constant (an OpSpecConstant's default included); nullopt for anything else.
  std::optional<uint64_t> constant_value(uint32_t id) const {
    auto def = module_.definition(id);
    if (!def) return std::nullopt;
    const spv::Op op = module_.opcode(*def);
    if (op != spv::Op::OpConstant && op != spv::Op::OpSpecConstant) return std::nullopt;
    const auto w = module_.words(*def);
    if (w.size() < 4) return std::nullopt;
    return w.size() >= 5 ? uint64_t(w[3]) | uint64_t(w[4]) << 32 : uint64_t(w[3]);
  }

  std::optional<Layout> compute(uint32_t type_id) {
    auto def = module_.definition(type_id);
    if (!def) return std::nullopt;
    const auto w = module_.words(*def);
    switch (module_.opcode(*def)) {
      case spv::Op::OpTypeBool: return Layout{4, 4};
      case spv::Op::OpTypeInt:
      case spv::Op::OpTypeFloat: {
        const uint64_t bytes = std::max<uint64_t>(w[2] / 8, 1);
        return Layout{bytes, bytes};
      }
      case spv::Op::OpTypePointer: return Layout{8, 8};
      case spv::Op::OpTypeVector: {
        auto component = of(w[2]);
        if (!component) return std::nullopt;
        const uint64_t count = w[3];
        return Layout{saturating_mul(component->size, count), component->alignment * (count == 3 ? 4 : count)};
      }
      case spv::Op::OpTypeMatrix: {
        auto column = of(w[2]);
        if (!column) return std::nullopt;
        return Layout{saturating_mul(round_up(column->size, column->alignment), w[3]), column->alignment};
      }
      case spv::Op::OpTypeArray: {
        auto element = of(w[2]);
        auto length = constant_value(w[3]);
        if (!element || !length) return std::nullopt;
        return Layout{saturating_mul(round_up(element->size, element->alignment), *length), element->alignment};
      }
      case spv::Op::OpTypeRuntimeArray: {
        auto element = of(w[2]);
        if (!element) return std::nullopt;
        return Layout{0, element->alignment};
      }
      case spv::Op::OpTypeStruct: {
        Layout layout{0, 1};
        for (size_t m = 2; m < w.size(); ++m) {
          auto member = of(w[m]);
          if (!member) return std::nullopt;
          layout.size = saturating_add(round_up(layout.size, member->alignment), member->size);
          layout.alignment = std::max(layout.alignment, member->alignment);
        }
        layout.size = round_up(layout.size, layout.alignment);
        return layout;
      }
      default: return std::nullopt;
    }
  }

  const spirv_patch::Module& module_;
  std::unordered_map<uint32_t, std::optional<Layout>> memo_;
};

}  // namespace

std::optional<uint64_t> shared_memory_bytes(const spirv_patch::Module& module) {
  Std430 std430(module);
  uint64_t total = 0;
  for (spirv_patch::InstructionHandle h : module.instructions(spirv_patch::Section::Global)) {
    const auto w = module.words(h);
    if (module.opcode(h) != spv::Op::OpVariable || w.size() < 4 ||
        static_cast<spv::StorageClass>(w[3]) != spv::StorageClass::Workgroup) {
      continue;
    }
    auto pointer = module.definition(w[1]);
    if (!pointer || module.opcode(*pointer) != spv::Op::OpTypePointer) return std::nullopt;
    auto layout = std430.of(module.words(*pointer)[3]);
    if (!layout) return std::nullopt;
    total = saturating_add(round_up(total, layout->alignment), layout->size);
  }
  return total;
}

}  // namespace bismuth::translator
