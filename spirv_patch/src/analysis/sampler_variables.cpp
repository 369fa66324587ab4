// sampler_variables.hpp.
#include "analysis/sampler_variables.hpp"

#include <optional>
#include <utility>

#include <spirv/unified1/spirv.hpp11>

namespace bismuth::spirv_patch {

namespace {

using spv::Op;

// The OpFunction and parameter index of an OpFunctionParameter.
std::optional<std::pair<uint32_t, uint32_t>> parameter_position(const Module& m, uint32_t parameter) {
  uint32_t function = 0, index = 0;
  for (InstructionHandle h : m.instructions(Section::Function)) {
    if (m.opcode(h) == Op::OpFunction) {
      function = m.words(h)[2];
      index = 0;
    } else if (m.opcode(h) == Op::OpFunctionParameter) {
      if (m.words(h)[2] == parameter) return std::pair{function, index};
      ++index;
    }
  }
  return std::nullopt;
}

uint32_t trace(const Module& m, uint32_t id, int depth) {
  if (depth > 32) return 0;
  auto def = m.definition(id);
  if (!def) return 0;
  const auto w = m.words(*def);
  switch (m.opcode(*def)) {
    case Op::OpVariable: return id;
    case Op::OpLoad:
    case Op::OpAccessChain:
    case Op::OpInBoundsAccessChain:
    case Op::OpCopyObject:
    case Op::OpImage: return trace(m, w[3], depth + 1);
    case Op::OpFunctionParameter: {
      auto position = parameter_position(m, id);
      if (!position) return 0;
      uint32_t found = 0;
      for (InstructionHandle h : m.instructions(Section::Function)) {
        const auto c = m.words(h);
        if (m.opcode(h) != Op::OpFunctionCall || c[3] != position->first || c.size() <= 4 + position->second) continue;
        const uint32_t v = trace(m, c[4 + position->second], depth + 1);
        if (v == 0 || (found != 0 && v != found)) return 0;
        found = v;
      }
      return found;
    }
    default: return 0;
  }
}

}  // namespace

BindingDecorations binding_decorations(const Module& m) {
  BindingDecorations d;
  for (InstructionHandle h : m.instructions(Section::Annotation)) {
    const auto w = m.words(h);
    if (m.opcode(h) != Op::OpDecorate || w.size() < 4) continue;
    if (w[2] == uint32_t(spv::Decoration::DescriptorSet)) d.set[w[1]] = w[3];
    if (w[2] == uint32_t(spv::Decoration::Binding)) d.binding[w[1]] = w[3];
  }
  return d;
}

uint32_t trace_variable(const Module& m, uint32_t id) {
  return trace(m, id, 0);
}

}  // namespace bismuth::spirv_patch
