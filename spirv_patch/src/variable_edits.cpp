#include "variable_edits.hpp"

namespace bismuth::spirv_patch {

Expected<uint32_t> pointer_to(Module& m, spv::StorageClass storage, uint32_t pointee) {
  for (InstructionHandle h : m.instructions(Section::Global)) {
    const auto w = m.words(h);
    if (m.opcode(h) == spv::Op::OpTypePointer && w[2] == uint32_t(storage) && w[3] == pointee) return w[1];
  }
  auto id = m.allocate_id();
  if (!id) return id.error();
  const uint32_t operands[] = {*id, uint32_t(storage), pointee};
  m.append(Section::Global, spv::Op::OpTypePointer, operands);
  return *id;
}

std::vector<uint32_t> entry_point_interface_edit(const Module& m, InstructionHandle entry, uint32_t removed,
                                                 uint32_t added) {
  const auto w = m.words(entry);
  // Words: opcode, execution model, function, the name (nul-terminated, padded to words), then the interface.
  const size_t interface_begin = 3 + m.string_operand(entry, 3).size() / 4 + 1;
  std::vector<uint32_t> operands(w.begin() + 1, w.begin() + static_cast<std::ptrdiff_t>(interface_begin));
  bool has_added = false;
  for (size_t i = interface_begin; i < w.size(); ++i) {
    if (w[i] != removed) operands.push_back(w[i]);
    has_added = has_added || w[i] == added;
  }
  if (added != 0 && !has_added) operands.push_back(added);
  return operands;
}

}  // namespace bismuth::spirv_patch
