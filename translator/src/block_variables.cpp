#include "block_variables.hpp"

#include <unordered_map>
#include <unordered_set>

#include "bismuth/spirv_patch/module.hpp"

namespace bismuth::translator {

namespace {

using spirv_patch::InstructionHandle;
using spirv_patch::Module;
using spirv_patch::Section;

// The integer value of an OpConstant (32-bit), 0 when `id` is none.
uint32_t constant_value(const Module& module, uint32_t id) {
  auto def = module.definition(id);
  if (!def || module.opcode(*def) != spv::Op::OpConstant || module.words(*def).size() < 4) return 0;
  return module.words(*def)[3];
}

}  // namespace

std::vector<BlockVariable> block_variables(const Module& module) {
  std::unordered_map<uint32_t, std::string> names;  // id -> OpName
  for (InstructionHandle h : module.instructions(Section::Debug)) {
    if (module.opcode(h) == spv::Op::OpName) names[module.words(h)[1]] = std::string(module.string_operand(h, 2));
  }
  std::unordered_set<uint32_t> uniform_blocks, buffer_blocks;  // struct ids decorated Block / BufferBlock
  for (InstructionHandle h : module.instructions(Section::Annotation)) {
    const auto w = module.words(h);
    if (module.opcode(h) != spv::Op::OpDecorate || w.size() < 3) continue;
    if (static_cast<spv::Decoration>(w[2]) == spv::Decoration::Block) uniform_blocks.insert(w[1]);
    if (static_cast<spv::Decoration>(w[2]) == spv::Decoration::BufferBlock) buffer_blocks.insert(w[1]);
  }

  std::vector<BlockVariable> out;
  for (InstructionHandle h : module.instructions(Section::Global)) {
    const auto w = module.words(h);
    if (module.opcode(h) != spv::Op::OpVariable || w.size() < 4) continue;
    const auto storage_class = static_cast<spv::StorageClass>(w[3]);
    if (storage_class != spv::StorageClass::StorageBuffer && storage_class != spv::StorageClass::Uniform &&
        storage_class != spv::StorageClass::UniformConstant) {
      continue;
    }
    auto pointer = module.definition(w[1]);
    if (!pointer || module.opcode(*pointer) != spv::Op::OpTypePointer) continue;
    uint32_t type = module.words(*pointer)[3];
    uint32_t array_size = 1;
    // An array of blocks: one descriptor per element (GLSL allows one dimension of block arrays, each sized).
    while (auto def = module.definition(type)) {
      if (module.opcode(*def) != spv::Op::OpTypeArray) break;
      array_size *= std::max<uint32_t>(1, constant_value(module, module.words(*def)[3]));
      type = module.words(*def)[2];
    }
    BlockVariable v{w[2], names.count(type) ? names[type] : std::string(),
                    names.count(w[2]) ? names[w[2]] : std::string(), BlockStorage::ShaderStorage, array_size};
    if (storage_class == spv::StorageClass::UniformConstant) {
      auto def = module.definition(type);
      if (!def || (module.opcode(*def) != spv::Op::OpTypeSampledImage && module.opcode(*def) != spv::Op::OpTypeImage))
        continue;
      v.storage = BlockStorage::Opaque;
    } else if (storage_class == spv::StorageClass::Uniform) {
      if (uniform_blocks.count(type)) {
        v.storage = BlockStorage::Uniform;
      } else if (!buffer_blocks.count(type)) {
        continue;
      }
    }
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace bismuth::translator
