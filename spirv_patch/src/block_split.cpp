// split_block_before (block_split.hpp). Sources: SPIR-V 1.6 section 2.11 (structured control flow: "OpLoopMerge must
// immediately precede either an OpBranch or OpBranchConditional instruction"; a loop header is the target of the back
// edge; "OpPhi ... must be the first instructions in a block"; a break is a branch to the innermost loop's merge
// block) and section 3.42.17 (OpPhi: "Parent i is the label of an immediate predecessor in the CFG").
#include "block_split.hpp"

#include <algorithm>
#include <vector>

namespace bismuth::spirv_patch {

namespace {

using spv::Op;

bool is_terminator(Op op) {
  switch (op) {
    case Op::OpBranch:
    case Op::OpBranchConditional:
    case Op::OpSwitch:
    case Op::OpReturn:
    case Op::OpReturnValue:
    case Op::OpKill:
    case Op::OpUnreachable:
    case Op::OpTerminateInvocation:
    case Op::OpIgnoreIntersectionKHR:
    case Op::OpTerminateRayKHR:
    case Op::OpEmitMeshTasksEXT: return true;
    default: return false;
  }
}

// The block around `at`, found and checked without editing anything.
struct BlockAround {
  std::vector<InstructionHandle> body;  // the function section, in order
  size_t label = 0;                     // index of the block's OpLabel in `body`
  size_t at = 0;
  size_t terminator = 0;
  bool loop_header = false;  // an OpLoopMerge precedes the terminator (an OpSelectionMerge needs no care)
};

Expected<BlockAround> block_around(const Module& m, InstructionHandle at) {
  BlockAround b;
  b.body = m.instructions(Section::Function);
  const auto& body = b.body;
  const auto at_it = std::find(body.begin(), body.end(), at);
  if (at_it == body.end() || m.opcode(at) == Op::OpPhi || m.opcode(at) == Op::OpLabel || is_terminator(m.opcode(at))) {
    return fail("cannot split a block before " + m.describe(at) + ": not an instruction inside a block");
  }
  // The block: its label before `at`, its terminator after; nothing that ends a block in between.
  auto label_it = at_it;
  while (label_it != body.begin() && m.opcode(*label_it) != Op::OpLabel) {
    --label_it;
    const Op op = m.opcode(*label_it);
    if (is_terminator(op) || op == Op::OpFunction || op == Op::OpFunctionEnd) {
      return fail("cannot split a block before " + m.describe(at) + ": it follows " + m.describe(*label_it) +
                  " without an OpLabel between");
    }
  }
  if (m.opcode(*label_it) != Op::OpLabel) {
    return fail("cannot split a block before " + m.describe(at) + ": no OpLabel before it");
  }
  auto end_it = at_it;
  while (end_it != body.end() && !is_terminator(m.opcode(*end_it))) {
    const Op op = m.opcode(*end_it);
    if (op == Op::OpLabel || op == Op::OpFunctionEnd) break;
    ++end_it;
  }
  if (end_it == body.end() || !is_terminator(m.opcode(*end_it))) {
    return fail("cannot split a block before " + m.describe(at) + ": its block has no terminator");
  }
  b.label = size_t(label_it - body.begin());
  b.at = size_t(at_it - body.begin());
  b.terminator = size_t(end_it - body.begin());
  b.loop_header = end_it != at_it && m.opcode(*(end_it - 1)) == Op::OpLoopMerge;
  if (b.loop_header && m.opcode(*end_it) == Op::OpBranchConditional) {
    const uint32_t label = m.words(*label_it)[1];
    const auto merge = m.words(*(end_it - 1));
    const auto t = m.words(*end_it);
    auto leaves = [&](uint32_t target) { return target == merge[1] || target == merge[2] || target == label; };
    if (!leaves(t[2]) && !leaves(t[3])) {
      return fail("cannot split the loop header " + id_name(label) + " before " + m.describe(at) + ": its " +
                  m.describe(*end_it) + " branches to neither the loop's merge block nor its continue target");
    }
  }
  return b;
}

}  // namespace

Status can_split_block_before(const Module& m, InstructionHandle at) {
  auto block = block_around(m, at);
  if (!block) return block.error();
  return {};
}

Expected<uint32_t> split_block_before(Module& m, InstructionHandle at) {
  auto block = block_around(m, at);
  if (!block) return block.error();
  const std::vector<InstructionHandle>& body = block->body;
  const auto label_it = body.begin() + std::ptrdiff_t(block->label);
  const auto at_it = body.begin() + std::ptrdiff_t(block->at);
  const uint32_t label = m.words(*label_it)[1];
  const InstructionHandle terminator = body[block->terminator];
  const bool loop_header = block->loop_header;
  const InstructionHandle loop_merge = loop_header ? body[block->terminator - 1] : terminator;

  auto last = m.allocate_id();
  if (!last) return last;
  uint32_t edges_leave = *last;  // the block the terminator ends up in

  if (loop_header) {
    std::vector<uint32_t> merge(m.words(loop_merge).begin() + 1, m.words(loop_merge).end());
    // A single-block loop (continue target = header): the terminator moves to a block of its own after the last
    // part, which becomes the continue target (dominated by the header, holding the back edge). Not the last part
    // itself: a construct the caller ends there would have its merge block outside the loop construct.
    const bool self_continue = merge[1] == label;
    uint32_t continue_target = merge[1];
    if (self_continue) {
      auto back_edge = m.allocate_id();
      if (!back_edge) return back_edge;
      const uint32_t target[] = {*back_edge};
      m.insert_before(terminator, Op::OpBranch, target);
      m.insert_before(terminator, Op::OpLabel, target);
      continue_target = *back_edge;
      edges_leave = *back_edge;
    }
    merge[1] = continue_target;
    // After the block's OpPhis (they must open it): OpLoopMerge, OpBranch to a new block for the caller's code.
    auto first_non_phi = label_it + 1;
    for (auto it = label_it + 1; it != at_it; ++it) {
      if (m.opcode(*it) == Op::OpPhi) first_non_phi = it + 1;
    }
    auto rest = m.allocate_id();
    if (!rest) return rest;
    m.insert_before(*first_non_phi, Op::OpLoopMerge, merge);
    const uint32_t branch[] = {*rest};
    m.insert_before(*first_non_phi, Op::OpBranch, branch);
    const uint32_t rest_label[] = {*rest};
    m.insert_before(*first_non_phi, Op::OpLabel, rest_label);
    m.erase(loop_merge);
  }

  // The block's out-edges (and a self back edge) now leave the block that holds its terminator.
  for (InstructionHandle h : body) {
    if (m.opcode(h) != Op::OpPhi) continue;
    std::vector<uint32_t> phi(m.words(h).begin() + 1, m.words(h).end());
    bool changed = false;
    for (size_t parent = 3; parent < phi.size(); parent += 2) {
      if (phi[parent] == label) {
        phi[parent] = edges_leave;
        changed = true;
      }
    }
    if (changed) m.replace(h, Op::OpPhi, phi);
  }
  return *last;
}

}  // namespace bismuth::spirv_patch
