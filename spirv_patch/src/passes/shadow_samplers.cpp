// lower_shadow_samplers (passes/shadow_samplers.hpp). Sources: GL 4.6 §8.23.1 (texture comparison: "the result r is
// 1.0 or 0.0 per the compare function with D_ref and D_t"; fixed-point depth: D_ref and D_t clamped to [0, 1]; with a
// LINEAR filter "a weighted average of the results"), §8.14.1 (λ from λ_base, the clamped sum of the texture's and the
// shader's bias, and the MIN/MAX_LOD clamps; ρ of the derivatives), §8.14.2 (λ <= c: the magnification filter, else
// the minification one; c = 0), §8.14.3 (mipmapping: the nearest level for *_MIPMAP_NEAREST, two levels blended for
// *_MIPMAP_LINEAR), §8.14.2 / equation 8.9 (the 2x2 footprint i0 = floor(u - 1/2), weights α = frac(u - 1/2)),
// §8.13.1 (cube map face selection, table 8.19; seamless filtering across edges and at corners); SPIR-V 1.6 section
// 3.42.10 (image instructions: OpImageSampleDref*, OpImageDrefGather, the Proj forms divide the coordinates and Dref
// by q), 2.8 (a non-aggregate, non-pointer type is declared once); Vulkan 15.6.1 (push-constant block layout).
#define SPV_ENABLE_UTILITY_CODE  // HasResultAndType
#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.hpp11>

#include "analysis/type_queries.hpp"
#include "bismuth/spirv_patch/passes/shadow_samplers.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "analysis/id_operands.hpp"
#include "analysis/sampler_variables.hpp"
#include "variable_edits.hpp"

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
  void fail() { failed_ = true; }  // an id could not be allocated: the pass reports it

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
  uint32_t f32 = 0, v2f = 0, v3f = 0, v4f = 0, i32 = 0, v2i = 0, v3i = 0, u32 = 0, v4u = 0, b = 0, v3b = 0, v4b = 0;
  uint32_t f0 = 0, f1 = 0, f_half = 0, f_one_half = 0, f2 = 0, f_third = 0, u0 = 0, u1 = 0, u2 = 0, u4 = 0, u7 = 0;
  uint32_t f_neg1 = 0, wrap_repeat = 0, wrap_mirrored = 0, wrap_border = 0, wrap_mirror_clamp = 0;
  uint32_t i1 = 0, u_mag = 0, u_min = 0, u_mip = 0, u_clamp = 0, u_mip_linear = 0, u_non_seamless = 0;
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
  if (!(s = get(m.type_vector(ids.b, 3), ids.v3b))) return s.error();
  if (!(s = get(m.type_vector(ids.b, 4), ids.v4b))) return s.error();
  if (!(s = get(m.constant_f32(0.0f), ids.f0))) return s.error();
  if (!(s = get(m.constant_f32(1.0f), ids.f1))) return s.error();
  if (!(s = get(m.constant_f32(0.5f), ids.f_half))) return s.error();
  if (!(s = get(m.constant_f32(1.5f), ids.f_one_half))) return s.error();
  if (!(s = get(m.constant_f32(2.0f), ids.f2))) return s.error();
  if (!(s = get(m.constant_f32(1.0f / 3.0f), ids.f_third))) return s.error();
  if (!(s = get(m.constant_f32(-1.0f), ids.f_neg1))) return s.error();
  if (!(s = get(m.constant_f32(kShadowWrapRepeat), ids.wrap_repeat))) return s.error();
  if (!(s = get(m.constant_f32(kShadowWrapMirroredRepeat), ids.wrap_mirrored))) return s.error();
  if (!(s = get(m.constant_f32(kShadowWrapClampToBorder), ids.wrap_border))) return s.error();
  if (!(s = get(m.constant_f32(kShadowWrapMirrorClampToEdge), ids.wrap_mirror_clamp))) return s.error();
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
  if (!(s = get(m.constant_u32(kShadowStateCubeNonSeamless), ids.u_non_seamless))) return s.error();
  // A signed 1 for `levels - 1`: OpConstant of the signed type.
  auto one = m.allocate_id();
  if (!one) return one.error();
  const uint32_t operands[] = {ids.i32, *one, 1};
  m.append(Section::Global, Op::OpConstant, operands);
  ids.i1 = *one;
  return ids;
}

// Where each binding's LOD and wrap parameters (kShadowLod*) come from: two vec4 of the push-constant array
// `push_variable` (elements 2·binding index and the next), or kShadowLodCount float spec constants.
struct LodChannel {
  uint32_t push_variable = 0, push_pointer = 0;
  std::vector<std::array<uint32_t, kShadowLodCount>> spec_constants;
};

// Vulkan 15.6.1 / 14.5.2 ("Offset and Stride Assignment", push constants): a Block struct whose member 0, at Offset 0,
// is an array of vec4 with ArrayStride 16; one push-constant variable per entry point (the caller checked there is
// none), listed in every entry point's interface from SPIR-V 1.4 on.
Expected<LodChannel> make_lod_channel(Module& m, const Ids& t, size_t bindings, bool push, uint32_t& spec_id,
                                      ShadowSamplerReport& report) {
  LodChannel c;
  auto id = [&]() -> Expected<uint32_t> { return m.allocate_id(); };
  if (!push) {
    const float defaults[kShadowLodCount] = {
        0.0f, 1000.0f, -1000.0f, 1000.0f, kShadowWrapClampToEdge, kShadowWrapClampToEdge, 0.0f, 0.0f};
    for (size_t b = 0; b < bindings; ++b) {
      std::array<uint32_t, kShadowLodCount> ids{}, spec{};
      for (uint32_t k = 0; k < kShadowLodCount; ++k) {
        auto constant = id();
        if (!constant) return constant.error();
        uint32_t bits = 0;
        std::memcpy(&bits, &defaults[k], 4);
        const uint32_t operands[] = {t.f32, *constant, bits};
        m.append(Section::Global, Op::OpSpecConstant, operands);
        const uint32_t literal = spec_id;
        m.add_decoration(*constant, spv::Decoration::SpecId, std::span(&literal, 1));
        ids[k] = *constant;
        spec[k] = spec_id++;
      }
      c.spec_constants.push_back(ids);
      report.lod_spec_ids.push_back(spec);
    }
    return c;
  }
  auto length = m.constant_u32(static_cast<uint32_t>(2 * bindings));
  if (!length) return length.error();
  auto array = id(), block = id(), variable = id();
  if (!array || !block || !variable) return fail("shadow sampler lowering: the module has no ids left");
  const uint32_t array_operands[] = {*array, t.v4f, *length};
  m.append(Section::Global, Op::OpTypeArray, array_operands);
  const uint32_t block_operands[] = {*block, *array};
  m.append(Section::Global, Op::OpTypeStruct, block_operands);
  const uint32_t stride = 16;
  m.add_decoration(*array, spv::Decoration::ArrayStride, std::span(&stride, 1));
  m.add_decoration(*block, spv::Decoration::Block);
  const uint32_t offset[] = {*block, 0, uint32_t(spv::Decoration::Offset), 0};
  m.append(Section::Annotation, Op::OpMemberDecorate, offset);
  auto block_pointer = pointer_to(m, spv::StorageClass::PushConstant, *block);
  if (!block_pointer) return block_pointer.error();
  auto element_pointer = pointer_to(m, spv::StorageClass::PushConstant, t.v4f);
  if (!element_pointer) return element_pointer.error();
  const uint32_t variable_operands[] = {*block_pointer, *variable, uint32_t(spv::StorageClass::PushConstant)};
  m.append(Section::Global, Op::OpVariable, variable_operands);
  if (interface_lists_all_globals(m)) {
    for (const Module::EntryPoint& entry : m.entry_points()) {
      m.replace(entry.handle, Op::OpEntryPoint, entry_point_interface_edit(m, entry.handle, 0, *variable));
    }
  }
  c.push_variable = *variable;
  c.push_pointer = *element_pointer;
  report.lod_push_constant_bytes = static_cast<uint32_t>(32 * bindings);
  return c;
}

bool has_push_constants(const Module& m) {
  for (InstructionHandle h : m.instructions(Section::Global)) {
    const auto w = m.words(h);
    if (m.opcode(h) == Op::OpVariable && w.size() >= 4 && w[3] == uint32_t(spv::StorageClass::PushConstant))
      return true;
  }
  return false;
}

// Whether implicit-LOD lookups have derivatives: a fragment entry point, or a compute derivative group
// (NV/KHR_compute_shader_derivatives).
bool has_derivatives(const Module& m) {
  for (const Module::EntryPoint& entry : m.entry_points()) {
    if (entry.model == spv::ExecutionModel::Fragment) return true;
  }
  for (InstructionHandle h : m.instructions(Section::ExecutionMode)) {
    const auto w = m.words(h);
    if (w.size() >= 3 && (w[2] == uint32_t(spv::ExecutionMode::DerivativeGroupQuadsNV) ||
                          w[2] == uint32_t(spv::ExecutionMode::DerivativeGroupLinearNV))) {
      return true;
    }
  }
  return false;
}

class Lowering {
 public:
  Lowering(Module& m, const Ids& ids, Emitter& e, const LodChannel& lod, bool derivatives)
      : m_(m), t_(ids), e_(e), lod_(lod), derivatives_(derivatives) {}

  // GL 4.6 §8.23.1 on `count` (1 or 4) pairs: 1.0 where "D_ref OP D_t" holds, else 0.0, OP from the state word.
  uint32_t compare(uint32_t state, uint32_t ref, uint32_t texel, uint32_t count) {
    const uint32_t tf = count == 1 ? t_.f32 : t_.v4f;
    const uint32_t tu = count == 1 ? t_.u32 : t_.v4u;
    const uint32_t tb = count == 1 ? t_.b : t_.v4b;
    auto fs = [&](uint32_t v) { return e_.splat(t_.v4f, count, v); };
    auto us = [&](uint32_t v) { return e_.splat(t_.v4u, count, v); };
    auto bs = [&](uint32_t v) { return e_.splat(t_.v4b, count, v); };
    // Fixed-point depth formats: "D_t and D_ref are clamped to the range [0, 1]".
    const uint32_t clamp = bs(bit(state, t_.u_clamp));
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
    // The operand after the mask bit `bit` (the operands follow the mask in bit order); Grad's second at bit + 1.
    auto operand = [&](uint32_t bit, uint32_t second = 0) -> uint32_t {
      size_t i = 1;
      for (uint32_t b = 1; b < bit; b <<= 1) {
        if (mask & b) i += b == kGrad ? 2 : 1;
      }
      i += second;
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
      if (sparse) {
        // The residency code: the lookup as written (its texel is not used).
        std::vector<uint32_t> args{sampled, coord};
        args.insert(args.end(), operands.begin(), operands.end());
        if (implicit) {
          look(Op::OpImageSampleImplicitLod, Op::OpImageSparseSampleImplicitLod, args);
        } else {
          look(Op::OpImageSampleExplicitLod, Op::OpImageSparseSampleExplicitLod, args);
        }
      }
      Site site;
      site.state = state;
      site.sampled = sampled;
      site.image_type = image_type;
      site.dim = dim;
      site.arrayed = arrayed;
      site.n = n;
      site.coord = coord;
      site.coord_count = count_after;
      site.ref = ref;
      site.mask = mask;
      site.implicit = implicit;
      site.bias = (mask & kBias) ? operand(kBias) : 0;
      site.lod = (mask & kLod) ? operand(kLod) : 0;
      site.dx = (mask & kGrad) ? operand(kGrad) : 0;
      site.dy = (mask & kGrad) ? operand(kGrad, 1) : 0;
      site.min_lod = (mask & kMinLod) ? operand(kMinLod) : 0;
      site.offset = (mask & kConstOffset) ? operand(kConstOffset) : (mask & kOffset) ? operand(kOffset) : 0;
      site.parameters = lod_parameters(lookup.binding_index);
      value = filtered(site);
    }
    if (sparse) {
      m_.replace(h, Op::OpCompositeConstruct, std::vector<uint32_t>{result_type, result, code, value});
    } else {
      m_.replace(h, Op::OpCopyObject, std::vector<uint32_t>{result_type, result, value});
    }
    return {};
  }

 private:
  // One lookup's inputs (ids; 0 where the lookup has no such operand).
  struct Site {
    uint32_t state = 0, sampled = 0, image_type = 0;
    spv::Dim dim = spv::Dim::Dim2D;
    bool arrayed = false;
    uint32_t n = 0, coord = 0, coord_count = 0, ref = 0, mask = 0;
    bool implicit = false;
    uint32_t bias = 0, lod = 0, dx = 0, dy = 0, min_lod = 0, offset = 0;
    std::array<uint32_t, kShadowLodCount> parameters{};  // kShadowLod*
  };

  uint32_t bit(uint32_t state, uint32_t mask_constant) {
    return e_.emit(Op::OpINotEqual, t_.b, {e_.emit(Op::OpBitwiseAnd, t_.u32, {state, mask_constant}), t_.u0});
  }
  uint32_t fadd(uint32_t a, uint32_t b) { return e_.emit(Op::OpFAdd, t_.f32, {a, b}); }
  uint32_t fsub(uint32_t a, uint32_t b) { return e_.emit(Op::OpFSub, t_.f32, {a, b}); }
  uint32_t fmul(uint32_t a, uint32_t b) { return e_.emit(Op::OpFMul, t_.f32, {a, b}); }
  uint32_t fdiv(uint32_t a, uint32_t b) { return e_.emit(Op::OpFDiv, t_.f32, {a, b}); }
  uint32_t fsel(uint32_t c, uint32_t a, uint32_t b) { return e_.emit(Op::OpSelect, t_.f32, {c, a, b}); }
  uint32_t floor(uint32_t a) { return e_.ext(t_.f32, GLSLstd450Floor, {a}); }

  std::array<uint32_t, kShadowLodCount> lod_parameters(uint32_t binding) {
    if (lod_.push_variable == 0) return lod_.spec_constants[binding];
    std::array<uint32_t, kShadowLodCount> out{};
    for (uint32_t half = 0; half < 2; ++half) {
      auto index = m_.constant_u32(2 * binding + half);
      if (!index) e_.fail();
      // Member 0 of the block (the array), then the binding's element.
      const uint32_t pointer =
          e_.emit(Op::OpAccessChain, lod_.push_pointer, {lod_.push_variable, t_.u0, index ? *index : 1});
      const uint32_t v = e_.emit(Op::OpLoad, t_.v4f, {pointer});
      for (uint32_t k = 0; k < 4; ++k) out[4 * half + k] = e_.emit(Op::OpCompositeExtract, t_.f32, {v, k});
    }
    return out;
  }

  // GL 4.6 §8.13.1, table 8.19: the major axis of the direction r and the face's axes. `major` is the unit vector
  // of the major axis (its sign), `u` and `v` the directions in which sc and tc grow, so that sc = r·u, tc = r·v,
  // ma = r·major (= |r_major|) and the face point (sc', tc') at ma = 1 is the direction major + sc'·u + tc'·v.
  struct Face {
    uint32_t major, u, v;  // vec3
    uint32_t r;            // the direction, vec3
  };
  Face cube_face(uint32_t coord, uint32_t coord_count) {
    uint32_t c[3];
    for (uint32_t i = 0; i < 3; ++i) c[i] = e_.component(t_.f32, coord, coord_count, i);
    uint32_t a[3], sign[3];
    for (uint32_t i = 0; i < 3; ++i) {
      a[i] = e_.ext(t_.f32, GLSLstd450FAbs, {c[i]});
      sign[i] = e_.ext(t_.f32, GLSLstd450FSign, {c[i]});
    }
    // Ties go to x, then y (the implementation's choice where two magnitudes are equal).
    const uint32_t xm = e_.emit(Op::OpLogicalAnd, t_.b,
                                {e_.emit(Op::OpFOrdGreaterThanEqual, t_.b, {a[0], a[1]}),
                                 e_.emit(Op::OpFOrdGreaterThanEqual, t_.b, {a[0], a[2]})});
    const uint32_t ym =
        e_.emit(Op::OpLogicalAnd, t_.b,
                {e_.emit(Op::OpLogicalNot, t_.b, {xm}), e_.emit(Op::OpFOrdGreaterThanEqual, t_.b, {a[1], a[2]})});
    const uint32_t zm = e_.emit(Op::OpLogicalNot, t_.b, {e_.emit(Op::OpLogicalOr, t_.b, {xm, ym})});
    auto neg = [&](uint32_t x) { return e_.emit(Op::OpFNegate, t_.f32, {x}); };
    auto vec3 = [&](uint32_t x, uint32_t y, uint32_t z) {
      return e_.emit(Op::OpCompositeConstruct, t_.v3f, {x, y, z});
    };
    // Table 8.19: +x: sc = -rz, tc = -ry; -x: sc = rz, tc = -ry; +y: sc = rx, tc = rz; -y: sc = rx, tc = -rz;
    // +z: sc = rx, tc = -ry; -z: sc = -rx, tc = -ry.
    Face f{};
    f.major = vec3(fsel(xm, sign[0], t_.f0), fsel(ym, sign[1], t_.f0), fsel(zm, sign[2], t_.f0));
    f.u = vec3(fsel(xm, t_.f0, fsel(ym, t_.f1, sign[2])), t_.f0, fsel(xm, neg(sign[0]), t_.f0));
    f.v = vec3(t_.f0, fsel(ym, t_.f0, neg(t_.f1)), fsel(ym, sign[1], t_.f0));
    f.r = coord_count == 3 ? coord : vec3(c[0], c[1], c[2]);
    return f;
  }
  uint32_t dot(uint32_t a, uint32_t b) { return e_.emit(Op::OpDot, t_.f32, {a, b}); }

  // GL 4.6 §8.14.1: λ_base from the lookup (the Lod operand; from the Grad operands ρ = max(ρx, ρy) with
  // ρ = |∂(u, v)/∂x| in texels of the base level; an implicit lookup's derivatives where the stage has them, else 0:
  // a compute shader without a derivative group has none, GLSL 4.60 §8.9), then
  // λ' = λ_base + clamp(bias_texobj + bias_shader, -bias_max, bias_max) and λ = clamp(λ', min_lod, max_lod);
  // ARB_sparse_texture_clamp's MinLod operand raises the minimum.
  uint32_t lambda(const Site& s, uint32_t st_scale_x, uint32_t st_scale_y, const Face* face) {
    uint32_t base = t_.f0;
    if (s.lod != 0) {
      base = s.lod;
    } else if (s.dx != 0) {
      auto rho = [&](uint32_t d) {
        uint32_t du = 0, dv = 0;
        if (face != nullptr) {
          // s = (sc / ma + 1) / 2: ∂s = (∂sc·ma − sc·∂ma) / (2·ma²).
          const uint32_t ma = dot(face->r, face->major), sc = dot(face->r, face->u), tc = dot(face->r, face->v);
          const uint32_t dma = dot(d, face->major), dsc = dot(d, face->u), dtc = dot(d, face->v);
          const uint32_t denominator = fmul(t_.f2, fmul(ma, ma));
          du = fdiv(fsub(fmul(dsc, ma), fmul(sc, dma)), denominator);
          dv = fdiv(fsub(fmul(dtc, ma), fmul(tc, dma)), denominator);
        } else {
          const uint32_t count = s.n;
          du = e_.component(t_.f32, d, count, 0);
          if (count > 1) dv = e_.component(t_.f32, d, count, 1);
        }
        uint32_t sum = fmul(fmul(du, st_scale_x), fmul(du, st_scale_x));
        if (dv != 0) sum = fadd(sum, fmul(fmul(dv, st_scale_y), fmul(dv, st_scale_y)));
        return e_.ext(t_.f32, GLSLstd450Sqrt, {sum});
      };
      base = e_.ext(t_.f32, GLSLstd450Log2, {e_.ext(t_.f32, GLSLstd450FMax, {rho(s.dx), rho(s.dy)})});
    } else if (s.implicit && derivatives_ && s.dim != spv::Dim::Rect) {
      // The device's λ_base (the sampler has no bias and no LOD clamps: shadow_samplers.hpp).
      uint32_t at = s.coord;
      if (s.coord_count > s.n) {
        std::vector<uint32_t> c;
        for (uint32_t i = 0; i < s.n; ++i) c.push_back(e_.component(t_.f32, s.coord, s.coord_count, i));
        at = s.n == 1 ? c[0] : e_.emit(Op::OpCompositeConstruct, s.n == 2 ? t_.v2f : t_.v3f, c);
      }
      base = e_.emit(Op::OpCompositeExtract, t_.f32, {e_.emit(Op::OpImageQueryLod, t_.v2f, {s.sampled, at}), 1});
    }
    const auto& p = s.parameters;
    uint32_t bias = p[kShadowLodBias];
    if (s.bias != 0) bias = fadd(bias, s.bias);
    bias = e_.ext(t_.f32, GLSLstd450FClamp,
                  {bias, e_.emit(Op::OpFNegate, t_.f32, {p[kShadowLodBiasMax]}), p[kShadowLodBiasMax]});
    uint32_t l = fadd(base, bias);
    l = e_.ext(t_.f32, GLSLstd450FMin, {e_.ext(t_.f32, GLSLstd450FMax, {l, p[kShadowLodMin]}), p[kShadowLodMax]});
    if (s.min_lod != 0) l = e_.ext(t_.f32, GLSLstd450FMax, {l, s.min_lod});
    return l;
  }

  // The comparisons at one level (a float, integral): the bilinear average of the 2x2 (1D: 2) footprint and the
  // nearest texel's.
  struct LevelResult {
    uint32_t average, nearest;
  };

  // GL 4.6 §8.14.2 on a 1D, 2D or rectangle face (arrays: one layer): u = s·size − ½ (+ offset), i0 = ⌊u⌋,
  // α = u − i0, the texels i0 and i0 + 1 (2D: the 2x2 footprint) looked up at their centres (a NEAREST sampler picks
  // exactly them, with the sampler's wrap mode and border), and the nearest texel ⌊u + ½⌋ (equations 8.9, 8.10).
  LevelResult flat_level(const Site& s, uint32_t image, uint32_t level) {
    const bool rect = s.dim == spv::Dim::Rect;
    const uint32_t size_count = s.n + (s.arrayed ? 1 : 0);
    const uint32_t size_type = size_count == 1 ? t_.i32 : size_count == 2 ? t_.v2i : t_.v3i;
    const uint32_t size =
        rect ? e_.emit(Op::OpImageQuerySize, size_type, {image})
             : e_.emit(Op::OpImageQuerySizeLod, size_type, {image, e_.emit(Op::OpConvertFToS, t_.i32, {level})});
    const uint32_t layer = s.arrayed ? e_.component(t_.f32, s.coord, s.coord_count, s.n) : 0;
    std::vector<uint32_t> centre0, centre1, centre_n, alpha;
    for (uint32_t i = 0; i < s.n; ++i) {
      const uint32_t c = e_.component(t_.f32, s.coord, s.coord_count, i);
      const uint32_t extent = e_.emit(Op::OpConvertSToF, t_.f32, {e_.component(t_.i32, size, size_count, i)});
      uint32_t u = fsub(rect ? c : fmul(c, extent), t_.f_half);
      if (s.offset != 0) {
        u = fadd(u, e_.emit(Op::OpConvertSToF, t_.f32, {e_.component(t_.i32, s.offset, s.n, i)}));
      }
      const uint32_t i0 = floor(u);
      alpha.push_back(fsub(u, i0));
      uint32_t c0 = fadd(i0, t_.f_half), c1 = fadd(i0, t_.f_one_half);
      uint32_t cn = fadd(floor(fadd(u, t_.f_half)), t_.f_half);
      if (!rect) {
        c0 = fdiv(c0, extent);
        c1 = fdiv(c1, extent);
        cn = fdiv(cn, extent);
      }
      centre0.push_back(c0);
      centre1.push_back(c1);
      centre_n.push_back(cn);
    }
    auto texel = [&](uint32_t x, uint32_t y) {
      std::vector<uint32_t> c{x};
      if (y != 0) c.push_back(y);
      if (layer != 0) c.push_back(layer);
      const uint32_t at = c.size() == 1 ? c[0] : e_.emit(Op::OpCompositeConstruct, c.size() == 2 ? t_.v2f : t_.v3f, c);
      return sample_compare(s, at, level);
    };
    LevelResult r{};
    if (s.n == 1) {
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
  }

  // The comparison of the texel a NEAREST lookup at `at` (the level `level`) reads.
  uint32_t sample_compare(const Site& s, uint32_t at, uint32_t level) {
    const uint32_t sample =
        e_.emit(Op::OpImageSampleExplicitLod, t_.v4f, {s.sampled, at, uint32_t(spv::ImageOperandsMask::Lod), level});
    return compare(s.state, s.ref, e_.emit(Op::OpCompositeExtract, t_.f32, {sample, 0}), 1);
  }

  // GL 4.6 §8.13.1 and §8.14.2 on a cube map level: (s, t) on the face of the major axis, the 2x2 footprint of
  // u = s·size − ½, v = t·size − ½. Seamless cube map filtering ("If TEXTURE_CUBE_MAP_SEAMLESS is enabled ... if a
  // texture sample location would lie in the texture border in either u or v (but not both), instead select the
  // corresponding texel from the appropriate neighboring face"): each texel is looked up by the direction of its
  // centre, major + sc·u + tc·v, which for a centre half a texel past an edge points into the neighbouring face's
  // edge texel there, so the device's face selection finds it. "If a texture sample location would lie in the
  // texture border in both u and v (in one of the corners of the cube), there is no unique neighboring face from
  // which to extract one texel. The recommended method to generate this texel is to average the values of the three
  // available samples": the corner texel's comparison is the average of the other three's. The nearest texel: the
  // lookup at the direction itself.
  // With TEXTURE_CUBE_MAP_SEAMLESS disabled (kShadowStateCubeNonSeamless) "each face of the texture is treated as an
  // independent two-dimensional texture, and the generated (s t) coordinate is subjected to the same clamping and
  // wrapping rules as for any other two dimensional texture fetch" (ARB_seamless_cube_map; GL 4.6 §8.13: the face's
  // image is filtered "using the rules given in sections 8.14 through 8.17"): the NEAREST texel ⌊u⌋ and the footprint's
  // indices go through the wrap function of the binding's TEXTURE_WRAP_S / TEXTURE_WRAP_T (table 8.20, wrapped()),
  // every texel is looked up by a direction inside the selected face, no corner is averaged, and a CLAMP_TO_BORDER
  // index outside the face is a border texel: its depth is the border colour's first component, compared with the
  // reference like any texel (§8.23.1's D_t).
  LevelResult cube_level(const Site& s, uint32_t image, uint32_t level, const Face& f, uint32_t face_s,
                         uint32_t face_t) {
    const uint32_t size_type = s.arrayed ? t_.v3i : t_.v2i;
    const uint32_t size =
        e_.emit(Op::OpImageQuerySizeLod, size_type, {image, e_.emit(Op::OpConvertFToS, t_.i32, {level})});
    const uint32_t extent = e_.emit(Op::OpConvertSToF, t_.f32, {e_.emit(Op::OpCompositeExtract, t_.i32, {size, 0})});
    const uint32_t layer = s.arrayed ? e_.component(t_.f32, s.coord, s.coord_count, 3) : 0;
    const uint32_t two_over = fdiv(t_.f2, extent);
    const uint32_t non_seamless = bit(s.state, t_.u_non_seamless);
    uint32_t base[2], frac[2], face_coord[2][2], outside[2][2], border[2][2], nearest_coord[2], nearest_border[2];
    const uint32_t st[2] = {face_s, face_t};
    const uint32_t wrap_modes[2] = {s.parameters[kShadowLodWrapS], s.parameters[kShadowLodWrapT]};
    // The centre of texel i in face coordinates: (i + ½)·2/size − 1.
    auto centre = [&](uint32_t i) { return fsub(fmul(fadd(i, t_.f_half), two_over), t_.f1); };
    for (int k = 0; k < 2; ++k) {
      const uint32_t u = fsub(fmul(st[k], extent), t_.f_half);
      base[k] = floor(u);
      frac[k] = fsub(u, base[k]);
      const uint32_t i1 = fadd(base[k], t_.f1);
      const Wrapped w0 = wrapped(base[k], extent, wrap_modes[k]), w1 = wrapped(i1, extent, wrap_modes[k]);
      face_coord[k][0] = centre(fsel(non_seamless, w0.index, base[k]));
      face_coord[k][1] = centre(fsel(non_seamless, w1.index, i1));
      border[k][0] = w0.border;
      border[k][1] = w1.border;
      outside[k][0] = e_.emit(Op::OpFOrdLessThan, t_.b, {base[k], t_.f0});
      outside[k][1] = e_.emit(Op::OpFOrdGreaterThanEqual, t_.b, {i1, extent});
      // NEAREST (equation 8.9's i = wrap(⌊u⌋), u = s·size).
      const Wrapped n = wrapped(floor(fmul(st[k], extent)), extent, wrap_modes[k]);
      nearest_coord[k] = centre(n.index);
      nearest_border[k] = n.border;
    }
    const uint32_t seamless = e_.emit(Op::OpLogicalNot, t_.b, {non_seamless});
    auto lookup_at = [&](uint32_t direction) {
      uint32_t at = direction;
      if (layer != 0) {
        at = e_.emit(Op::OpCompositeConstruct, t_.v4f,
                     {e_.emit(Op::OpCompositeExtract, t_.f32, {direction, 0}),
                      e_.emit(Op::OpCompositeExtract, t_.f32, {direction, 1}),
                      e_.emit(Op::OpCompositeExtract, t_.f32, {direction, 2}), layer});
      }
      return sample_compare(s, at, level);
    };
    auto direction_at = [&](uint32_t sc, uint32_t tc) {
      return e_.emit(Op::OpFAdd, t_.v3f,
                     {e_.emit(Op::OpFAdd, t_.v3f, {f.major, e_.emit(Op::OpVectorTimesScalar, t_.v3f, {f.u, sc})}),
                      e_.emit(Op::OpVectorTimesScalar, t_.v3f, {f.v, tc})});
    };
    // The border texel's comparison (only selected where a face is sampled non-seamlessly with CLAMP_TO_BORDER).
    const uint32_t border_compare = compare(s.state, s.ref, s.parameters[kShadowLodBorder], 1);
    uint32_t c[2][2];  // [j][i]
    for (int j = 0; j < 2; ++j) {
      for (int i = 0; i < 2; ++i) {
        c[j][i] = lookup_at(direction_at(face_coord[0][i], face_coord[1][j]));
        const uint32_t is_border = e_.emit(
            Op::OpLogicalAnd, t_.b, {non_seamless, e_.emit(Op::OpLogicalOr, t_.b, {border[0][i], border[1][j]})});
        c[j][i] = fsel(is_border, border_compare, c[j][i]);
      }
    }
    const uint32_t sum = fadd(fadd(c[0][0], c[0][1]), fadd(c[1][0], c[1][1]));
    for (int j = 0; j < 2; ++j) {
      for (int i = 0; i < 2; ++i) {
        const uint32_t corner = e_.emit(Op::OpLogicalAnd, t_.b,
                                        {seamless, e_.emit(Op::OpLogicalAnd, t_.b, {outside[0][i], outside[1][j]})});
        c[j][i] = fsel(corner, fmul(fsub(sum, c[j][i]), t_.f_third), c[j][i]);
      }
    }
    LevelResult r{};
    const uint32_t top_row = e_.ext(t_.f32, GLSLstd450FMix, {c[0][0], c[0][1], frac[0]});
    const uint32_t bottom_row = e_.ext(t_.f32, GLSLstd450FMix, {c[1][0], c[1][1], frac[0]});
    r.average = e_.ext(t_.f32, GLSLstd450FMix, {top_row, bottom_row, frac[1]});
    // Seamless: the lookup at the direction itself (the device picks the face and texel); per face: the wrapped
    // nearest texel's centre.
    const uint32_t per_face = e_.emit(Op::OpCompositeConstruct, t_.v3b, {non_seamless, non_seamless, non_seamless});
    const uint32_t nearest_direction =
        e_.emit(Op::OpSelect, t_.v3f, {per_face, direction_at(nearest_coord[0], nearest_coord[1]), f.r});
    const uint32_t nearest_is_border = e_.emit(
        Op::OpLogicalAnd, t_.b, {non_seamless, e_.emit(Op::OpLogicalOr, t_.b, {nearest_border[0], nearest_border[1]})});
    r.nearest = fsel(nearest_is_border, border_compare, lookup_at(nearest_direction));
    return r;
  }

  // GL 4.6 table 8.20 on a texel index `i` (integral, a float) of a face `size` texels wide, for the wrap mode `mode`
  // (kShadowWrap*): CLAMP_TO_EDGE clamp(i, 0, size − 1); REPEAT fmod(i, size); MIRRORED_REPEAT
  // (size − 1) − mirror(fmod(i, 2·size) − size); MIRROR_CLAMP_TO_EDGE clamp(mirror(i), 0, size − 1), with
  // mirror(a) = a if a ≥ 0, else −(1 + a) and fmod(a, b) = a − b·⌊a/b⌋; CLAMP_TO_BORDER clamp(i, −1, size), whose −1
  // and size are border texels ("i < 0, i ≥ w_t": §8.14.2). `index` is always inside the face (a border texel's is
  // the clamped one, whose lookup the border comparison replaces).
  struct Wrapped {
    uint32_t index, border;
  };
  Wrapped wrapped(uint32_t i, uint32_t size, uint32_t mode) {
    const uint32_t last = fsub(size, t_.f1);
    auto fmod = [&](uint32_t a, uint32_t b) { return fsub(a, fmul(b, floor(fdiv(a, b)))); };
    auto mirror = [&](uint32_t a) {
      return fsel(e_.emit(Op::OpFOrdGreaterThanEqual, t_.b, {a, t_.f0}), a, fsub(t_.f_neg1, a));
    };
    auto clamp_edge = [&](uint32_t a) { return e_.ext(t_.f32, GLSLstd450FClamp, {a, t_.f0, last}); };
    auto is = [&](uint32_t constant) { return e_.emit(Op::OpFOrdEqual, t_.b, {mode, constant}); };
    const uint32_t repeat = fmod(i, size);
    const uint32_t mirrored = fsub(last, mirror(fsub(fmod(i, fmul(t_.f2, size)), size)));
    const uint32_t mirror_clamp = clamp_edge(mirror(i));
    Wrapped w{};
    w.index = fsel(is(t_.wrap_repeat), repeat,
                   fsel(is(t_.wrap_mirrored), mirrored, fsel(is(t_.wrap_mirror_clamp), mirror_clamp, clamp_edge(i))));
    const uint32_t out =
        e_.emit(Op::OpLogicalOr, t_.b,
                {e_.emit(Op::OpFOrdLessThan, t_.b, {i, t_.f0}), e_.emit(Op::OpFOrdGreaterThanEqual, t_.b, {i, size})});
    w.border = e_.emit(Op::OpLogicalAnd, t_.b, {is(t_.wrap_border), out});
    return w;
  }

  // GL 4.6 §8.14-8.14.3 around the comparisons: λ (with the LOD bias and clamps), the filter of λ (λ <= c = 0:
  // magnification, GL 4.1+ "Implementations may either unconditionally assume c = 0 ..."), the level(s) of the
  // mipmap filter and the LINEAR footprint or the nearest texel of each, selected by the state word.
  uint32_t filtered(const Site& s) {
    const bool rect = s.dim == spv::Dim::Rect, cube = s.dim == spv::Dim::Cube;
    const uint32_t image = e_.emit(Op::OpImage, s.image_type, {s.sampled});
    std::optional<Face> face;
    uint32_t face_s = 0, face_t = 0;
    if (cube) {
      face = cube_face(s.coord, s.coord_count);
      const uint32_t ma = dot(face->r, face->major);
      face_s = fmul(fadd(fdiv(dot(face->r, face->u), ma), t_.f1), t_.f_half);
      face_t = fmul(fadd(fdiv(dot(face->r, face->v), ma), t_.f1), t_.f_half);
    }
    // The base level's size scales the Grad operands into texels (rectangles: already in texels).
    uint32_t scale_x = t_.f1, scale_y = t_.f1;
    if (s.dx != 0 && !rect) {
      const uint32_t count = (cube ? 2 : s.n) + (s.arrayed ? 1 : 0);
      const uint32_t type = count == 1 ? t_.i32 : count == 2 ? t_.v2i : t_.v3i;
      const uint32_t size =
          e_.emit(Op::OpImageQuerySizeLod, type, {image, e_.emit(Op::OpConvertFToS, t_.i32, {t_.f0})});
      scale_x = e_.emit(Op::OpConvertSToF, t_.f32, {e_.component(t_.i32, size, count, 0)});
      if (cube || s.n > 1) scale_y = e_.emit(Op::OpConvertSToF, t_.f32, {e_.component(t_.i32, size, count, 1)});
    }
    const uint32_t l = lambda(s, scale_x, scale_y, face ? &*face : nullptr);
    const uint32_t magnified = e_.emit(Op::OpFOrdLessThanEqual, t_.b, {l, t_.f0});
    const uint32_t is_linear = bit(s.state, e_.emit(Op::OpSelect, t_.u32, {magnified, t_.u_mag, t_.u_min}));
    auto at_level = [&](uint32_t level) {
      return cube ? cube_level(s, image, level, *face, face_s, face_t) : flat_level(s, image, level);
    };
    if (rect) {
      const LevelResult r = at_level(t_.f0);
      return fsel(is_linear, r.average, r.nearest);
    }
    // §8.14.3: with a mipmap filter, *_MIPMAP_NEAREST reads level d = ⌈λ + ½⌉ − 1 clamped to [0, q] (levels are
    // counted from the view's first, levelbase); without one, levelbase; magnification always reads levelbase.
    const uint32_t mipmapped = bit(s.state, t_.u_mip);
    const uint32_t levels = e_.emit(Op::OpImageQueryLevels, t_.i32, {image});
    const uint32_t top = e_.emit(Op::OpConvertSToF, t_.f32, {e_.emit(Op::OpISub, t_.i32, {levels, t_.i1})});
    const uint32_t rounded = fsub(e_.ext(t_.f32, GLSLstd450Ceil, {fadd(l, t_.f_half)}), t_.f1);
    const uint32_t nearest_level = e_.ext(t_.f32, GLSLstd450FClamp, {rounded, t_.f0, top});
    const uint32_t level =
        fsel(e_.emit(Op::OpLogicalAnd, t_.b, {mipmapped, e_.emit(Op::OpLogicalNot, t_.b, {magnified})}), nearest_level,
             t_.f0);
    const LevelResult one = at_level(level);
    const uint32_t one_level = fsel(is_linear, one.average, one.nearest);
    // *_MIPMAP_LINEAR (minification): "the level d1 = floor(λ) and d2 = d1 + 1" (both q where λ >= q), each filtered
    // by the minification filter, and "τ = [1 − frac(λ)]τ1 + frac(λ)τ2". The state word is a specialization
    // constant: a pipeline without the bit folds this away.
    const uint32_t mip_linear =
        e_.emit(Op::OpLogicalAnd, t_.b, {bit(s.state, t_.u_mip_linear), e_.emit(Op::OpLogicalNot, t_.b, {magnified})});
    const uint32_t floor_l = floor(l);
    const uint32_t d1 = e_.ext(t_.f32, GLSLstd450FClamp, {floor_l, t_.f0, top});
    const uint32_t d2 = e_.ext(t_.f32, GLSLstd450FMin, {fadd(d1, t_.f1), top});
    const uint32_t fraction = fsub(l, floor_l);
    const LevelResult r1 = at_level(d1), r2 = at_level(d2);
    const uint32_t tau1 = fsel(is_linear, r1.average, r1.nearest);
    const uint32_t tau2 = fsel(is_linear, r2.average, r2.nearest);
    const uint32_t blended = e_.ext(t_.f32, GLSLstd450FMix, {tau1, tau2, fraction});
    return fsel(mip_linear, blended, one_level);
  }

  Module& m_;
  const Ids& t_;
  Emitter& e_;
  const LodChannel& lod_;
  bool derivatives_;
};

std::string binding_name(const ShadowSamplerBinding& b) {
  return "set " + std::to_string(b.set) + " binding " + std::to_string(b.binding);
}

}  // namespace

Expected<ShadowSamplerReport> lower_shadow_samplers(Module& m, const ShadowSamplerOptions& options) {
  ShadowSamplerReport report;
  // The named variables (variable -> index into options.bindings) and the depth image types they use.
  const std::map<uint32_t, uint32_t> variable_binding = variables_at(m, options.bindings);
  std::set<uint32_t> images;
  for (const auto& [id, i] : variable_binding) {
    const InstructionHandle h = *m.definition(id);
    const uint32_t pointee = strip_arrays(m, m.words(*m.definition(m.words(h)[1]))[3]);
    const uint32_t image = image_of_sampled(m, pointee);
    if (!is_depth_image(m, image)) {
      return fail("shadow sampler lowering: the variable at " + binding_name(options.bindings[i]) + " (" +
                  m.describe(h) + ") is not a sampler of a depth image");
    }
    images.insert(image);
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
    // The LOD parameters: push constants where they fit and the module has none of its own, else spec constants.
    const bool push = !has_push_constants(m) && options.bindings.size() * 32 <= options.max_push_constant_bytes;
    auto channel = make_lod_channel(m, *ids, options.bindings.size(), push, spec_id, report);
    if (!channel) return channel.error();
    Emitter emitter(m, *glsl);
    Lowering lowering(m, *ids, emitter, *channel, has_derivatives(m));
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
