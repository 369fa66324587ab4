#include "analysis/call_graph.hpp"

#include <unordered_map>

namespace bismuth::spirv_patch {

using spv::Op;

Expected<std::vector<Function>> collect_functions(const Module& module) {
  std::vector<Function> functions;
  Function* current = nullptr;
  bool in_first_block = false;
  for (InstructionHandle h : module.instructions(Section::Function)) {
    const Op op = module.opcode(h);
    const auto w = module.words(h);
    if (op == Op::OpFunction) {
      if (current) return fail(module.describe(h) + ": OpFunction inside a function");
      if (w.size() < 5) return fail(module.describe(h) + ": malformed OpFunction");
      functions.push_back(Function{});
      current = &functions.back();
      current->id = w[2];
      current->result_type = w[1];
      current->type = w[4];
      current->header = h;
      in_first_block = false;
      continue;
    }
    if (!current) {
      // Debug lines (and non-semantic instructions) may sit between functions.
      if (op == Op::OpLine || op == Op::OpNoLine || op == Op::OpNop || op == Op::OpExtInst) continue;
      return fail(module.describe(h) + ": instruction outside a function in the function section");
    }
    current->body.push_back(h);
    if (op == Op::OpFunctionEnd) {
      current = nullptr;
      continue;
    }
    if (op == Op::OpLabel) {
      if (!current->has_blocks) {
        current->has_blocks = true;
        in_first_block = true;
        current->insert_point = 0;
        continue;
      }
      in_first_block = false;
    }
    if (in_first_block) {
      // Handle 0 is the first capability, never a function instruction: 0 means "not found yet".
      if (op == Op::OpVariable) {
        current->insert_point = 0;
      } else if (current->insert_point == 0) {
        current->insert_point = h;
      }
    }
    if (op == Op::OpFunctionCall) {
      if (w.size() < 4) return fail(module.describe(h) + ": malformed OpFunctionCall");
      current->callees.push_back(w[3]);
    }
  }
  if (current) {
    return fail(module.describe(current->header) + ": function " + id_name(current->id) + " has no OpFunctionEnd");
  }
  for (const Function& f : functions) {
    if (f.has_blocks && f.insert_point == 0) {
      return fail(module.describe(f.header) + ": the first block of function " + id_name(f.id) +
                  " has no instruction after its variables");
    }
  }
  return functions;
}

const Function* find_function(const std::vector<Function>& functions, uint32_t id) {
  for (const Function& f : functions) {
    if (f.id == id) return &f;
  }
  return nullptr;
}

std::set<uint32_t> reachable_functions(const std::vector<Function>& functions, uint32_t root) {
  std::unordered_map<uint32_t, const Function*> by_id;
  for (const Function& f : functions) by_id[f.id] = &f;
  std::set<uint32_t> seen{root};
  std::vector<uint32_t> pending{root};
  while (!pending.empty()) {
    const uint32_t id = pending.back();
    pending.pop_back();
    auto it = by_id.find(id);
    if (it == by_id.end()) continue;
    for (uint32_t callee : it->second->callees) {
      if (seen.insert(callee).second) pending.push_back(callee);
    }
  }
  return seen;
}

}  // namespace bismuth::spirv_patch
