// Image loads, stores and atomics (EXT_shader_image_load_store's LOADIM, STOREIM, ATOMIM on image[n]). Each
// (image unit, register type, format) is a storage image variable on the unit's binding (a storage texel buffer
// for BUFFER targets). Without an image format modifier the image's format is the unit's (Unknown in SPIR-V):
// reads need shaderStorageImageReadWithoutFormat (EXT_shader_image_load_formatted), writes
// shaderStorageImageWriteWithoutFormat. Atomics name R32UI / R32I, as Vulkan requires of OpImageTexelPointer.
// Coordinates are integers: x, y, z as the target has them (a CUBE image's face and an ARRAYCUBE image's
// layer * 6 + face in z), and the sample of 2DMS and ARRAY2DMS targets in w.
#include "codegen.hpp"
#include "opcode_table.hpp"
#include "program_info.hpp"

namespace bismuth::nvasm::detail {
namespace {

constexpr uint32_t kSample = 0x40;

spv::ImageFormat spirv_format(ImageFormat f) {
  using I = ImageFormat;
  using S = spv::ImageFormat;
  switch (f) {
    case I::Unknown: return S::Unknown;
    case I::RGBA32F: return S::Rgba32f;
    case I::RGBA16F: return S::Rgba16f;
    case I::RG32F: return S::Rg32f;
    case I::RG16F: return S::Rg16f;
    case I::R11FG11FB10F: return S::R11fG11fB10f;
    case I::R32F: return S::R32f;
    case I::R16F: return S::R16f;
    case I::RGBA32UI: return S::Rgba32ui;
    case I::RGBA16UI: return S::Rgba16ui;
    case I::RGB10A2UI: return S::Rgb10a2ui;
    case I::RGBA8UI: return S::Rgba8ui;
    case I::RG32UI: return S::Rg32ui;
    case I::RG16UI: return S::Rg16ui;
    case I::RG8UI: return S::Rg8ui;
    case I::R32UI: return S::R32ui;
    case I::R16UI: return S::R16ui;
    case I::R8UI: return S::R8ui;
    case I::RGBA32I: return S::Rgba32i;
    case I::RGBA16I: return S::Rgba16i;
    case I::RGBA8I: return S::Rgba8i;
    case I::RG32I: return S::Rg32i;
    case I::RG16I: return S::Rg16i;
    case I::RG8I: return S::Rg8i;
    case I::R32I: return S::R32i;
    case I::R16I: return S::R16i;
    case I::R8I: return S::R8i;
    case I::RGBA16: return S::Rgba16;
    case I::RGB10A2: return S::Rgb10A2;
    case I::RGBA8: return S::Rgba8;
    case I::RG16: return S::Rg16;
    case I::RG8: return S::Rg8;
    case I::R16: return S::R16;
    case I::R8: return S::R8;
    case I::RGBA16_SNORM: return S::Rgba16Snorm;
    case I::RGBA8_SNORM: return S::Rgba8Snorm;
    case I::RG16_SNORM: return S::Rg16Snorm;
    case I::RG8_SNORM: return S::Rg8Snorm;
    case I::R16_SNORM: return S::R16Snorm;
    case I::R8_SNORM: return S::R8Snorm;
  }
  return S::Unknown;
}

// The formats every Vulkan device can use for storage images (the Shader capability's); the others need the
// StorageImageExtendedFormats capability (shaderStorageImageExtendedFormats).
bool core_storage_format(ImageFormat f) {
  using I = ImageFormat;
  switch (f) {
    case I::Unknown:
    case I::RGBA32F:
    case I::RGBA16F:
    case I::R32F:
    case I::RGBA8:
    case I::RGBA8_SNORM:
    case I::RGBA32I:
    case I::RGBA16I:
    case I::RGBA8I:
    case I::R32I:
    case I::RGBA32UI:
    case I::RGBA16UI:
    case I::RGBA8UI:
    case I::R32UI: return true;
    default: return false;
  }
}

}  // namespace

const Codegen::TextureVar& Codegen::image_var(const TextureAccess& t, DataType type, ImageFormat format) {
  auto [it, inserted] = texture_vars_.try_emplace({true, t.unit, type, format});
  if (!inserted) return it->second;
  const TargetShape s = target_shape(t.target);
  uint32_t dim = static_cast<uint32_t>(spv::Dim::Dim2D);
  switch (s.dim) {
    case TexDim::D1:
      dim = static_cast<uint32_t>(spv::Dim::Dim1D);
      need(spv::Capability::Image1D);
      break;
    case TexDim::D3: dim = static_cast<uint32_t>(spv::Dim::Dim3D); break;
    case TexDim::Cube: dim = static_cast<uint32_t>(spv::Dim::Cube); break;
    case TexDim::Buffer:
      dim = static_cast<uint32_t>(spv::Dim::Buffer);
      need(spv::Capability::ImageBuffer);
      break;
    default: break;
  }
  if (s.dim == TexDim::Cube && s.array) need(spv::Capability::ImageCubeArray);
  if (s.multisample) need(spv::Capability::StorageImageMultisample);
  if (s.multisample && s.array) need(spv::Capability::ImageMSArray);
  if (!core_storage_format(format)) {
    need(spv::Capability::StorageImageExtendedFormats);
    uses_image_extended_formats_ = true;
  }
  TextureVar& v = it->second;
  v.image_type = b_.global(Op::OpTypeImage,
                           {scalar_type(type), dim, 0, s.array ? 1u : 0u, s.multisample ? 1u : 0u, 2,
                            static_cast<uint32_t>(spirv_format(format))},
                           false);
  v.var = variable(t_ptr(spv::StorageClass::UniformConstant, v.image_type), spv::StorageClass::UniformConstant);
  decorate(v.var, spv::Decoration::DescriptorSet, {0});
  decorate(v.var, spv::Decoration::Binding, {image_binding(options_, t.unit)});
  return v;
}

// LOADIM (a storage modifier of one, two or four components, spread over x..w as LDB's are; .SPARSE), STOREIM
// (the missing components of a narrower modifier are 0, 0, 1 as the ARB fill rules give), ATOMIM.
bool Codegen::image(const Instruction& inst) {
  const TextureAccess& t = *inst.texture;
  const TargetShape s = target_shape(t.target);
  const uint32_t coord_count = s.dim == TexDim::Cube ? 3 : s.coords;
  const Val c = load_operand(inst.sources[inst.op == AsmOp::LOADIM ? 0 : 1], DataType::S32);
  const uint32_t coords = pick(c, 0, coord_count);
  const uint32_t sample = s.multisample ? component(c, 3) : 0;
  const StorageFormat f = inst.format;
  if (inst.op == AsmOp::ATOMIM) {
    const ImageFormat format = inst.type == DataType::S32   ? ImageFormat::R32I
                               : inst.type == DataType::F32 ? ImageFormat::R32F
                                                            : ImageFormat::R32UI;
    return image_atomic(inst, image_var(t, inst.type, format), coords, sample);
  }
  if (t.format == ImageFormat::Unknown) {
    const bool read = inst.op == AsmOp::LOADIM;
    if (read ? !options_.storage_image_read_without_format : !options_.storage_image_write_without_format) {
      return fail(inst, std::string(read ? "LOADIM" : "STOREIM") +
                            " without an image format modifier (the image "
                            "unit's format) needs the device's " +
                            (read ? "shaderStorageImageReadWithoutFormat" : "shaderStorageImageWriteWithoutFormat") +
                            " feature; name the format (LOADIM.F32X4.RGBA8)");
    }
    need(read ? spv::Capability::StorageImageReadWithoutFormat : spv::Capability::StorageImageWriteWithoutFormat);
  }
  const TextureVar& v = image_var(t, inst.type, t.format);
  const uint32_t image = b_.op(Op::OpLoad, v.image_type, {v.var});
  std::vector<uint32_t> tail;
  if (s.multisample) tail = {kSample, sample};
  const uint32_t texel_type = vec_type(inst.type);
  if (inst.op == AsmOp::STOREIM) {
    const Val value = narrow_texel(load_operand(inst.sources[0], inst.type), f);
    uint32_t texel = value.id;
    if (f.count < 4) {
      std::array<uint32_t, 4> parts{};
      for (uint32_t i = 0; i < 4; ++i) {
        if (i < f.count)
          parts[i] = component(value, i);
        else
          parts[i] = c_scalar(inst.type, i == 3 ? 1.0 : 0.0, i == 3 ? 1 : 0, false);
      }
      texel = b_.op(Op::OpCompositeConstruct, texel_type, {parts[0], parts[1], parts[2], parts[3]});
    }
    std::vector<uint32_t> operands = {image, coords, texel};
    operands.insert(operands.end(), tail.begin(), tail.end());
    SpirvBuilder::put(b_.body, Op::OpImageWrite, operands);
    return true;
  }
  if (inst.sparse && !options_.sparse_residency) {
    return fail(inst, ".SPARSE (EXT_sparse_texture2) needs the device's shaderResourceResidency feature");
  }
  std::vector<uint32_t> operands = {image, coords};
  operands.insert(operands.end(), tail.begin(), tail.end());
  Val texel;
  if (inst.sparse) {
    need(spv::Capability::SparseResidency);
    uses_sparse_ = true;
    const uint32_t st = b_.global(Op::OpTypeStruct, {t_i32(), texel_type}, false);
    texel = sparse_result(b_.op(Op::OpImageSparseRead, st, operands), texel_type, inst.type, false);
  } else {
    texel = {b_.op(Op::OpImageRead, texel_type, operands), inst.type};
  }
  texel = narrow_texel(texel, f);
  if (f.count < 4) {
    std::array<uint32_t, 4> parts{};
    for (uint32_t i = 0; i < 4; ++i) parts[i] = component(texel, f.count == 1 ? 0 : i % f.count);
    texel = {b_.op(Op::OpCompositeConstruct, texel_type, {parts[0], parts[1], parts[2], parts[3]}), inst.type};
  }
  write_dest(inst, texel);
  write_residency(inst);
  return true;
}

// NV_gpu_program5_mem_extended's packed and F16 modifiers on LOADIM / STOREIM: each component as the modifier's
// element holds it, as STB stores and LDB loads it (U8/U16: the low 8/16 bits; S8/S16: those bits sign-extended;
// F16: rounded to a half, to nearest even). The texel format they imply holds exactly these values, so a store
// never leaves the format's range (where Vulkan's conversion is undefined) and a load from that format is
// unchanged; a wider format named beside the modifier is cut to the modifier's elements.
Val Codegen::narrow_texel(Val texel, const StorageFormat& f) {
  if (f.bits >= 32) return texel;
  if (f.half) return {from_half_bits(half_bits(texel.id)), DataType::F32};
  const bool sign = f.type == DataType::S32;
  std::array<uint32_t, 4> parts{};
  for (uint32_t i = 0; i < 4; ++i) {
    const uint32_t c = component(texel, i);
    parts[i] = b_.op(sign ? Op::OpBitFieldSExtract : Op::OpBitFieldUExtract, sign ? t_i32() : t_u32(),
                     {c, c_u32(0), c_u32(f.bits)});
  }
  return {b_.op(Op::OpCompositeConstruct, vec_type(texel.type), {parts[0], parts[1], parts[2], parts[3]}), texel.type};
}

// ATOMIM: the atomic on the texel (its first component), the old value replicated; CSWAP compares with operand .x
// and stores .y, as ATOMB does.
bool Codegen::image_atomic(const Instruction& inst, const TextureVar& v, uint32_t coords, uint32_t sample) {
  if (inst.type == DataType::F32) return image_float_atomic(inst, v, coords, sample);
  const bool sign = inst.type == DataType::S32;
  const uint32_t word = sign ? t_i32() : t_u32();
  const uint32_t ptr = b_.op(Op::OpImageTexelPointer, t_ptr(spv::StorageClass::Image, word),
                             {v.var, coords, sample ? sample : c_i32(0)});
  const Val operand = load_operand(inst.sources[0], inst.type);
  const uint32_t a = component(operand, 0);
  const uint32_t desired = inst.atomic == AtomicOp::CSwap ? component(operand, 1) : 0;
  const uint32_t old = atomic_word(inst.atomic, sign, ptr, c_u32(kScopeDevice), word, a, desired);
  write_dest(inst, splat_scalar(old, inst.type));
  return true;
}

// NV_shader_atomic_float's ATOMIM.ADD.F32 / .EXCH.F32 on an R32F image: float atomics on the texel pointer, which
// Vulkan allows with shaderImageFloat32AtomicAdd / shaderImageFloat32Atomics (no integer view of a float image to
// loop on: the view's format must be the image variable's).
bool Codegen::image_float_atomic(const Instruction& inst, const TextureVar& v, uint32_t coords, uint32_t sample) {
  const bool add = inst.atomic == AtomicOp::Add;
  if (add ? !options_.image_float32_atomic_add : !options_.image_float32_atomics) {
    return fail(inst, std::string("ATOMIM.") + (add ? "ADD" : "EXCH") + ".F32 needs the device's " +
                          (add ? "shaderImageFloat32AtomicAdd" : "shaderImageFloat32Atomics") +
                          " feature (VK_EXT_shader_atomic_float)");
  }
  (add ? uses_image_float_add_ : uses_image_float_atomics_) = true;
  const uint32_t f32 = t_float(32);
  const uint32_t ptr =
      b_.op(Op::OpImageTexelPointer, t_ptr(spv::StorageClass::Image, f32), {v.var, coords, sample ? sample : c_i32(0)});
  const uint32_t x = component(load_operand(inst.sources[0], DataType::F32), 0);
  const uint32_t scope = c_u32(kScopeDevice);
  const uint32_t old =
      add ? float_atomic_add(ptr, scope, f32, x) : b_.op(Op::OpAtomicExchange, f32, {ptr, scope, c_u32(0), x});
  write_dest(inst, splat_scalar(old, DataType::F32));
  return true;
}

}  // namespace bismuth::nvasm::detail
