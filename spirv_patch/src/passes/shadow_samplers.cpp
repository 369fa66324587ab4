// lower_shadow_samplers (passes/shadow_samplers.hpp). Sources: GL 4.6 §8.23.1 (texture comparison: "the result r is
// 1.0 or 0.0 per the compare function with D_ref and D_t"; fixed-point depth: D_ref and D_t clamped to [0, 1]; with a
// LINEAR filter "a weighted average of the results"), §8.14.2 (λ <= c: the magnification filter, else the
// minification one), §8.14.3 (mipmapping: the nearest level for *_MIPMAP_NEAREST), §8.14.2 / equation 8.9 (the 2x2
// footprint i0 = floor(u - 1/2), weights α = frac(u - 1/2)); SPIR-V 1.6 section 3.42.10 (image instructions:
// OpImageSampleDref*, OpImageDrefGather, the Proj forms divide the coordinates and Dref by q), 2.8 (a non-aggregate,
// non-pointer type is declared once).
#define SPV_ENABLE_UTILITY_CODE  // HasResultAndType
#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.hpp11>

#include "analysis/type_queries.hpp"
#include "bismuth/spirv_patch/passes/shadow_samplers.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "analysis/id_operands.hpp"

namespace bismuth::spirv_patch {

namespace {

using spv::Op;

// The type under any arrays of `type`.
uint32_t strip_arrays(const Module& m, uint32_t type) {
  for (int depth = 0; depth < 16; ++depth) {
    auto def = m.definition(type);
    if (!def || (m.opcode(*def) != Op::OpTypeArray && m.opcode(*def) != Op::OpTypeRuntimeArray)) return type;
    type = m.words(*def)[2];
  }
  return type;
}

// The image type of a sampled image type (0 when `type` is not one).
uint32_t image_of_sampled(const Module& m, uint32_t type) {
  auto def = m.definition(type);
  return def && m.opcode(*def) == Op::OpTypeSampledImage ? m.words(*def)[2] : 0;
}

bool is_depth_image(const Module& m, uint32_t type) {
  auto def = m.definition(type);
  return def && m.opcode(*def) == Op::OpTypeImage && m.words(*def)[4] != 0;
}

bool is_dref(Op op) {
  switch (op) {
    case Op::OpImageSampleDrefImplicitLod:
    case Op::OpImageSampleDrefExplicitLod:
    case Op::OpImageSampleProjDrefImplicitLod:
    case Op::OpImageSampleProjDrefExplicitLod:
    case Op::OpImageDrefGather:
    case Op::OpImageSparseSampleDrefImplicitLod:
    case Op::OpImageSparseSampleDrefExplicitLod:
    case Op::OpImageSparseSampleProjDrefImplicitLod:
    case Op::OpImageSparseSampleProjDrefExplicitLod:
    case Op::OpImageSparseDrefGather: return true;
    default: return false;
  }
}

bool is_sparse(Op op) {
  return op == Op::OpImageSparseSampleDrefImplicitLod || op == Op::OpImageSparseSampleDrefExplicitLod ||
         op == Op::OpImageSparseSampleProjDrefImplicitLod || op == Op::OpImageSparseSampleProjDrefExplicitLod ||
         op == Op::OpImageSparseDrefGather;
}

constexpr uint32_t kBias = 0x1, kLod = 0x2, kGrad = 0x4, kConstOffset = 0x8, kOffset = 0x10, kMinLod = 0x80;
constexpr uint32_t kSupportedOperands = kBias | kLod | kGrad | kConstOffset | kOffset | kMinLod;

// (set, binding) of every decorated id.
struct BindingDecorations {
  std::map<uint32_t, uint32_t> set, binding;
};

BindingDecorations binding_decorations(const Module& m) {
  BindingDecorations d;
  for (InstructionHandle h : m.instructions(Section::Annotation)) {
    const auto w = m.words(h);
    if (m.opcode(h) != Op::OpDecorate || w.size() < 4) continue;
    if (w[2] == uint32_t(spv::Decoration::DescriptorSet)) d.set[w[1]] = w[3];
    if (w[2] == uint32_t(spv::Decoration::Binding)) d.binding[w[1]] = w[3];
  }
  return d;
}

// The OpFunction and parameter index of an OpFunctionParameter.
std::optional<std::pair<uint32_t, uint32_t>> parameter_position(const Module& m, uint32_t parameter) {
  uint32_t function = 0, index = 0;
  for (InstructionHandle h : m.instructions(Section::Function)) {
    if (m.opcode(h) == Op::OpFunction) {
      function = m.words(h)[2];
      index = 0;
    } else if (m.opcode(h) == Op::OpFunctionParameter) {
      if (m.words(h)[2] == parameter) return std::pair{function, index};
      ++index;
    }
  }
  return std::nullopt;
}

// The variable a sampled image (or a pointer to one) comes from; through function parameters, the one every call
// site passes. 0: none or several.
uint32_t trace_variable(const Module& m, uint32_t id, int depth = 0) {
  if (depth > 32) return 0;
  auto def = m.definition(id);
  if (!def) return 0;
  const auto w = m.words(*def);
  switch (m.opcode(*def)) {
    case Op::OpVariable: return id;
    case Op::OpLoad:
    case Op::OpAccessChain:
    case Op::OpInBoundsAccessChain:
    case Op::OpCopyObject: return trace_variable(m, w[3], depth + 1);
    case Op::OpFunctionParameter: {
      auto position = parameter_position(m, id);
      if (!position) return 0;
      uint32_t found = 0;
      for (InstructionHandle h : m.instructions(Section::Function)) {
        const auto c = m.words(h);
        if (m.opcode(h) != Op::OpFunctionCall || c[3] != position->first || c.size() <= 4 + position->second) continue;
        const uint32_t v = trace_variable(m, c[4 + position->second], depth + 1);
        if (v == 0 || (found != 0 && v != found)) return 0;
        found = v;
      }
      return found;
    }
    default: return 0;
  }
}

// Every use of `from` (as an operand or a result type) becomes `to`.
void replace_all_uses(Module& m, uint32_t from, uint32_t to) {
  for (InstructionHandle h : m.instructions()) {
    const IdOperands ids = id_operands(m, h);
    std::vector<uint32_t> w(m.words(h).begin(), m.words(h).end());
    bool changed = false;
    auto swap = [&](size_t i) {
      if (i != 0 && i < w.size() && w[i] == from) {
        w[i] = to;
        changed = true;
      }
    };
    for (size_t i : ids.ids) swap(i);
    swap(ids.result_type);
    if (changed) m.replace(h, m.opcode(h), std::span(w).subspan(1));
  }
}

// SPIR-V 2.8: a retyped image (or sampled image) type identical to another one is merged into the one declared
// first, so that every use still follows its declaration.
void merge_duplicate(Module& m, uint32_t type) {
  auto def = m.definition(type);
  if (!def || m.erased(*def)) return;
  const Op op = m.opcode(*def);
  const std::vector<uint32_t> key(m.words(*def).begin() + 2, m.words(*def).end());
  std::optional<InstructionHandle> twin;
  bool type_first = false;
  for (InstructionHandle h : m.instructions(Section::Global)) {
    if (h == *def) {
      type_first = !twin.has_value();
      continue;
    }
    const auto w = m.words(h);
    if (!twin && m.opcode(h) == op && std::equal(w.begin() + 2, w.end(), key.begin(), key.end())) twin = h;
  }
  if (!twin) return;
  const uint32_t twin_id = m.words(*twin)[1];
  const uint32_t victim = type_first ? twin_id : type;
  const uint32_t survivor = type_first ? type : twin_id;
  const InstructionHandle victim_def = type_first ? *twin : *def;
  m.erase(victim_def);
  replace_all_uses(m, victim, survivor);
}

struct Lookup {
  InstructionHandle handle = 0;
  uint32_t binding_index = 0;  // into the options' bindings
};

class Emitter {
 public:
  Emitter(Module& m, uint32_t glsl) : m_(m), glsl_(glsl) {}

  void at(InstructionHandle h) { at_ = h; }
  bool failed() const { return failed_; }

  uint32_t emit(Op op, uint32_t type, std::initializer_list<uint32_t> args) {
    return emit(op, type, std::vector<uint32_t>(args));
  }
  uint32_t emit(Op op, uint32_t type, const std::vector<uint32_t>& args) {
    auto id = m_.allocate_id();
    if (!id) {
      failed_ = true;
      return 1;
    }
    std::vector<uint32_t> operands{type, *id};
    operands.insert(operands.end(), args.begin(), args.end());
    m_.insert_before(at_, op, operands);
    return *id;
  }
  uint32_t ext(uint32_t type, GLSLstd450 instruction, std::initializer_list<uint32_t> args) {
    std::vector<uint32_t> operands{glsl_, uint32_t(instruction)};
    operands.insert(operands.end(), args.begin(), args.end());
    return emit(Op::OpExtInst, type, operands);
  }
  // `value` in every component of a `count`-vector of `vector_type` (the scalar itself for count 1).
  uint32_t splat(uint32_t vector_type, uint32_t count, uint32_t value) {
    if (count == 1) return value;
    return emit(Op::OpCompositeConstruct, vector_type, std::vector<uint32_t>(count, value));
  }
  uint32_t component(uint32_t scalar_type, uint32_t value, uint32_t count, uint32_t index) {
    if (count == 1) return value;
    return emit(Op::OpCompositeExtract, scalar_type, {value, index});
  }

 private:
  Module& m_;
  uint32_t glsl_;
  InstructionHandle at_ = 0;
  bool failed_ = false;
};

// The ids of the types and constants the lowering uses.
struct Ids {
  uint32_t f32 = 0, v2f = 0, v3f = 0, v4f = 0, i32 = 0, v2i = 0, v3i = 0, u32 = 0, v4u = 0, b = 0, v4b = 0;
  uint32_t f0 = 0, f1 = 0, f_half = 0, f_one_half = 0, u0 = 0, u1 = 0, u2 = 0, u4 = 0, u7 = 0;
  uint32_t i1 = 0, u_mag = 0, u_min = 0, u_mip = 0, u_clamp = 0, u_mip_linear = 0;
};

Expected<Ids> make_ids(Module& m, uint32_t f32) {
  Ids ids;
  ids.f32 = f32;
  auto get = [&](Expected<uint32_t> e, uint32_t& out) -> Status {
    if (!e) return e.error();
    out = *e;
    return {};
  };
  Status s;
  if (!(s = get(m.type_vector(f32, 2), ids.v2f))) return s.error();
  if (!(s = get(m.type_vector(f32, 3), ids.v3f))) return s.error();
  if (!(s = get(m.type_vector(f32, 4), ids.v4f))) return s.error();
  if (!(s = get(m.type_int(32, true), ids.i32))) return s.error();
  if (!(s = get(m.type_vector(ids.i32, 2), ids.v2i))) return s.error();
  if (!(s = get(m.type_vector(ids.i32, 3), ids.v3i))) return s.error();
  if (!(s = get(m.type_int(32, false), ids.u32))) return s.error();
  if (!(s = get(m.type_vector(ids.u32, 4), ids.v4u))) return s.error();
  if (!(s = get(m.type_bool(), ids.b))) return s.error();
  if (!(s = get(m.type_vector(ids.b, 4), ids.v4b))) return s.error();
  if (!(s = get(m.constant_f32(0.0f), ids.f0))) return s.error();
  if (!(s = get(m.constant_f32(1.0f), ids.f1))) return s.error();
  if (!(s = get(m.constant_f32(0.5f), ids.f_half))) return s.error();
  if (!(s = get(m.constant_f32(1.5f), ids.f_one_half))) return s.error();
  if (!(s = get(m.constant_u32(0), ids.u0))) return s.error();
  if (!(s = get(m.constant_u32(1), ids.u1))) return s.error();
  if (!(s = get(m.constant_u32(2), ids.u2))) return s.error();
  if (!(s = get(m.constant_u32(4), ids.u4))) return s.error();
  if (!(s = get(m.constant_u32(kShadowStateCompareMask), ids.u7))) return s.error();
  if (!(s = get(m.constant_u32(kShadowStateMagLinear), ids.u_mag))) return s.error();
  if (!(s = get(m.constant_u32(kShadowStateMinLinear), ids.u_min))) return s.error();
  if (!(s = get(m.constant_u32(kShadowStateMipmapped), ids.u_mip))) return s.error();
  if (!(s = get(m.constant_u32(kShadowStateClampRef), ids.u_clamp))) return s.error();
  if (!(s = get(m.constant_u32(kShadowStateMipLinear), ids.u_mip_linear))) return s.error();
  // A signed 1 for `levels - 1`: OpConstant of the signed type.
  auto one = m.allocate_id();
  if (!one) return one.error();
  const uint32_t operands[] = {ids.i32, *one, 1};
  m.append(Section::Global, Op::OpConstant, operands);
  ids.i1 = *one;
  return ids;
}

class Lowering {
 public:
  Lowering(Module& m, const Ids& ids, Emitter& e) : m_(m), t_(ids), e_(e) {}

  // GL 4.6 §8.23.1 on `count` (1 or 4) pairs: 1.0 where "D_ref OP D_t" holds, else 0.0, OP from the state word.
  uint32_t compare(uint32_t state, uint32_t ref, uint32_t texel, uint32_t count) {
    const uint32_t tf = count == 1 ? t_.f32 : t_.v4f;
    const uint32_t tu = count == 1 ? t_.u32 : t_.v4u;
    const uint32_t tb = count == 1 ? t_.b : t_.v4b;
    auto fs = [&](uint32_t v) { return e_.splat(t_.v4f, count, v); };
    auto us = [&](uint32_t v) { return e_.splat(t_.v4u, count, v); };
    auto bs = [&](uint32_t v) { return e_.splat(t_.v4b, count, v); };
    // Fixed-point depth formats: "D_t and D_ref are clamped to the range [0, 1]".
    const uint32_t clamp =
        bs(e_.emit(Op::OpINotEqual, t_.b, {e_.emit(Op::OpBitwiseAnd, t_.u32, {state, t_.u_clamp}), t_.u0}));
    const uint32_t zero = fs(t_.f0), one = fs(t_.f1);
    auto clamped = [&](uint32_t v) {
      return e_.emit(Op::OpSelect, tf, {clamp, e_.ext(tf, GLSLstd450FClamp, {v, zero, one}), v});
    };
    const uint32_t r = clamped(ref), d = clamped(texel);
    const uint32_t u0 = us(t_.u0);
    const uint32_t lt = e_.emit(Op::OpSelect, tu, {e_.emit(Op::OpFOrdLessThan, tb, {r, d}), us(t_.u1), u0});
    const uint32_t eq = e_.emit(Op::OpSelect, tu, {e_.emit(Op::OpFOrdEqual, tb, {r, d}), us(t_.u2), u0});
    const uint32_t gt = e_.emit(Op::OpSelect, tu, {e_.emit(Op::OpFOrdGreaterThan, tb, {r, d}), us(t_.u4), u0});
    const uint32_t relation = e_.emit(Op::OpBitwiseOr, tu, {e_.emit(Op::OpBitwiseOr, tu, {lt, eq}), gt});
    const uint32_t func = e_.emit(Op::OpBitwiseAnd, t_.u32, {state, t_.u7});
    // ALWAYS passes even where no relation holds (a NaN).
    const uint32_t always = bs(e_.emit(Op::OpIEqual, t_.b, {func, t_.u7}));
    const uint32_t matched = e_.emit(Op::OpINotEqual, tb, {e_.emit(Op::OpBitwiseAnd, tu, {relation, us(func)}), u0});
    const uint32_t pass = e_.emit(Op::OpLogicalOr, tb, {matched, always});
    return e_.emit(Op::OpSelect, tf, {pass, one, zero});
  }

  Status lower(const Lookup& lookup, uint32_t state) {
    const InstructionHandle h = lookup.handle;
    const std::vector<uint32_t> w(m_.words(h).begin(), m_.words(h).end());
    const Op op = m_.opcode(h);
    e_.at(h);
    const uint32_t result_type = w[1], result = w[2], sampled = w[3];
    uint32_t coord = w[4], ref = w[5];
    const std::vector<uint32_t> operands(w.begin() + 6, w.end());
    const uint32_t mask = operands.empty() ? 0 : operands[0];
    // The operand after the mask bit `bit` (the operands follow the mask in bit order).
    auto operand = [&](uint32_t bit) -> uint32_t {
      size_t i = 1;
      for (uint32_t b = 1; b < bit; b <<= 1) {
        if (mask & b) i += b == kGrad ? 2 : 1;
      }
      return i < operands.size() ? operands[i] : 0;
    };
    const uint32_t image_type = image_of_sampled(m_, spirv_patch::result_type(m_, sampled));
    const auto iw = m_.words(*m_.definition(image_type));
    const auto dim = spv::Dim(iw[3]);
    const bool arrayed = iw[5] != 0;
    const uint32_t n = dim == spv::Dim::Dim1D ? 1 : dim == spv::Dim::Cube ? 3 : 2;
    const uint32_t coord_type = spirv_patch::result_type(m_, coord);
    auto cdef = m_.definition(coord_type);
    const uint32_t coord_count = cdef && m_.opcode(*cdef) == Op::OpTypeVector ? m_.words(*cdef)[3] : 1;

    const bool proj = op == Op::OpImageSampleProjDrefImplicitLod || op == Op::OpImageSampleProjDrefExplicitLod ||
                      op == Op::OpImageSparseSampleProjDrefImplicitLod ||
                      op == Op::OpImageSparseSampleProjDrefExplicitLod;
    const bool gather = op == Op::OpImageDrefGather || op == Op::OpImageSparseDrefGather;
    const bool implicit = op == Op::OpImageSampleDrefImplicitLod || op == Op::OpImageSampleProjDrefImplicitLod ||
                          op == Op::OpImageSparseSampleDrefImplicitLod ||
                          op == Op::OpImageSparseSampleProjDrefImplicitLod;
    // Sparse forms: the plain sparse lookup's struct { residency code, vec4 } (SPIR-V 3.42.10), its code returned
    // with the comparison.
    const bool sparse = is_sparse(op);
    uint32_t sparse_type = 0;
    if (sparse) {
      const uint32_t code_type = m_.words(*m_.definition(result_type))[2];
      auto id = m_.allocate_id();
      if (!id) return id.error();
      const uint32_t members[] = {*id, code_type, t_.v4f};
      m_.append(Section::Global, Op::OpTypeStruct, members);
      sparse_type = *id;
    }
    uint32_t code = 0;
    // The lookup's vec4 texel(s); the residency code into `code` for sparse forms.
    auto look = [&](Op plain, Op sparse_op, std::vector<uint32_t> args) {
      if (!sparse) return e_.emit(plain, t_.v4f, args);
      const uint32_t both = e_.emit(sparse_op, sparse_type, args);
      code = e_.emit(Op::OpCompositeExtract, m_.words(*m_.definition(sparse_type))[2], {both, 0});
      return e_.emit(Op::OpCompositeExtract, t_.v4f, {both, 1});
    };
    if (proj) {
      // SPIR-V 3.42.10: the coordinates and Dref are divided by q, the component after the coordinates.
      const uint32_t q = e_.component(t_.f32, coord, coord_count, n);
      std::vector<uint32_t> divided;
      for (uint32_t i = 0; i < n; ++i) {
        divided.push_back(e_.emit(Op::OpFDiv, t_.f32, {e_.component(t_.f32, coord, coord_count, i), q}));
      }
      coord = n == 1 ? divided[0] : e_.emit(Op::OpCompositeConstruct, n == 2 ? t_.v2f : t_.v3f, divided);
      ref = e_.emit(Op::OpFDiv, t_.f32, {ref, q});
    }
    const uint32_t count_after = proj ? n : coord_count;

    uint32_t value = 0;
    if (gather) {
      // textureGather(shadow, P, ref): the comparison of each of the four texels, unfiltered.
      std::vector<uint32_t> args{sampled, coord, t_.u0};
      args.insert(args.end(), operands.begin(), operands.end());
      const uint32_t texels = look(Op::OpImageGather, Op::OpImageSparseGather, args);
      value = compare(state, e_.splat(t_.v4f, 4, ref), texels, 4);
    } else {
      std::vector<uint32_t> args{sampled, coord};
      args.insert(args.end(), operands.begin(), operands.end());
      const uint32_t texel = implicit ? look(Op::OpImageSampleImplicitLod, Op::OpImageSparseSampleImplicitLod, args)
                                      : look(Op::OpImageSampleExplicitLod, Op::OpImageSparseSampleExplicitLod, args);
      value = compare(state, ref, e_.emit(Op::OpCompositeExtract, t_.f32, {texel, 0}), 1);
      if (dim == spv::Dim::Dim1D || dim == spv::Dim::Dim2D || dim == spv::Dim::Rect) {
        value = linear(state, sampled, image_type, dim, arrayed, n, coord, count_after, ref, mask, operand, value);
      }
    }
    if (sparse) {
      // The LINEAR footprint's residency is the nearest texel's (its four lookups are not sparse).
      m_.replace(h, Op::OpCompositeConstruct, std::vector<uint32_t>{result_type, result, code, value});
    } else {
      m_.replace(h, Op::OpCopyObject, std::vector<uint32_t>{result_type, result, value});
    }
    return {};
  }

 private:
  // GL 4.6 §8.14.2: the LINEAR result, the bilinear-weighted average of the comparisons of the 2x2 (1D: 2) footprint,
  // selected over `nearest` when the state's filter for λ is LINEAR.
  template <typename Operand>
  uint32_t linear(uint32_t state, uint32_t sampled, uint32_t image_type, spv::Dim dim, bool arrayed, uint32_t n,
                  uint32_t coord, uint32_t coord_count, uint32_t ref, uint32_t mask, Operand operand,
                  uint32_t nearest) {
    const bool rect = dim == spv::Dim::Rect;
    // λ: the Lod operand (textureLod), else the Bias operand, else 0 (a compute shader has no derivatives).
    const uint32_t lambda = (mask & kLod) ? operand(kLod) : (mask & kBias) ? operand(kBias) : t_.f0;
    const uint32_t magnified = e_.emit(Op::OpFOrdLessThanEqual, t_.b, {lambda, t_.f0});
    const uint32_t filter_bit = e_.emit(Op::OpSelect, t_.u32, {magnified, t_.u_mag, t_.u_min});
    const uint32_t is_linear =
        e_.emit(Op::OpINotEqual, t_.b, {e_.emit(Op::OpBitwiseAnd, t_.u32, {state, filter_bit}), t_.u0});
    const uint32_t image = e_.emit(Op::OpImage, image_type, {sampled});
    const uint32_t size_count = n + (arrayed ? 1 : 0);
    const uint32_t size_type = size_count == 1 ? t_.i32 : size_count == 2 ? t_.v2i : t_.v3i;
    const uint32_t offset_id = (mask & kConstOffset) ? operand(kConstOffset) : (mask & kOffset) ? operand(kOffset) : 0;
    const uint32_t layer = arrayed ? e_.component(t_.f32, coord, coord_count, n) : 0;
    // The comparisons at one level (a float, integral): the bilinear average of the 2x2 (1D: 2) footprint and the
    // nearest texel's, each texel looked up at its centre (a NEAREST sampler picks exactly it, with the sampler's
    // wrap mode).
    struct LevelResult {
      uint32_t average, nearest;
    };
    auto at_level = [&](uint32_t level) -> LevelResult {
      const uint32_t size =
          rect ? e_.emit(Op::OpImageQuerySize, size_type, {image})
               : e_.emit(Op::OpImageQuerySizeLod, size_type, {image, e_.emit(Op::OpConvertFToS, t_.i32, {level})});
      // u = s * size - 1/2 (+ offset); i0 = floor(u); α = u - i0; the texel centres (i0 + 1/2) and (i0 + 3/2);
      // the nearest texel floor(u + 1/2), centre floor(u + 1/2) + 1/2 (§8.14.2, equations 8.9 and 8.10).
      std::vector<uint32_t> centre0, centre1, centre_n, alpha;
      for (uint32_t i = 0; i < n; ++i) {
        const uint32_t s = e_.component(t_.f32, coord, coord_count, i);
        const uint32_t extent = e_.emit(Op::OpConvertSToF, t_.f32, {e_.component(t_.i32, size, size_count, i)});
        uint32_t u = e_.emit(Op::OpFSub, t_.f32, {rect ? s : e_.emit(Op::OpFMul, t_.f32, {s, extent}), t_.f_half});
        if (offset_id != 0) {
          const uint32_t o = e_.component(t_.i32, offset_id, n, i);
          u = e_.emit(Op::OpFAdd, t_.f32, {u, e_.emit(Op::OpConvertSToF, t_.f32, {o})});
        }
        const uint32_t i0 = e_.ext(t_.f32, GLSLstd450Floor, {u});
        alpha.push_back(e_.emit(Op::OpFSub, t_.f32, {u, i0}));
        uint32_t c0 = e_.emit(Op::OpFAdd, t_.f32, {i0, t_.f_half});
        uint32_t c1 = e_.emit(Op::OpFAdd, t_.f32, {i0, t_.f_one_half});
        uint32_t cn = e_.emit(
            Op::OpFAdd, t_.f32, {e_.ext(t_.f32, GLSLstd450Floor, {e_.emit(Op::OpFAdd, t_.f32, {u, t_.f_half})}), t_.f_half});
        if (!rect) {
          c0 = e_.emit(Op::OpFDiv, t_.f32, {c0, extent});
          c1 = e_.emit(Op::OpFDiv, t_.f32, {c1, extent});
          cn = e_.emit(Op::OpFDiv, t_.f32, {cn, extent});
        }
        centre0.push_back(c0);
        centre1.push_back(c1);
        centre_n.push_back(cn);
      }
      auto texel = [&](uint32_t x, uint32_t y) {
        std::vector<uint32_t> c{x};
        if (y != 0) c.push_back(y);
        if (layer != 0) c.push_back(layer);
        const uint32_t at =
            c.size() == 1 ? c[0] : e_.emit(Op::OpCompositeConstruct, c.size() == 2 ? t_.v2f : t_.v3f, c);
        const uint32_t sample = e_.emit(Op::OpImageSampleExplicitLod, t_.v4f,
                                        {sampled, at, uint32_t(spv::ImageOperandsMask::Lod), level});
        return compare(state, ref, e_.emit(Op::OpCompositeExtract, t_.f32, {sample, 0}), 1);
      };
      LevelResult r{};
      if (n == 1) {
        r.average = e_.ext(t_.f32, GLSLstd450FMix, {texel(centre0[0], 0), texel(centre1[0], 0), alpha[0]});
        r.nearest = texel(centre_n[0], 0);
      } else {
        const uint32_t top_row =
            e_.ext(t_.f32, GLSLstd450FMix, {texel(centre0[0], centre0[1]), texel(centre1[0], centre0[1]), alpha[0]});
        const uint32_t bottom_row =
            e_.ext(t_.f32, GLSLstd450FMix, {texel(centre0[0], centre1[1]), texel(centre1[0], centre1[1]), alpha[0]});
        r.average = e_.ext(t_.f32, GLSLstd450FMix, {top_row, bottom_row, alpha[1]});
        r.nearest = texel(centre_n[0], centre_n[1]);
      }
      return r;
    };
    if (rect) return e_.emit(Op::OpSelect, t_.f32, {is_linear, at_level(t_.f0).average, nearest});
    // §8.14.3: with a mipmap filter the nearest level to λ, in [0, levels - 1]; else the base level.
    const uint32_t mipmapped =
        e_.emit(Op::OpINotEqual, t_.b, {e_.emit(Op::OpBitwiseAnd, t_.u32, {state, t_.u_mip}), t_.u0});
    const uint32_t levels = e_.emit(Op::OpImageQueryLevels, t_.i32, {image});
    const uint32_t top = e_.emit(Op::OpConvertSToF, t_.f32, {e_.emit(Op::OpISub, t_.i32, {levels, t_.i1})});
    const uint32_t rounded = e_.ext(t_.f32, GLSLstd450Floor, {e_.emit(Op::OpFAdd, t_.f32, {lambda, t_.f_half})});
    const uint32_t clamped = e_.ext(t_.f32, GLSLstd450FClamp, {rounded, t_.f0, top});
    const uint32_t level = e_.emit(Op::OpSelect, t_.f32, {mipmapped, clamped, t_.f0});
    const uint32_t one_level = e_.emit(Op::OpSelect, t_.f32, {is_linear, at_level(level).average, nearest});
    // §8.14.3, *_MIPMAP_LINEAR (minification): "the level d1 = floor(λ) and d2 = d1 + 1" (both q where λ >= q), each
    // filtered by the minification filter, and "τ = [1 − frac(λ)]τ1 + frac(λ)τ2". The state word is a
    // specialization constant: a pipeline without the bit folds this away.
    const uint32_t mip_linear = e_.emit(
        Op::OpLogicalAnd, t_.b,
        {e_.emit(Op::OpINotEqual, t_.b, {e_.emit(Op::OpBitwiseAnd, t_.u32, {state, t_.u_mip_linear}), t_.u0}),
         e_.emit(Op::OpLogicalNot, t_.b, {magnified})});
    const uint32_t floor_lambda = e_.ext(t_.f32, GLSLstd450Floor, {lambda});
    const uint32_t d1 = e_.ext(t_.f32, GLSLstd450FClamp, {floor_lambda, t_.f0, top});
    const uint32_t d2 = e_.ext(t_.f32, GLSLstd450FMin, {e_.emit(Op::OpFAdd, t_.f32, {d1, t_.f1}), top});
    const uint32_t fraction = e_.emit(Op::OpFSub, t_.f32, {lambda, floor_lambda});
    const LevelResult r1 = at_level(d1), r2 = at_level(d2);
    const uint32_t tau1 = e_.emit(Op::OpSelect, t_.f32, {is_linear, r1.average, r1.nearest});
    const uint32_t tau2 = e_.emit(Op::OpSelect, t_.f32, {is_linear, r2.average, r2.nearest});
    const uint32_t blended = e_.ext(t_.f32, GLSLstd450FMix, {tau1, tau2, fraction});
    return e_.emit(Op::OpSelect, t_.f32, {mip_linear, blended, one_level});
  }

  Module& m_;
  const Ids& t_;
  Emitter& e_;
};

std::string binding_name(const ShadowSamplerBinding& b) {
  return "set " + std::to_string(b.set) + " binding " + std::to_string(b.binding);
}

}  // namespace

Expected<ShadowSamplerReport> lower_shadow_samplers(Module& m, const ShadowSamplerOptions& options) {
  ShadowSamplerReport report;
  const BindingDecorations decorations = binding_decorations(m);
  // The named variables and the depth image types they use.
  std::map<uint32_t, uint32_t> variable_binding;  // variable -> index into options.bindings
  std::set<uint32_t> images;
  for (InstructionHandle h : m.instructions(Section::Global)) {
    if (m.opcode(h) != Op::OpVariable) continue;
    const uint32_t id = m.words(h)[2];
    auto set = decorations.set.find(id);
    auto binding = decorations.binding.find(id);
    if (set == decorations.set.end() || binding == decorations.binding.end()) continue;
    for (uint32_t i = 0; i < options.bindings.size(); ++i) {
      if (options.bindings[i].set != set->second || options.bindings[i].binding != binding->second) continue;
      const uint32_t pointee = strip_arrays(m, m.words(*m.definition(m.words(h)[1]))[3]);
      const uint32_t image = image_of_sampled(m, pointee);
      if (!is_depth_image(m, image)) {
        return fail("shadow sampler lowering: the variable at " + binding_name(options.bindings[i]) + " (" +
                    m.describe(h) + ") is not a sampler of a depth image");
      }
      variable_binding[id] = i;
      images.insert(image);
    }
  }
  // Every other variable of those image types would change type with them.
  for (InstructionHandle h : m.instructions(Section::Global)) {
    if (m.opcode(h) != Op::OpVariable || variable_binding.count(m.words(h)[2])) continue;
    auto pointer = m.definition(m.words(h)[1]);
    if (!pointer || m.opcode(*pointer) != Op::OpTypePointer) continue;
    const uint32_t pointee = strip_arrays(m, m.words(*pointer)[3]);
    if (images.count(pointee) || images.count(image_of_sampled(m, pointee))) {
      return fail("shadow sampler lowering: " + m.describe(h) +
                  " shares the depth image type of a lowered binding; name its binding too");
    }
  }
  // The lookups to lower, checked before any edit.
  std::vector<Lookup> lookups;
  for (InstructionHandle h : m.instructions(Section::Function)) {
    const Op op = m.opcode(h);
    if (!is_dref(op)) continue;
    const auto w = m.words(h);
    if (!images.count(image_of_sampled(m, result_type(m, w[3])))) continue;
    if (w.size() > 6 && (w[6] & ~kSupportedOperands) != 0) {
      return fail("shadow sampler lowering: " + m.describe(h) +
                  " has image operands other than Bias, Lod, Grad, "
                  "ConstOffset, Offset and MinLod");
    }
    const uint32_t variable = trace_variable(m, w[3]);
    auto named = variable_binding.find(variable);
    if (named == variable_binding.end()) {
      return fail("shadow sampler lowering: the sampler of " + m.describe(h) +
                  " does not come from one named variable (through loads, access chains, copies and the arguments "
                  "of every call)");
    }
    lookups.push_back({h, named->second});
  }

  // Edits. The state words first: one spec constant per named binding.
  // At least first_spec_id, and past every SpecId in use.
  uint32_t spec_id = options.first_spec_id;
  for (uint32_t used : m.spec_ids_in_use()) spec_id = std::max(spec_id, used + 1);
  std::vector<uint32_t> states;
  for (size_t i = 0; i < options.bindings.size(); ++i) {
    auto state = m.spec_constant_u32(kShadowStateDefault, spec_id);
    if (!state) return state.error();
    states.push_back(*state);
    report.spec_ids.push_back(spec_id++);
  }
  if (lookups.empty() && images.empty()) return report;

  // The image types become non-depth (the lookups below read the sampled-image types as they are).
  uint32_t f32 = 0;
  std::vector<uint32_t> sampled_types;
  for (uint32_t image : images) {
    const InstructionHandle def = *m.definition(image);
    std::vector<uint32_t> w(m.words(def).begin(), m.words(def).end());
    f32 = w[2];
    auto fdef = m.definition(f32);
    if (!fdef || m.opcode(*fdef) != Op::OpTypeFloat || m.words(*fdef)[2] != 32) {
      return fail("shadow sampler lowering: " + m.describe(def) + " does not sample 32-bit floats");
    }
    w[4] = 0;  // Depth
    m.replace(def, Op::OpTypeImage, std::span(w).subspan(1));
    ++report.retyped;
    for (InstructionHandle h : m.instructions(Section::Global)) {
      if (m.opcode(h) == Op::OpTypeSampledImage && m.words(h)[2] == image) sampled_types.push_back(m.words(h)[1]);
    }
  }
  if (!lookups.empty()) {
    auto glsl = m.glsl_std_450();
    if (!glsl) return glsl.error();
    auto ids = make_ids(m, f32);
    if (!ids) return ids.error();
    m.add_capability(spv::Capability::ImageQuery);
    Emitter emitter(m, *glsl);
    Lowering lowering(m, *ids, emitter);
    for (const Lookup& lookup : lookups) {
      if (Status ok = lowering.lower(lookup, states[lookup.binding_index]); !ok) return ok.error();
      ++report.lowered;
    }
    if (emitter.failed())
      return fail("shadow sampler lowering: the module has no ids left (bound " + std::to_string(m.bound()) + ")");
  }
  for (uint32_t image : images) merge_duplicate(m, image);
  for (uint32_t sampled : sampled_types) merge_duplicate(m, sampled);
  return report;
}

Expected<ShadowSamplerPatch> lower_shadow_samplers(std::span<const uint32_t> words,
                                                   const ShadowSamplerOptions& options) {
  auto module = Module::parse(words);
  if (!module) return module.error();
  auto report = lower_shadow_samplers(*module, options);
  if (!report) return report.error();
  return ShadowSamplerPatch{module->serialize(), std::move(*report)};
}

}  // namespace bismuth::spirv_patch
