#include "analysis/id_operands.hpp"

#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <string_view>
#include <utility>

namespace bismuth::spirv_patch {

namespace {

using spv::Op;

constexpr uint32_t kVersion1_5 = 0x00010500;

uint32_t u(auto value) {
  return static_cast<uint32_t>(value);
}

// Every read is bounded by the word count, so a malformed instruction is walked as far as it goes.
class OperandWalker {
 public:
  OperandWalker(std::span<const uint32_t> words, std::optional<uint32_t> id_bound, IdOperands& out)
      : words_(words), check_ids_(id_bound.has_value()), bound_(id_bound.value_or(0)), out_(out) {}

  std::string walk(std::span<const grammar::Operand> operands) {
    walk_list(operands);
    if (problem_.empty() && index_ != words_.size()) {
      return std::to_string(words_.size() - index_) + " word(s) after the last operand (word count " +
             std::to_string(words_.size()) + ")";
    }
    return std::move(problem_);
  }

 private:
  void note(std::string problem) {
    if (problem_.empty()) problem_ = std::move(problem);
  }

  void walk_list(std::span<const grammar::Operand> operands) {
    for (const grammar::Operand& operand : operands) {
      switch (operand.quantifier) {
        case grammar::Quantifier::One:
          if (index_ >= words_.size()) {
            note("missing operand(s): the word count " + std::to_string(words_.size()) + " is too small");
            break;
          }
          if (!take_word(operand.cls)) take(operand);
          break;
        case grammar::Quantifier::Optional:
          if (index_ < words_.size()) take(operand);
          break;
        case grammar::Quantifier::Many:
          while (index_ < words_.size()) take(operand);
          break;
      }
    }
  }

  void check_id(size_t at) {
    const uint32_t id = words_[at];
    if (check_ids_ && (id == 0 || id >= bound_)) note_bad_id(at);
  }

  // Out of line: Module::parse checks every id, and check_id stays small enough to inline.
  [[gnu::noinline]] void note_bad_id(size_t at) {
    const uint32_t id = words_[at];
    note("id %" + std::to_string(id) + " (operand word " + std::to_string(at) + ") is " +
         (id == 0 ? std::string("0") : "not below the bound " + std::to_string(bound_)));
  }

  // One id or one literal word, the class of most operands: false for the others. Inline, for walk_list's loop
  // (every module parse and every pass's use index walks each instruction: much of their cost), where take() stays
  // out of line for its recursion into enumerant parameters.
  bool take_word(grammar::OperandClass cls) {
    switch (cls) {
      case grammar::OperandClass::Id:
        check_id(index_);
        out_.ids.push_back(index_++);
        return true;
      case grammar::OperandClass::TypeId:
        check_id(index_);
        out_.result_type = index_++;
        return true;
      case grammar::OperandClass::ResultId:
        check_id(index_);
        out_.result = index_++;
        return true;
      case grammar::OperandClass::Literal: ++index_; return true;
      default: return false;
    }
  }

  void take(const grammar::Operand& operand) {
    if (take_word(operand.cls)) return;
    switch (operand.cls) {
      case grammar::OperandClass::Id:
      case grammar::OperandClass::TypeId:
      case grammar::OperandClass::ResultId:
      case grammar::OperandClass::Literal: return;  // take_word's
      case grammar::OperandClass::String:
        for (; index_ < words_.size(); ++index_) {
          const uint32_t word = words_[index_];
          if ((word & 0xff000000u) == 0 || (word & 0xff0000u) == 0 || (word & 0xff00u) == 0 || (word & 0xffu) == 0) {
            ++index_;
            return;
          }
        }
        note("string operand has no terminating nul within the instruction");
        return;
      case grammar::OperandClass::Rest:
        if (out_.rest == 0) out_.rest = index_;
        index_ = words_.size();
        return;
      case grammar::OperandClass::PairIdLiteral:
      case grammar::OperandClass::PairIdId: take_pair(operand.cls == grammar::OperandClass::PairIdId); return;
      case grammar::OperandClass::ValueEnum: {
        const grammar::EnumKind& kind = grammar::enum_kind(operand.enum_kind);
        const uint32_t value = words_[index_++];
        const grammar::Enumerant* enumerant = grammar::find_enumerant(kind, value);
        if (!enumerant) {
          note("unknown " + std::string(kind.name) + " " + std::to_string(value));
          return;
        }
        walk_list(grammar::parameters(*enumerant));
        return;
      }
      case grammar::OperandClass::BitEnum: take_bits(grammar::enum_kind(operand.enum_kind)); return;
    }
  }

  void take_pair(bool second_is_id) {
    if (index_ + 1 >= words_.size()) {
      note("operand pair cut short by the word count");
      out_.ids.push_back(index_);
      index_ += 2;
      return;
    }
    check_id(index_);
    if (second_is_id) check_id(index_ + 1);
    out_.ids.push_back(index_);
    if (second_is_id) out_.ids.push_back(index_ + 1);
    index_ += 2;
  }

  // A mask word, then the parameters of each set bit, lowest bit first.
  void take_bits(const grammar::EnumKind& kind) {
    const uint32_t mask = words_[index_++];
    if (mask == 0) return;  // most masks (FunctionControl, MemoryAccess) are None
    const bool image_operands = std::string_view(kind.name) == "ImageOperands";
    for (uint32_t rest = mask; rest != 0; rest &= rest - 1) {
      const uint32_t value = rest & (~rest + 1);  // the lowest set bit
      const grammar::Enumerant* enumerant = grammar::find_enumerant(kind, value);
      if (!enumerant) {
        char hex[16];
        std::snprintf(hex, sizeof hex, "%08x", value);
        note("unknown " + std::string(kind.name) + " bit 0x" + hex);
        continue;
      }
      const size_t before = out_.ids.size();
      walk_list(grammar::parameters(*enumerant));
      if (image_operands &&
          (value == u(spv::ImageOperandsMask::ConstOffset) || value == u(spv::ImageOperandsMask::ConstOffsets))) {
        out_.constant_required.insert(out_.constant_required.end(), out_.ids.begin() + before, out_.ids.end());
      }
    }
  }

  std::span<const uint32_t> words_;
  bool check_ids_;
  uint32_t bound_;
  IdOperands& out_;
  size_t index_ = 1;
  std::string problem_;
};

}  // namespace

std::string walk_operands(std::span<const uint32_t> instruction, std::span<const grammar::Operand> operands,
                          std::optional<uint32_t> id_bound, IdOperands& out) {
  out.ids.clear();
  out.constant_required.clear();
  out.result_type = 0;
  out.result = 0;
  out.rest = 0;
  return OperandWalker(instruction, id_bound, out).walk(operands);
}

IdOperands id_operands(const Module& module, InstructionHandle handle) {
  IdOperands out;
  id_operands(module, handle, out);
  return out;
}

void id_operands(const Module& module, InstructionHandle handle, IdOperands& out) {
  if (module.known_id_operands(handle, out)) return;
  const auto w = module.words(handle);
  const Op op = module.opcode(handle);
  const grammar::InstructionInfo* info = grammar::find_instruction(u(op));
  if (!info) {
    out = IdOperands{};
    return;
  }
  walk_operands(w, grammar::operands(*info), std::nullopt, out);
  add_own_id_operands(op, *info, w, module.bound(), out);
  // OpSwitch's (literal, label) pairs: the literal is as wide as the selector's type (1 or 2 words).
  if (op == Op::OpSwitch && out.rest != 0) {
    size_t literal_words = 1;
    if (auto selector = module.definition(w[1])) {
      const IdOperands selector_operands = id_operands(module, *selector);
      const auto sw = module.words(*selector);
      if (selector_operands.result_type != 0) {
        if (auto type = module.definition(sw[selector_operands.result_type])) {
          const auto tw = module.words(*type);
          if (module.opcode(*type) == Op::OpTypeInt && tw.size() >= 3 && tw[2] == 64) literal_words = 2;
        }
      }
    }
    for (size_t i = out.rest + literal_words; i < w.size(); i += literal_words + 1) {
      if (w[i] < module.bound()) out.ids.push_back(i);  // as add_own_id_operands: a label at or above is no id
    }
  }
  if ((op == Op::OpGroupNonUniformBroadcast || op == Op::OpGroupNonUniformQuadBroadcast) &&
      module.version() < kVersion1_5 && 5 < w.size()) {
    out.constant_required.push_back(5);
  }
}

bool id_operands_depend_on_module(Op op) {
  return op == Op::OpSwitch || op == Op::OpGroupNonUniformBroadcast || op == Op::OpGroupNonUniformQuadBroadcast;
}

void add_own_id_operands(Op op, const grammar::InstructionInfo& info, std::span<const uint32_t> w, uint32_t id_bound,
                         IdOperands& out) {
  auto id = [&](size_t i) {
    if (w[i] < id_bound) out.ids.push_back(i);
  };
  if (op == Op::OpExtInst && out.rest != 0) {
    for (size_t i = out.rest; i < w.size(); ++i) id(i);
  }
  if (op == Op::OpSpecConstantOp && w.size() >= 4) {
    const auto inner = static_cast<Op>(w[3]);
    size_t id_count = w.size() - 4;
    if (inner == Op::OpCompositeExtract) id_count = 1;
    if (inner == Op::OpCompositeInsert || inner == Op::OpVectorShuffle) id_count = 2;
    for (size_t i = 4; i < w.size() && i < 4 + id_count; ++i) id(i);
  }
  auto required = [&](std::initializer_list<size_t> indices) {
    for (size_t i : indices) {
      if (i < w.size()) out.constant_required.push_back(i);
    }
  };
  if (op == Op::OpControlBarrier) required({1, 2, 3});
  if (op == Op::OpMemoryBarrier) required({1, 2});
  if (op == Op::OpAtomicStore || op == Op::OpAtomicFlagClear) {
    required({2, 3});
  } else if (is_atomic(op)) {
    required({4, 5});
    if (op == Op::OpAtomicCompareExchange || op == Op::OpAtomicCompareExchangeWeak) required({6});
  }
  if (out.result != 0 && info.name[2] == 'G' && std::strncmp(info.name, "OpGroup", 7) == 0) required({3});
  if (op == Op::OpGroupNonUniformQuadSwap) required({5});
}

bool is_atomic(Op op) {
  const auto n = u(op);
  return (n >= u(Op::OpAtomicLoad) && n <= u(Op::OpAtomicXor)) || op == Op::OpAtomicFlagTestAndSet ||
         op == Op::OpAtomicFlagClear || op == Op::OpAtomicFMinEXT || op == Op::OpAtomicFMaxEXT ||
         op == Op::OpAtomicFAddEXT;
}

bool is_non_semantic(const Module& module, InstructionHandle handle) {
  const auto w = module.words(handle);
  if (module.opcode(handle) != Op::OpExtInst || w.size() < 4) return false;
  auto set = module.definition(w[3]);
  return set && module.opcode(*set) == Op::OpExtInstImport &&
         module.string_operand(*set, 2).starts_with("NonSemantic.");
}

}  // namespace bismuth::spirv_patch
