// Small edits the passes that move a global variable to another storage class share: finding or adding a pointer
// type, and keeping OpEntryPoint's interface list in step with the variables.
#pragma once

#include <cstdint>
#include <vector>

#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/module.hpp"

namespace bismuth::spirv_patch {

// The id of `OpTypePointer storage pointee`, added at the end of the global section when the module has none.
Expected<uint32_t> pointer_to(Module& module, spv::StorageClass storage, uint32_t pointee);

// The operands of OpEntryPoint `entry` with `removed` dropped from its interface and `added` (unless 0) listed once.
// SPIR-V 1.4 and later list every global variable an entry point uses there, earlier versions only Input/Output.
std::vector<uint32_t> entry_point_interface_edit(const Module& module, InstructionHandle entry, uint32_t removed,
                                                 uint32_t added);

// OpName, OpDecorate and OpEntryPoint name a variable without using its value: the rewrite edits or drops them.
inline bool names_without_using(const Module& m, InstructionHandle h) {
  return m.section(h) == Section::Debug || m.section(h) == Section::Annotation || m.opcode(h) == spv::Op::OpEntryPoint;
}

// Whether a module of this version lists every used global variable in OpEntryPoint (SPIR-V 1.4+).
inline bool interface_lists_all_globals(const Module& module) {
  return module.version() >= 0x00010400;
}

}  // namespace bismuth::spirv_patch
