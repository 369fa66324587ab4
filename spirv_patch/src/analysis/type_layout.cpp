#include "bismuth/spirv_patch/analysis/type_layout.hpp"

#include <algorithm>
#include <optional>
#include <string>

namespace bismuth::spirv_patch {

namespace {

using spv::Op;

constexpr int kMaxTypeDepth = 64;

Expected<uint64_t> type_size(const Module& module, uint32_t type, std::optional<uint32_t> matrix_stride, bool row_major,
                             int depth, std::string_view block_kind, RuntimeArraySize runtime_arrays) {
  if (depth > kMaxTypeDepth) return fail(std::string(block_kind) + " type nesting is too deep");
  auto def = module.definition(type);
  if (!def) return fail(std::string(block_kind) + " member type " + id_name(type) + " is not defined");
  const auto w = module.words(*def);
  const Op op = module.opcode(*def);
  auto decoration = [&](uint32_t target, spv::Decoration d) { return module.decoration_literal(target, d); };
  switch (op) {
    case Op::OpTypeInt:
    case Op::OpTypeFloat:
      if (w.size() >= 3) return uint64_t{w[2] / 8};
      break;
    case Op::OpTypePointer: return uint64_t{8};
    case Op::OpTypeVector:
      if (w.size() == 4) {
        auto component = type_size(module, w[2], std::nullopt, false, depth + 1, block_kind, runtime_arrays);
        if (!component) return component;
        return *component * w[3];
      }
      break;
    case Op::OpTypeMatrix:
      if (w.size() == 4 && matrix_stride) {
        auto column = module.definition(w[2]);
        if (!column || module.opcode(*column) != Op::OpTypeVector || module.words(*column).size() != 4) break;
        const uint64_t vectors = row_major ? module.words(*column)[3] : w[3];
        return vectors * *matrix_stride;
      }
      break;
    case Op::OpTypeArray:
      if (w.size() == 4) {
        auto length = module.definition(w[3]);
        auto stride = decoration(w[1], spv::Decoration::ArrayStride);
        if (!length || module.opcode(*length) != Op::OpConstant || module.words(*length).size() < 4 || !stride) break;
        return uint64_t{module.words(*length)[3]} * *stride;
      }
      break;
    case Op::OpTypeRuntimeArray:
      if (runtime_arrays == RuntimeArraySize::OneElement && w.size() == 3) {
        if (auto stride = decoration(w[1], spv::Decoration::ArrayStride)) return uint64_t{*stride};
      }
      break;
    case Op::OpTypeStruct: {
      uint64_t end = 0;
      for (uint32_t member = 0; member + 2 < w.size(); ++member) {
        std::optional<uint32_t> offset, stride;
        bool member_row_major = false;
        for (InstructionHandle h : module.instructions(Section::Annotation)) {
          const auto a = module.words(h);
          if (module.opcode(h) != Op::OpMemberDecorate || a.size() < 4 || a[1] != w[1] || a[2] != member) continue;
          if (a[3] == static_cast<uint32_t>(spv::Decoration::Offset) && a.size() == 5) offset = a[4];
          if (a[3] == static_cast<uint32_t>(spv::Decoration::MatrixStride) && a.size() == 5) stride = a[4];
          if (a[3] == static_cast<uint32_t>(spv::Decoration::RowMajor)) member_row_major = true;
        }
        if (!offset) break;
        auto size = type_size(module, w[2 + member], stride, member_row_major, depth + 1, block_kind, runtime_arrays);
        if (!size) return size;
        end = std::max(end, uint64_t{*offset} + *size);
        if (member + 3 == w.size()) return end;
      }
      if (w.size() == 2) return uint64_t{0};
      break;
    }
    default: break;
  }
  return fail(module.describe(*def) + ": cannot size this " + std::string(block_kind) +
              " member (unsupported type or missing Offset/ArrayStride/MatrixStride)");
}

}  // namespace

Expected<uint64_t> explicit_layout_size(const Module& module, uint32_t type, std::string_view block_kind,
                                        RuntimeArraySize runtime_arrays) {
  return type_size(module, type, std::nullopt, false, 0, block_kind, runtime_arrays);
}

}  // namespace bismuth::spirv_patch
