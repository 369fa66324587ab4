// Texture lookups and queries: TEX TXB TXL TXD (sampling), TXF TXFMS (texel fetches), TXG TXGO (gathers), TXQ
// and LOD. Each (texture unit, result type) is a combined image sampler variable on the unit's binding (a uniform
// texel buffer for BUFFER targets).
//
// A compute program has no implicit derivatives: GL computes the level of detail of an implicit-LOD lookup outside
// fragment shaders as 0 (GL 4.6 section 8.14.1's non-fragment rule, GLSL 4.60 section 8.9), so TEX samples level
// of detail 0 and TXB the bias, both as explicit-LOD SPIR-V lookups. RECT targets are 2D images: the module divides
// the coordinates (and TXD's derivatives) by the level-0 size, so the unit's ordinary sampler serves.
#include <algorithm>

#include "codegen.hpp"
#include "opcode_table.hpp"
#include "program_info.hpp"

namespace bismuth::nvasm::detail {
namespace {

constexpr uint32_t kBias = 0x1, kLod = 0x2, kGrad = 0x4, kConstOffset = 0x8, kOffset = 0x10, kSample = 0x40,
                   kMinLod = 0x80;

uint32_t spirv_dim(TexDim d) {
  switch (d) {
    case TexDim::D1: return static_cast<uint32_t>(spv::Dim::Dim1D);
    case TexDim::D3: return static_cast<uint32_t>(spv::Dim::Dim3D);
    case TexDim::Cube: return static_cast<uint32_t>(spv::Dim::Cube);
    case TexDim::Buffer: return static_cast<uint32_t>(spv::Dim::Buffer);
    default: return static_cast<uint32_t>(spv::Dim::Dim2D);  // D2 and RECT
  }
}

// Coordinates of one level (no layer): derivatives and texel offsets have this many components.
uint32_t level_coords(const TargetShape& s) {
  switch (s.dim) {
    case TexDim::D1:
    case TexDim::Buffer: return 1;
    case TexDim::D2:
    case TexDim::Rect: return 2;
    default: return 3;
  }
}

}  // namespace

// A register-indexed TEXTURE / IMAGE array: a switch over its units, each case the access on that unit (the index
// clamped into the array as register-array indices are). Every unit stays its own descriptor.
bool Codegen::texture_family(const Instruction& inst) {
  const TextureAccess& t = *inst.texture;
  if (!t.dynamic) return texture_access(inst);
  const uint32_t count = static_cast<uint32_t>(t.units.size());
  return switch_cases(dynamic_index(t.element, t.temp, t.component, count), count, [&](uint32_t k) {
    Instruction one = inst;
    one.texture->dynamic = false;
    one.texture->unit = t.units[k];
    return texture_access(one);
  });
}

bool Codegen::texture_access(const Instruction& inst) {
  if (inst.sparse && !options_.sparse_residency) {
    return fail(inst, ".SPARSE (EXT_sparse_texture2) needs the device's shaderResourceResidency feature");
  }
  switch (inst.op) {
    case AsmOp::TEX:
    case AsmOp::TXB:
    case AsmOp::TXL:
    case AsmOp::TXD: return lookup(inst);
    case AsmOp::TXF:
    case AsmOp::TXFMS: return fetch(inst);
    case AsmOp::TXG:
    case AsmOp::TXGO: return gather(inst);
    case AsmOp::TXQ:
    case AsmOp::LOD: return query(inst);
    default: return image(inst);
  }
}

const Codegen::TextureVar& Codegen::texture_var(const TextureAccess& t, DataType type) {
  auto [it, inserted] = texture_vars_.try_emplace({false, t.unit, type, ImageFormat::Unknown});
  if (!inserted) return it->second;
  const TargetShape s = target_shape(t.target);
  TextureVar& v = it->second;
  v.image_type = b_.global(Op::OpTypeImage,
                           {scalar_type(type), spirv_dim(s.dim), s.shadow ? 1u : 0u, s.array ? 1u : 0u,
                            s.multisample ? 1u : 0u, 1, static_cast<uint32_t>(spv::ImageFormat::Unknown)},
                           false);
  if (s.dim == TexDim::D1) need(spv::Capability::Sampled1D);
  if (s.dim == TexDim::Cube && s.array) need(spv::Capability::SampledCubeArray);
  uint32_t pointee = v.image_type;
  if (s.dim == TexDim::Buffer) {
    need(spv::Capability::SampledBuffer);
  } else {
    v.sampled_type = b_.global(Op::OpTypeSampledImage, {v.image_type}, false);
    pointee = v.sampled_type;
  }
  v.var = variable(t_ptr(spv::StorageClass::UniformConstant, pointee), spv::StorageClass::UniformConstant);
  decorate(v.var, spv::Decoration::DescriptorSet, {0});
  decorate(v.var, spv::Decoration::Binding, {texture_binding(options_, t.unit)});
  return v;
}

// The image of a texture variable: the texel buffer itself, or OpImage of the loaded sampled image.
uint32_t Codegen::texture_image(const TextureVar& v) {
  if (!v.sampled_type) return b_.op(Op::OpLoad, v.image_type, {v.var});
  const uint32_t sampled = b_.op(Op::OpLoad, v.sampled_type, {v.var});
  return b_.op(Op::OpImage, v.image_type, {sampled});
}

// Components first .. first + count - 1 of `v`: a scalar for one, else a vector.
uint32_t Codegen::pick(Val v, uint32_t first, uint32_t count) {
  if (count == 1) return component(v, first);
  std::vector<uint32_t> ops = {t_vec(scalar_type(v.type), count), 0, v.id, v.id};
  ops[1] = b_.id();
  for (uint32_t c = 0; c < count; ++c) ops.push_back(first + c);
  SpirvBuilder::put(b_.body, Op::OpVectorShuffle, ops);
  return ops[1];
}

// RECT coordinates (or derivatives) in texels -> normalized 2D coordinates: divided by the level-0 size.
uint32_t Codegen::rect_scale(uint32_t image, uint32_t coords) {
  need(spv::Capability::ImageQuery);
  const uint32_t vec2i = t_vec(t_i32(), 2), vec2f = t_vec(t_float(32), 2);
  const uint32_t size = b_.op(Op::OpImageQuerySizeLod, vec2i, {image, c_i32(0)});
  const uint32_t fsize = b_.op(Op::OpConvertSToF, vec2f, {size});
  return b_.op(Op::OpFDiv, vec2f, {coords, fsize});
}

// A lookup's result as four components: a SHADOW comparison gives (r, r, r, 1), GL's compatibility-profile default
// (DEPTH_TEXTURE_MODE LUMINANCE), the NV programs' profile.
Val Codegen::texel_result(uint32_t texel, DataType type, bool scalar_compare) {
  if (!scalar_compare) return {texel, type};
  const uint32_t one = c_scalar(DataType::F32, 1.0, 0, true);
  return {b_.op(Op::OpCompositeConstruct, vec_type(DataType::F32), {texel, texel, texel, one}), DataType::F32};
}

// A sparse lookup's struct {residency code, texel}: the texel, and the residency to the condition code.
Val Codegen::sparse_result(uint32_t returned, uint32_t texel_type, DataType type, bool scalar_compare) {
  const uint32_t code = b_.op(Op::OpCompositeExtract, t_i32(), {returned, 0});
  const uint32_t texel = b_.op(Op::OpCompositeExtract, texel_type, {returned, 1});
  residency_ = b_.op(Op::OpImageSparseTexelsResident, t_bool(), {code});
  return texel_result(texel, type, scalar_compare);
}

// EXT_sparse_texture2: a .SPARSE lookup sets the NONRESIDENT flag of the condition code (CC0, or CC1 with .CC1)
// in all four components when it touched texels that are not resident, and clears it otherwise.
void Codegen::write_residency(const Instruction& inst) {
  if (!inst.sparse) return;
  const uint32_t cc = b_.op(Op::OpLoad, t_uvec4(), {cc_vars_[inst.cc_register]});
  const uint32_t kept = b_.op(Op::OpBitwiseAnd, t_uvec4(), {cc, c_uvec4(~kFlagNR, ~kFlagNR, ~kFlagNR, ~kFlagNR)});
  const uint32_t flag = b_.op(Op::OpSelect, t_u32(), {residency_, c_u32(0), c_u32(kFlagNR)});
  const uint32_t flags = b_.op(Op::OpCompositeConstruct, t_uvec4(), {flag, flag, flag, flag});
  b_.inst(Op::OpStore, {cc_vars_[inst.cc_register], b_.op(Op::OpBitwiseOr, t_uvec4(), {kept, flags})});
}

// TEX, TXB, TXL, TXD.
bool Codegen::lookup(const Instruction& inst) {
  const TextureAccess& t = *inst.texture;
  const TargetShape s = target_shape(t.target);
  // TXD.LODCLAMP: the gradients give the level of detail, which the MinLod image operand raises to the minimum
  // (ARB_sparse_texture_clamp); the minimum is the y gradient's w, a component no target's gradients use (where
  // NVIDIA's GLSL compiler puts textureGradClampARB's clamp, and yuzu's GLASM backend too).
  const bool min_lod = inst.op == AsmOp::TXD && inst.lod_clamp;
  if (min_lod && !options_.min_lod) {
    return fail(inst, "TXD.LODCLAMP needs the device's shaderResourceMinLod feature (the MinLod image operand)");
  }
  const DataType rt = s.shadow ? DataType::F32 : inst.type;
  const TextureVar& v = texture_var(t, rt);
  const Val c = load_operand(inst.sources[0], DataType::F32);
  const size_t fixed = inst.op == AsmOp::TXD ? 3 : 1;
  const Val extra = inst.sources.size() > fixed ? load_operand(inst.sources.back(), DataType::F32) : Val{};
  // The compare value (z, or w after three coordinates) and the level of detail or bias (w) where the coordinate
  // has room for them, else the extra operand's next components, then the LODCLAMP minimum (the parser checked
  // the operand count).
  uint32_t used = s.coords, next_extra = 0;
  auto from_extra = [&]() {
    used = 4;
    return component(extra, next_extra++);
  };
  uint32_t dref = 0;
  if (s.shadow) {
    const uint32_t at = std::max<uint32_t>(used, 2);
    if (at < 4) {
      dref = component(c, at);
      used = at + 1;
    } else {
      dref = from_extra();
    }
  }
  uint32_t lod = c_scalar(DataType::F32, 0.0, 0, true);
  if (inst.op == AsmOp::TXB || inst.op == AsmOp::TXL) {
    if (used < 4) {
      lod = component(c, 3);
      used = 4;
    } else {
      lod = from_extra();
    }
  }
  if (inst.lod_clamp && !min_lod) lod = ext(GLSLstd450FMax, t_float(32), {lod, from_extra()});
  const uint32_t sampled = b_.op(Op::OpLoad, v.sampled_type, {v.var});
  uint32_t coords = pick(c, 0, s.coords);
  const bool rect = s.dim == TexDim::Rect;
  uint32_t image = rect ? b_.op(Op::OpImage, v.image_type, {sampled}) : 0;
  if (rect) coords = rect_scale(image, coords);
  std::vector<uint32_t> operands = {sampled, coords};
  if (dref) operands.push_back(dref);
  uint32_t mask = inst.op == AsmOp::TXD ? kGrad : kLod;
  if (t.has_offset) mask |= kConstOffset;
  if (min_lod) mask |= kMinLod;
  operands.push_back(mask);
  uint32_t min_lod_value = 0;
  if (inst.op == AsmOp::TXD) {
    const uint32_t n = level_coords(s);
    uint32_t dx = pick(load_operand(inst.sources[1], DataType::F32), 0, n);
    const Val dy_operand = load_operand(inst.sources[2], DataType::F32);
    uint32_t dy = pick(dy_operand, 0, n);
    if (min_lod) {
      need(spv::Capability::MinLod);
      min_lod_value = component(dy_operand, 3);
    }
    if (rect) {
      dx = rect_scale(image, dx);
      dy = rect_scale(image, dy);
    }
    operands.push_back(dx);
    operands.push_back(dy);
  } else {
    operands.push_back(lod);
  }
  if (t.has_offset) operands.push_back(offset_constant(t, level_coords(s)));
  if (min_lod) operands.push_back(min_lod_value);  // image operands in mask-bit order: MinLod after ConstOffset
  const uint32_t texel_type = s.shadow ? t_float(32) : vec_type(rt);
  Val result;
  if (inst.sparse) {
    need(spv::Capability::SparseResidency);
    uses_sparse_ = true;
    const uint32_t st = b_.global(Op::OpTypeStruct, {t_i32(), texel_type}, false);
    const uint32_t r =
        b_.op(s.shadow ? Op::OpImageSparseSampleDrefExplicitLod : Op::OpImageSparseSampleExplicitLod, st, operands);
    result = sparse_result(r, texel_type, rt, s.shadow);
  } else {
    const uint32_t r =
        b_.op(s.shadow ? Op::OpImageSampleDrefExplicitLod : Op::OpImageSampleExplicitLod, texel_type, operands);
    result = texel_result(r, rt, s.shadow);
  }
  write_dest(inst, result);
  write_residency(inst);
  return true;
}

// An immediate texel offset as a constant integer scalar or vector.
uint32_t Codegen::offset_constant(const TextureAccess& t, uint32_t n) {
  if (n == 1) return c_i32(t.offset[0]);
  std::vector<uint32_t> ops = {t_vec(t_i32(), n)};
  for (uint32_t i = 0; i < n; ++i) ops.push_back(c_i32(t.offset[i]));
  return b_.global(Op::OpConstantComposite, ops, true);
}

// TXF (level of detail in .w; none for BUFFER) and TXFMS (sample in .w): integer texel coordinates.
bool Codegen::fetch(const Instruction& inst) {
  const TextureAccess& t = *inst.texture;
  const TargetShape s = target_shape(t.target);
  const TextureVar& v = texture_var(t, inst.type);
  const Val c = load_operand(inst.sources[0], DataType::S32);
  const uint32_t image = texture_image(v);
  uint32_t coords = pick(c, 0, s.coords);
  if (t.register_offset) {
    // texelFetchOffset's rule: the offset is added to the level's texel coordinates (not to the layer).
    const Val o = load_operand(inst.sources.back(), DataType::S32);
    const uint32_t n = level_coords(s);
    std::vector<uint32_t> parts;
    for (uint32_t i = 0; i < s.coords; ++i) parts.push_back(i < n ? component(o, i) : c_i32(0));
    const uint32_t type = s.coords == 1 ? t_i32() : t_vec(t_i32(), s.coords);
    const uint32_t offset = s.coords == 1 ? parts[0] : b_.op(Op::OpCompositeConstruct, type, parts);
    coords = b_.op(Op::OpIAdd, type, {coords, offset});
  }
  std::vector<uint32_t> operands = {image, coords};
  uint32_t mask = 0;
  if (s.dim != TexDim::Buffer && !s.multisample) mask |= kLod;
  if (t.has_offset) mask |= kConstOffset;
  if (s.multisample) mask |= kSample;
  if (mask) operands.push_back(mask);
  if (mask & kLod) operands.push_back(component(c, 3));
  if (t.has_offset) operands.push_back(offset_constant(t, level_coords(s)));
  if (mask & kSample) operands.push_back(component(c, 3));
  const uint32_t texel_type = vec_type(inst.type);
  Val result;
  if (inst.sparse) {
    need(spv::Capability::SparseResidency);
    uses_sparse_ = true;
    const uint32_t st = b_.global(Op::OpTypeStruct, {t_i32(), texel_type}, false);
    result = sparse_result(b_.op(Op::OpImageSparseFetch, st, operands), texel_type, inst.type, false);
  } else {
    result = {b_.op(Op::OpImageFetch, texel_type, operands), inst.type};
  }
  write_dest(inst, result);
  write_residency(inst);
  return true;
}

// TXG (ARB_texture_gather / NV_gpu_program5): the selected component of the four texels of the bilinear
// footprint, or their comparisons for SHADOW targets. TXGO: each texel i from the footprint at its own offset
// (operand 1 holds the four x offsets, operand 2 the four y offsets): four gathers with a register Offset
// (ImageGatherExtended), texel i of gather i.
bool Codegen::gather(const Instruction& inst) {
  const TextureAccess& t = *inst.texture;
  const TargetShape s = target_shape(t.target);
  const DataType rt = s.shadow ? DataType::F32 : inst.type;
  const TextureVar& v = texture_var(t, rt);
  const Val c = load_operand(inst.sources[0], DataType::F32);
  const size_t fixed = inst.op == AsmOp::TXGO ? 3 : 1;
  uint32_t dref = 0;
  if (s.shadow) {
    // A SHADOW gather's compare value: z after two coordinates, w after three, else the extra operand's x.
    const uint32_t at = std::max<uint32_t>(s.coords, 2);
    dref = at < 4 ? component(c, at) : component(load_operand(inst.sources[fixed], DataType::F32), 0);
  }
  const uint32_t texel_type = vec_type(rt);
  const uint32_t st = inst.sparse ? b_.global(Op::OpTypeStruct, {t_i32(), texel_type}, false) : 0;
  if (inst.sparse) {
    need(spv::Capability::SparseResidency);
    uses_sparse_ = true;
  }
  auto one_gather = [&](uint32_t mask, uint32_t offset) {
    const uint32_t sampled = b_.op(Op::OpLoad, v.sampled_type, {v.var});
    uint32_t coords = pick(c, 0, s.coords);
    if (s.dim == TexDim::Rect) coords = rect_scale(b_.op(Op::OpImage, v.image_type, {sampled}), coords);
    std::vector<uint32_t> operands = {sampled, coords, dref ? dref : c_u32(t.gather_component)};
    if (mask) {
      operands.push_back(mask);
      operands.push_back(offset);
    }
    Op op = dref ? Op::OpImageDrefGather : Op::OpImageGather;
    if (inst.sparse) op = dref ? Op::OpImageSparseDrefGather : Op::OpImageSparseGather;
    return b_.op(op, inst.sparse ? st : texel_type, operands);
  };
  Val result;
  if (inst.op == AsmOp::TXG) {
    uint32_t mask = 0, offset = 0;
    if (t.has_offset) {
      mask = kConstOffset;
      offset = offset_constant(t, 2);
    } else if (t.register_offset) {
      need(spv::Capability::ImageGatherExtended);
      mask = kOffset;
      offset = pick(load_operand(inst.sources.back(), DataType::S32), 0, 2);
    }
    const uint32_t r = one_gather(mask, offset);
    result = inst.sparse ? sparse_result(r, texel_type, rt, false) : Val{r, rt};
  } else {
    need(spv::Capability::ImageGatherExtended);
    const Val ox = load_operand(inst.sources[1], DataType::S32);
    const Val oy = load_operand(inst.sources[2], DataType::S32);
    std::array<uint32_t, 4> texels{};
    uint32_t all_resident = 0;
    for (uint32_t i = 0; i < 4; ++i) {
      const uint32_t offset = b_.op(Op::OpCompositeConstruct, t_vec(t_i32(), 2), {component(ox, i), component(oy, i)});
      uint32_t r = one_gather(kOffset, offset);
      if (inst.sparse) {
        const Val texel = sparse_result(r, texel_type, rt, false);
        all_resident = i == 0 ? residency_ : b_.op(Op::OpLogicalAnd, t_bool(), {all_resident, residency_});
        r = texel.id;
      }
      texels[i] = b_.op(Op::OpCompositeExtract, scalar_type(rt), {r, i});
    }
    residency_ = all_resident;
    result = {b_.op(Op::OpCompositeConstruct, texel_type, {texels[0], texels[1], texels[2], texels[3]}), rt};
  }
  write_dest(inst, result);
  write_residency(inst);
  return true;
}

// TXQ: the size of the level operand.x (integer), width, height and depth or layers in x, y, z, the rest 0.
// LOD: GL's level-of-detail query needs implicit derivatives, which compute programs do not have; with GL's
// non-fragment rule (implicit level of detail 0) the level accessed and the computed level of detail are both 0.
bool Codegen::query(const Instruction& inst) {
  const TextureAccess& t = *inst.texture;
  const TargetShape s = target_shape(t.target);
  if (inst.op == AsmOp::LOD) {
    (void)texture_var(t, s.shadow ? DataType::F32 : inst.type);
    write_dest(inst, {c_splat(inst.type, 0.0, 0), inst.type});
    return true;
  }
  DataType var_type = DataType::F32;
  for (const TextureBinding& b : info_.textures) {
    if (b.unit == t.unit && !b.types.empty()) {
      var_type = b.types[0] == SampledType::Int    ? DataType::S32
                 : b.types[0] == SampledType::Uint ? DataType::U32
                                                   : DataType::F32;
    }
  }
  if (s.shadow) var_type = DataType::F32;
  const TextureVar& v = texture_var(t, var_type);
  need(spv::Capability::ImageQuery);
  const uint32_t image = texture_image(v);
  uint32_t n = s.dim == TexDim::Cube ? 2 : level_coords(s);
  if (s.array) ++n;
  const uint32_t size_type = n == 1 ? t_i32() : t_vec(t_i32(), n);
  uint32_t size = 0;
  if (s.dim == TexDim::Buffer || s.multisample) {
    size = b_.op(Op::OpImageQuerySize, size_type, {image});
  } else {
    const uint32_t lod = component(load_operand(inst.sources[0], DataType::S32), 0);
    size = b_.op(Op::OpImageQuerySizeLod, size_type, {image, lod});
  }
  std::array<uint32_t, 4> parts{};
  for (uint32_t i = 0; i < 4; ++i) {
    if (i >= n)
      parts[i] = c_i32(0);
    else
      parts[i] = n == 1 ? size : b_.op(Op::OpCompositeExtract, t_i32(), {size, i});
  }
  write_dest(inst, {b_.op(Op::OpCompositeConstruct, vec_type(DataType::S32), {parts[0], parts[1], parts[2], parts[3]}),
                    DataType::S32});
  return true;
}

}  // namespace bismuth::nvasm::detail
