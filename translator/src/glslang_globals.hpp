// The global objects of a glslang syntax tree: glslang keeps every one, used or not, in the tree's last node, an
// EOpLinkerObjects aggregate. What the GLSL front reads there: declared bindings and locations
// (declared_bindings.cpp) and the stage interfaces of graphics programs (graphics_link.cpp).
#pragma once

#include <glslang/Include/intermediate.h>
#include <glslang/MachineIndependent/localintermediate.h>

namespace bismuth::translator {

// Calls `visit(const glslang::TIntermSymbol&)` for every global object of `intermediate`'s tree.
template <class Visit>
void for_each_global(const glslang::TIntermediate& intermediate, Visit visit) {
  TIntermNode* root = intermediate.getTreeRoot();
  glslang::TIntermAggregate* top = root ? root->getAsAggregate() : nullptr;
  if (top == nullptr) return;
  for (TIntermNode* node : top->getSequence()) {
    glslang::TIntermAggregate* objects = node ? node->getAsAggregate() : nullptr;
    if (objects == nullptr || objects->getOp() != glslang::EOpLinkerObjects) continue;
    for (TIntermNode* object : objects->getSequence()) {
      if (const glslang::TIntermSymbol* symbol = object ? object->getAsSymbolNode() : nullptr) visit(*symbol);
    }
  }
}

}  // namespace bismuth::translator
