// swizzle_lookups (passes/swizzle_lookups.hpp). Sources: GL 4.6 §15.2.1 (texture swizzle of every lookup's result),
// §8.14.2 (the border colour stands in for a texel); SPIR-V 1.6 section 3.42.10 (image instructions: the sparse
// forms' struct { residency code, texel }, OpImageGather's Component "must be a constant"), 2.12 (OpSpecConstantOp
// opcodes usable with the Shader capability: ShiftRightLogical, BitwiseAnd, ULessThan, Select).
#define SPV_ENABLE_UTILITY_CODE  // HasResultAndType
#include <spirv/unified1/spirv.hpp11>

#include "bismuth/spirv_patch/passes/swizzle_lookups.hpp"

#include <algorithm>
#include <map>
#include <string>

#include "analysis/sampler_variables.hpp"

namespace bismuth::spirv_patch {

namespace {

using spv::Op;

bool is_sparse(Op op) {
  switch (op) {
    case Op::OpImageSparseSampleImplicitLod:
    case Op::OpImageSparseSampleExplicitLod:
    case Op::OpImageSparseSampleProjImplicitLod:
    case Op::OpImageSparseSampleProjExplicitLod:
    case Op::OpImageSparseFetch:
    case Op::OpImageSparseGather: return true;
    default: return false;
  }
}

bool is_lookup(Op op) {
  switch (op) {
    case Op::OpImageSampleImplicitLod:
    case Op::OpImageSampleExplicitLod:
    case Op::OpImageSampleProjImplicitLod:
    case Op::OpImageSampleProjExplicitLod:
    case Op::OpImageFetch:
    case Op::OpImageGather: return true;
    default: return is_sparse(op);
  }
}

bool is_gather(Op op) {
  return op == Op::OpImageGather || op == Op::OpImageSparseGather;
}

struct Lookup {
  InstructionHandle handle = 0, next = 0;  // the lookup and the instruction after it
  uint32_t binding_index = 0;
};

class Swizzler {
 public:
  explicit Swizzler(Module& m) : m_(m) {}

  Status init() {
    auto u32 = m_.type_int(32, false);
    auto b = m_.type_bool();
    if (!u32 || !b) return fail("swizzle_lookups: the module has no ids left");
    u32_ = *u32;
    bool_ = *b;
    for (uint32_t v : {0u, 4u, 7u}) {
      auto c = m_.constant_u32(v);
      if (!c) return c.error();
      u_[v] = *c;
    }
    return {};
  }

  Status swizzle(const Lookup& lookup, uint32_t word) {
    const InstructionHandle h = lookup.handle;
    std::vector<uint32_t> w(m_.words(h).begin(), m_.words(h).end());
    const Op op = m_.opcode(h);
    const uint32_t result_type = w[1], result = w[2];
    auto raw = id();
    if (!raw) return raw.error();
    // The vec4 type, and its component type (float, int or uint).
    uint32_t texel_type = result_type;
    if (is_sparse(op)) texel_type = m_.words(*m_.definition(result_type))[3];
    const uint32_t component_type = m_.words(*m_.definition(texel_type))[2];
    auto zero = constant(component_type, 0), one = constant(component_type, 1);
    if (!zero || !one) return fail("swizzle_lookups: the module has no ids left");
    next_ = lookup.next;
    std::vector<uint32_t> sources(4);
    for (uint32_t c = 0; c < 4; ++c) {
      auto shift = m_.constant_u32(3 * c);
      if (!shift) return shift.error();
      sources[c] = emit(Op::OpBitwiseAnd, u32_, {emit(Op::OpShiftRightLogical, u32_, {word, *shift}), u_[7]});
    }
    uint32_t requested = 0;
    if (is_gather(op)) {
      // Gather the component the swizzle names for the requested one (a constant: SPIR-V's Component rule).
      auto def = m_.definition(w[5]);
      if (!def || m_.opcode(*def) != Op::OpConstant) {
        return fail("swizzle_lookups: " + m_.describe(h) + ": the gathered component is not an OpConstant");
      }
      requested = std::min(m_.words(*def)[3], 3u);
      auto shift = m_.constant_u32(3 * requested);
      if (!shift) return shift.error();
      auto shifted = spec_op(Op::OpShiftRightLogical, {word, *shift});
      if (!shifted) return shifted.error();
      auto source = spec_op(Op::OpBitwiseAnd, {*shifted, u_[7]});
      if (!source) return source.error();
      auto is_component = spec_op_typed(bool_, Op::OpULessThan, {*source, u_[4]});
      if (!is_component) return is_component.error();
      auto component = spec_op(Op::OpSelect, {*is_component, *source, u_[0]});
      if (!component) return component.error();
      w[5] = *component;
    }
    w[2] = *raw;
    m_.replace(h, op, std::span(w).subspan(1));
    const uint32_t texel = is_sparse(op) ? emit(Op::OpCompositeExtract, texel_type, {*raw, 1}) : *raw;
    std::vector<uint32_t> out(4);
    for (uint32_t c = 0; c < 4; ++c) {
      uint32_t value = 0, source = sources[c];
      if (is_gather(op)) {
        // Each of the four texels' gathered component, or 0 / 1 (the requested component's source).
        value = emit(Op::OpCompositeExtract, component_type, {texel, c});
        source = sources[requested];
      } else {
        const uint32_t index = emit(Op::OpSelect, u32_, {emit(Op::OpULessThan, bool_, {source, u_[4]}), source, u_[0]});
        value = emit(Op::OpVectorExtractDynamic, component_type, {texel, index});
      }
      const uint32_t constant_value =
          emit(Op::OpSelect, component_type, {emit(Op::OpIEqual, bool_, {source, u_[4]}), *zero, *one});
      out[c] =
          emit(Op::OpSelect, component_type, {emit(Op::OpULessThan, bool_, {source, u_[4]}), value, constant_value});
    }
    if (is_sparse(op)) {
      const uint32_t code_type = m_.words(*m_.definition(result_type))[2];
      const uint32_t code = emit(Op::OpCompositeExtract, code_type, {*raw, 0});
      const uint32_t swizzled = emit(Op::OpCompositeConstruct, texel_type, out);
      emit_as(result, Op::OpCompositeConstruct, result_type, {code, swizzled});
    } else {
      emit_as(result, Op::OpCompositeConstruct, result_type, out);
    }
    return failed_ ? fail("swizzle_lookups: the module has no ids left") : Status{};
  }

 private:
  Expected<uint32_t> id() { return m_.allocate_id(); }
  uint32_t emit(Op op, uint32_t type, std::vector<uint32_t> args) {
    auto result = id();
    if (!result) {
      failed_ = true;
      return 1;
    }
    emit_as(*result, op, type, std::move(args));
    return *result;
  }
  void emit_as(uint32_t result, Op op, uint32_t type, std::vector<uint32_t> args) {
    std::vector<uint32_t> operands{type, result};
    operands.insert(operands.end(), args.begin(), args.end());
    m_.insert_before(next_, op, operands);
  }
  Expected<uint32_t> spec_op_typed(uint32_t type, Op op, std::vector<uint32_t> args) {
    auto result = id();
    if (!result) return result.error();
    std::vector<uint32_t> operands{type, *result, uint32_t(op)};
    operands.insert(operands.end(), args.begin(), args.end());
    m_.append(Section::Global, Op::OpSpecConstantOp, operands);
    return *result;
  }
  Expected<uint32_t> spec_op(Op op, std::vector<uint32_t> args) { return spec_op_typed(u32_, op, std::move(args)); }
  // 0 or 1 of a 32-bit float, int or uint type.
  Expected<uint32_t> constant(uint32_t type, uint32_t value) {
    const auto t = m_.words(*m_.definition(type));
    if (m_.opcode(*m_.definition(type)) == Op::OpTypeFloat) return m_.constant_f32(float(value));
    if (t[3] == 0) return m_.constant_u32(value);
    auto result = id();
    if (!result) return result.error();
    const uint32_t operands[] = {type, *result, value};
    m_.append(Section::Global, Op::OpConstant, operands);
    return *result;
  }

  Module& m_;
  uint32_t u32_ = 0, bool_ = 0;
  std::map<uint32_t, uint32_t> u_;
  InstructionHandle next_ = 0;
  bool failed_ = false;
};

}  // namespace

Expected<SwizzleLookupReport> swizzle_lookups(Module& m, const SwizzleLookupOptions& options) {
  SwizzleLookupReport report;
  const std::map<uint32_t, uint32_t> variable_binding = variables_at(m, options.bindings);
  // Every lookup first: a refusal comes before the first edit.
  std::vector<Lookup> lookups;
  const std::vector<InstructionHandle> body = m.instructions(Section::Function);
  for (size_t i = 0; i < body.size(); ++i) {
    const InstructionHandle h = body[i];
    if (!is_lookup(m.opcode(h)) || variable_binding.empty()) continue;
    const uint32_t variable = trace_variable(m, m.words(h)[3]);
    if (variable == 0) {
      return fail("swizzle_lookups: " + m.describe(h) +
                  ": its image is not traced to one variable (a function called with different samplers?)");
    }
    auto named = variable_binding.find(variable);
    if (named == variable_binding.end()) continue;
    if (i + 1 >= body.size()) return fail("swizzle_lookups: " + m.describe(h) + " ends the module");
    lookups.push_back({h, body[i + 1], named->second});
  }
  uint32_t spec_id = options.first_spec_id;
  for (uint32_t used : m.spec_ids_in_use()) spec_id = std::max(spec_id, used + 1);
  std::vector<uint32_t> words;
  for (size_t k = 0; k < options.bindings.size(); ++k) {
    auto word = m.spec_constant_u32(kSwizzleIdentity, spec_id);
    if (!word) return word.error();
    words.push_back(*word);
    report.spec_ids.push_back(spec_id++);
  }
  if (lookups.empty()) return report;
  Swizzler swizzler(m);
  if (Status ok = swizzler.init(); !ok) return ok.error();
  for (const Lookup& lookup : lookups) {
    if (Status ok = swizzler.swizzle(lookup, words[lookup.binding_index]); !ok) return ok.error();
    ++report.swizzled;
  }
  return report;
}

}  // namespace bismuth::spirv_patch
