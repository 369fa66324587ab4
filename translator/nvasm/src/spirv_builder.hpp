// A small SPIR-V writer for the assembler: logical sections as word vectors, types and constants deduplicated,
// function bodies written block by block. Ids come from one counter; the header's bound is the counter at the end.
#pragma once

#include <spirv/unified1/spirv.hpp11>

#include <array>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace bismuth::nvasm::detail {

class SpirvBuilder {
 public:
  uint32_t id() { return bound_++; }

  static void put(std::vector<uint32_t>& out, spv::Op op, std::initializer_list<uint32_t> operands) {
    out.push_back((static_cast<uint32_t>(operands.size() + 1) << 16) | static_cast<uint32_t>(op));
    out.insert(out.end(), operands.begin(), operands.end());
  }
  static void put(std::vector<uint32_t>& out, spv::Op op, const std::vector<uint32_t>& operands) {
    out.push_back((static_cast<uint32_t>(operands.size() + 1) << 16) | static_cast<uint32_t>(op));
    out.insert(out.end(), operands.begin(), operands.end());
  }
  static void put_string(std::vector<uint32_t>& out, std::string_view s) {
    std::vector<uint32_t> words((s.size() + 4) / 4, 0);
    std::memcpy(words.data(), s.data(), s.size());
    out.insert(out.end(), words.begin(), words.end());
  }

  // The module's one cache of types and constants. global() emits an object into `globals` the first time and
  // returns the same id for the same opcode and operands after that. The typed accessors below are global() for
  // the objects asked for on nearly every instruction: they keep the ids it gave in arrays, so those lookups cost
  // an index instead of a hashed key.
  uint32_t global(spv::Op op, std::vector<uint32_t> operands, bool has_type);
  uint32_t type_void() { return remember(void_type_, spv::Op::OpTypeVoid, {}); }
  uint32_t type_bool() { return remember(bool_type_, spv::Op::OpTypeBool, {}); }
  uint32_t type_int(uint32_t width, bool is_signed);
  uint32_t type_float(uint32_t width);
  uint32_t type_vector(uint32_t component, uint32_t count);
  uint32_t type_pointer(spv::StorageClass storage_class, uint32_t type);
  uint32_t constant_u32(uint32_t value);

  // An instruction with a result in the current function body.
  uint32_t op(spv::Op opcode, uint32_t type, std::initializer_list<uint32_t> operands) {
    return op(opcode, type, std::span<const uint32_t>(operands.begin(), operands.size()));
  }
  uint32_t op(spv::Op opcode, uint32_t type, std::span<const uint32_t> operands) {
    const uint32_t result = id();
    body.push_back((static_cast<uint32_t>(operands.size() + 3) << 16) | static_cast<uint32_t>(opcode));
    body.push_back(type);
    body.push_back(result);
    body.insert(body.end(), operands.begin(), operands.end());
    return result;
  }
  void inst(spv::Op opcode, std::initializer_list<uint32_t> operands) { put(body, opcode, operands); }

  std::vector<uint32_t> capabilities, extensions, imports, memory_model, entry_points, modes, names, annotations,
      globals, functions, body;

  std::vector<uint32_t> finish() const;

 private:
  uint32_t remember(uint32_t& slot, spv::Op op, std::initializer_list<uint32_t> operands) {
    if (!slot) slot = global(op, operands, false);
    return slot;
  }

  uint32_t bound_ = 1;
  struct KeyHash {
    size_t operator()(const std::vector<uint32_t>& v) const {
      uint64_t h = 1469598103934665603ull;
      for (uint32_t w : v) h = (h ^ w) * 1099511628211ull;
      return static_cast<size_t>(h);
    }
  };
  std::unordered_map<std::vector<uint32_t>, uint32_t, KeyHash> cache_;
  // The ids global() gave the frequent objects.
  uint32_t void_type_ = 0, bool_type_ = 0;
  std::array<uint32_t, 8> int_types_{};    // 8, 16, 32, 64 bits x unsigned, signed
  std::array<uint32_t, 3> float_types_{};  // 16, 32, 64 bits
  std::vector<std::array<uint32_t, 3>> vector_types_;  // by component type id: 2, 3, 4 components
  std::unordered_map<uint64_t, uint32_t> pointer_types_;  // storage class << 32 | pointee type
  std::unordered_map<uint32_t, uint32_t> u32_constants_;
};

}  // namespace bismuth::nvasm::detail
