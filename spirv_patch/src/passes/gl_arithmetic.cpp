// GL arithmetic as GL drivers compute it, where GLSL leaves the choice to the implementation and Vulkan drivers
// choose differently (for GL programs: pipeline.cpp runs it after the ballot/vote lowering):
//
//  * Contraction. GLSL 4.50 §4.7.1: without `precise`, "a * b + c" may be computed as one fused operation, and GL
//    drivers do (NVIDIA emits FFMA). SPIR-V allows it unless NoContraction is present, but LLVM-based Vulkan
//    drivers (lavapipe) keep the multiply and the add separate, which differs in the last bit. The pass fuses
//    OpFMul feeding a single OpFAdd/OpFSub into GLSL.std.450 Fma, skipping anything decorated NoContraction
//    (glslang decorates `precise` computations so).
//  * Integer remainder of negative operands. GLSL 4.50 §5.9: for %, "if either operand is negative, the result is
//    undefined". NVIDIA's GL computes the remainder of the operands' bit patterns as unsigned integers; glslang
//    emits OpSRem/OpSMod. The pass rewrites them as OpUMod on bitcast operands, which is identical whenever both
//    operands are non-negative (the only defined case) and matches NVIDIA otherwise.
#include "bismuth/spirv_patch/passes/gl_arithmetic.hpp"

#include <spirv/unified1/GLSL.std.450.h>

#include <cstring>
#include <unordered_map>
#include <unordered_set>


namespace bismuth::spirv_patch {
namespace {

// The unsigned type of the same shape as the signed integer `type` (scalar or vector); 0 when it is not one.
Expected<uint32_t> unsigned_twin(Module& m, uint32_t type) {
  auto def = m.definition(type);
  if (!def) return uint32_t{0};
  auto w = m.words(*def);
  if (m.opcode(*def) == spv::Op::OpTypeInt) return m.type_int(w[2], false);
  if (m.opcode(*def) == spv::Op::OpTypeVector) {
    auto component = unsigned_twin(m, w[2]);
    if (!component || *component == 0) return component;
    return m.type_vector(*component, w[3]);
  }
  return uint32_t{0};
}

// The double-precision type of the same shape as the 32-bit float `type` (scalar or vector); 0 otherwise.
Expected<uint32_t> double_twin(Module& m, uint32_t type) {
  auto def = m.definition(type);
  if (!def) return uint32_t{0};
  auto w = m.words(*def);
  if (m.opcode(*def) == spv::Op::OpTypeFloat) {
    if (w[2] != 32) return uint32_t{0};
    for (InstructionHandle h : m.instructions(Section::Global)) {
      if (m.opcode(h) == spv::Op::OpTypeFloat && m.words(h).size() == 3 && m.words(h)[2] == 64) return m.words(h)[1];
    }
    auto id = m.allocate_id();
    if (!id) return id.error();
    const uint32_t operands[] = {*id, 64};
    m.append(Section::Global, spv::Op::OpTypeFloat, operands);
    m.add_capability(spv::Capability::Float64);
    return *id;
  }
  if (m.opcode(*def) == spv::Op::OpTypeVector) {
    auto component = double_twin(m, w[2]);
    if (!component || *component == 0) return component;
    return m.type_vector(*component, w[3]);
  }
  return uint32_t{0};
}

}  // namespace

Expected<GlArithmeticReport> match_gl_arithmetic(Module& m, const GlArithmeticOptions& options) {
  GlArithmeticReport report;

  // Occurrences of each id inside functions, its definition included (a literal equal to an id only over-counts,
  // which only skips a fusion): a product used once occurs twice.
  std::unordered_map<uint32_t, uint32_t> uses;
  for (InstructionHandle h : m.instructions(Section::Function)) {
    auto w = m.words(h);
    for (size_t i = 1; i < w.size(); ++i) ++uses[w[i]];
  }
  std::unordered_set<uint32_t> no_contraction;
  for (InstructionHandle h : m.instructions(Section::Annotation)) {
    auto w = m.words(h);
    if (m.opcode(h) == spv::Op::OpDecorate && w.size() >= 3 && w[2] == uint32_t(spv::Decoration::NoContraction)) {
      no_contraction.insert(w[1]);
    }
  }

  uint32_t glsl = 0;
  for (InstructionHandle h : m.instructions(Section::Function)) {
    const spv::Op op = m.opcode(h);
    const std::vector<uint32_t> w(m.words(h).begin(), m.words(h).end());
    if ((op == spv::Op::OpSRem || op == spv::Op::OpSMod) && w.size() == 5) {
      auto utype = unsigned_twin(m, w[1]);
      if (!utype) return utype.error();
      if (*utype == 0) continue;
      auto ua = m.allocate_id();
      auto ub = m.allocate_id();
      auto ur = m.allocate_id();
      if (!ua || !ub || !ur) return fail("match_gl_arithmetic: the id bound is exhausted");
      const uint32_t cast_a[] = {*utype, *ua, w[3]};
      const uint32_t cast_b[] = {*utype, *ub, w[4]};
      const uint32_t umod[] = {*utype, *ur, *ua, *ub};
      m.insert_before(h, spv::Op::OpBitcast, cast_a);
      m.insert_before(h, spv::Op::OpBitcast, cast_b);
      m.insert_before(h, spv::Op::OpUMod, umod);
      const uint32_t back[] = {w[1], w[2], *ur};
      m.replace(h, spv::Op::OpBitcast, back);
      ++report.remainders;
      continue;
    }
    if ((op != spv::Op::OpFAdd && op != spv::Op::OpFSub) || w.size() != 5 || no_contraction.count(w[2])) continue;
    // Which operand is a single-use multiply of the same type?
    for (int side = 0; side < 2; ++side) {
      const uint32_t product = w[3 + side];
      const uint32_t other = w[4 - side];
      auto def = m.definition(product);
      if (!def || m.opcode(*def) != spv::Op::OpFMul || m.section(*def) != Section::Function) continue;
      const std::vector<uint32_t> mul(m.words(*def).begin(), m.words(*def).end());
      if (mul.size() != 5 || mul[1] != w[1] || uses[product] != 2 || no_contraction.count(product)) continue;
      if (glsl == 0) {
        auto id = m.glsl_std_450();
        if (!id) return id.error();
        glsl = *id;
      }
      uint32_t a = mul[3];
      uint32_t c = other;
      if (op == spv::Op::OpFSub) {
        // a*b - c = fma(a, b, -c); c - a*b = fma(-a, b, c).
        auto negated = m.allocate_id();
        if (!negated) return negated.error();
        const uint32_t neg[] = {w[1], *negated, side == 0 ? other : mul[3]};
        m.insert_before(h, spv::Op::OpFNegate, neg);
        (side == 0 ? c : a) = *negated;
      }
      uint32_t wide = 0;
      if (options.fma_through_double) {
        auto d = double_twin(m, w[1]);
        if (!d) return d.error();
        wide = *d;
      }
      if (wide != 0) {
        // float(double(a) * double(b) + double(c)): the product is exact in double, so only the final roundings
        // remain (equal to a fused result except in rare double-rounding ties).
        uint32_t ids[5];
        for (uint32_t& id : ids) {
          auto next = m.allocate_id();
          if (!next) return next.error();
          id = *next;
        }
        const uint32_t da[] = {wide, ids[0], a};
        const uint32_t db[] = {wide, ids[1], mul[4]};
        const uint32_t dc[] = {wide, ids[2], c};
        const uint32_t dm[] = {wide, ids[3], ids[0], ids[1]};
        const uint32_t ds[] = {wide, ids[4], ids[3], ids[2]};
        m.insert_before(h, spv::Op::OpFConvert, da);
        m.insert_before(h, spv::Op::OpFConvert, db);
        m.insert_before(h, spv::Op::OpFConvert, dc);
        m.insert_before(h, spv::Op::OpFMul, dm);
        m.insert_before(h, spv::Op::OpFAdd, ds);
        const uint32_t narrow[] = {w[1], w[2], ids[4]};
        m.replace(h, spv::Op::OpFConvert, narrow);
      } else {
        const uint32_t fma[] = {w[1], w[2], glsl, GLSLstd450Fma, a, mul[4], c};
        m.replace(h, spv::Op::OpExtInst, fma);
      }
      m.erase(*def);
      ++report.fused;
      break;
    }
  }
  return report;
}

}  // namespace bismuth::spirv_patch
