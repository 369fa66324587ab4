// The global objects of a glslang syntax tree: glslang keeps every one, used or not, in the tree's last node, an
// EOpLinkerObjects aggregate. What the GLSL front reads there: declared bindings and locations
// (declared_bindings.cpp) and the stage interfaces of graphics programs (graphics_link.cpp, stage_limits.cpp,
// transform_feedback_varyings.cpp).
#pragma once

#include <glslang/Include/intermediate.h>
#include <glslang/MachineIndependent/localintermediate.h>

#include <unordered_set>

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

// The ids of the symbols a stage's code refers to (its static uses), the declarations list left out. Traverse a
// tree's root with it.
class StaticUses : public glslang::TIntermTraverser {
 public:
  std::unordered_set<long long> ids;
  void visitSymbol(glslang::TIntermSymbol* symbol) override { ids.insert(symbol->getId()); }
  bool visitAggregate(glslang::TVisit, glslang::TIntermAggregate* node) override {
    return node->getOp() != glslang::EOpLinkerObjects;
  }
};

}  // namespace bismuth::translator
