#include "declared_bindings.hpp"

#include <glslang/Include/intermediate.h>
#include <glslang/MachineIndependent/localintermediate.h>

namespace bismuth::translator {

unsigned DeclaredBindings::binding(const std::unordered_map<std::string, int>& blocks, const std::string& name,
                                   unsigned element) {
  auto it = blocks.find(name);
  return (it == blocks.end() ? 0u : static_cast<unsigned>(it->second)) + element;
}

void DeclaredBindings::merge(const DeclaredBindings& other) {
  uniform_blocks.insert(other.uniform_blocks.begin(), other.uniform_blocks.end());
  storage_blocks.insert(other.storage_blocks.begin(), other.storage_blocks.end());
}

DeclaredBindings declared_bindings(const glslang::TIntermediate& intermediate) {
  DeclaredBindings declared;
  TIntermNode* root = intermediate.getTreeRoot();
  glslang::TIntermAggregate* top = root ? root->getAsAggregate() : nullptr;
  if (top == nullptr) return declared;
  // glslang keeps every global object, used or not, in the tree's last node, an EOpLinkerObjects aggregate.
  for (TIntermNode* node : top->getSequence()) {
    glslang::TIntermAggregate* objects = node ? node->getAsAggregate() : nullptr;
    if (objects == nullptr || objects->getOp() != glslang::EOpLinkerObjects) continue;
    for (TIntermNode* object : objects->getSequence()) {
      const glslang::TIntermSymbol* symbol = object ? object->getAsSymbolNode() : nullptr;
      if (symbol == nullptr || symbol->getType().getBasicType() != glslang::EbtBlock) continue;
      const glslang::TQualifier& q = symbol->getType().getQualifier();
      if (!q.hasBinding()) continue;
      const std::string name(symbol->getType().getTypeName().c_str());
      const int binding = static_cast<int>(q.layoutBinding);
      if (q.storage == glslang::EvqUniform) declared.uniform_blocks[name] = binding;
      if (q.storage == glslang::EvqBuffer) declared.storage_blocks[name] = binding;
    }
  }
  return declared;
}

}  // namespace bismuth::translator
