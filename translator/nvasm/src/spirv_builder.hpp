// A small SPIR-V writer for the assembler: logical sections as word vectors, types and constants deduplicated,
// function bodies written block by block. Ids come from one counter; the header's bound is the counter at the end.
#pragma once

#include <spirv/unified1/spirv.hpp11>

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <unordered_map>
#include <string_view>
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

  // A type or constant: emitted once into `globals`, keyed by opcode and operands.
  uint32_t global(spv::Op op, std::vector<uint32_t> operands, bool has_type) {
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

  // An instruction with a result in the current function body.
  uint32_t op(spv::Op opcode, uint32_t type, std::initializer_list<uint32_t> operands) {
    const uint32_t result = id();
    body.push_back((static_cast<uint32_t>(operands.size() + 3) << 16) | static_cast<uint32_t>(opcode));
    body.push_back(type);
    body.push_back(result);
    body.insert(body.end(), operands.begin(), operands.end());
    return result;
  }
  uint32_t op(spv::Op opcode, uint32_t type, const std::vector<uint32_t>& operands) {
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

  std::vector<uint32_t> finish() const {
    std::vector<uint32_t> out = {0x07230203u, 0x00010300u, 0u, bound_, 0u};
    for (const auto* section : {&capabilities, &extensions, &imports, &memory_model, &entry_points, &modes, &names,
                                &annotations, &globals, &functions}) {
      out.insert(out.end(), section->begin(), section->end());
    }
    return out;
  }

 private:
  uint32_t bound_ = 1;
  struct KeyHash {
    size_t operator()(const std::vector<uint32_t>& v) const {
      uint64_t h = 1469598103934665603ull;
      for (uint32_t w : v) h = (h ^ w) * 1099511628211ull;
      return static_cast<size_t>(h);
    }
  };
  std::unordered_map<std::vector<uint32_t>, uint32_t, KeyHash> cache_;
};

}  // namespace bismuth::nvasm::detail
