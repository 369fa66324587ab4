#include "atomic_counter_bindings.hpp"

#include <spirv/unified1/spirv.hpp11>

#include <charconv>
#include <cstring>
#include <string_view>
#include <unordered_map>

namespace bismuth::translator {

namespace {

constexpr std::string_view kBlockPrefix = "gl_AtomicCounterBlock_";

// The literal string starting at words[at], bounded by `end`.
std::string_view literal_string(const std::vector<uint32_t>& words, size_t at, size_t end) {
  const char* begin = reinterpret_cast<const char*>(words.data() + at);
  const size_t max = (end - at) * sizeof(uint32_t);
  return std::string_view(begin, strnlen(begin, max));
}

}  // namespace

Status move_atomic_counter_blocks(std::vector<uint32_t>& words, uint32_t binding_base) {
  if (words.size() < 5) return fail("SPIR-V module too short");
  std::unordered_map<uint32_t, uint32_t> block_type_to_gl_binding;  // struct type id -> GL binding
  std::unordered_map<uint32_t, uint32_t> pointer_to_pointee;
  std::unordered_map<uint32_t, uint32_t> variable_to_gl_binding;
  std::vector<size_t> binding_decorations;  // word index of each OpDecorate ... Binding

  for (size_t at = 5; at < words.size();) {
    const uint32_t count = words[at] >> 16;
    const auto opcode = static_cast<spv::Op>(words[at] & 0xffff);
    if (count == 0 || at + count > words.size()) return fail("malformed SPIR-V at word " + std::to_string(at));
    const size_t end = at + count;
    if (opcode == spv::Op::OpName && count >= 3) {
      std::string_view name = literal_string(words, at + 2, end);
      if (name.starts_with(kBlockPrefix)) {
        name.remove_prefix(kBlockPrefix.size());
        uint32_t binding = 0;
        auto [ptr, ec] = std::from_chars(name.data(), name.data() + name.size(), binding);
        if (ec == std::errc() && ptr == name.data() + name.size()) block_type_to_gl_binding[words[at + 1]] = binding;
      }
    } else if (opcode == spv::Op::OpDecorate && count == 4 &&
               static_cast<spv::Decoration>(words[at + 2]) == spv::Decoration::Binding) {
      binding_decorations.push_back(at);
    } else if (opcode == spv::Op::OpTypePointer && count == 4) {
      pointer_to_pointee[words[at + 1]] = words[at + 3];
    } else if (opcode == spv::Op::OpVariable && count >= 4) {
      auto pointee = pointer_to_pointee.find(words[at + 1]);
      if (pointee != pointer_to_pointee.end()) {
        auto block = block_type_to_gl_binding.find(pointee->second);
        if (block != block_type_to_gl_binding.end()) variable_to_gl_binding[words[at + 2]] = block->second;
      }
    } else if (opcode == spv::Op::OpFunction) {
      break;  // every global is declared before the first function
    }
    at = end;
  }
  for (size_t at : binding_decorations) {
    auto variable = variable_to_gl_binding.find(words[at + 1]);
    if (variable != variable_to_gl_binding.end()) words[at + 3] = binding_base + variable->second;
  }
  return {};
}

}  // namespace bismuth::translator
