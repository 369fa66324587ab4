// Texture and image instructions (NV_gpu_program4/5, NV_texture_multisample, EXT_shader_image_load_store's
// assembly forms, EXT_sparse_texture2, ARB_sparse_texture_clamp):
//   TEX.F R0, R1, texture[0], 2D;              TXD.F R0, R1, R2, R3, texture[1], ARRAY2D, (1, -1);
//   TXL.F R0, R1, R2, texture[2], ARRAYCUBE;   TXG.F R0, R1, texture[0].y, 2D;   TXQ R0, R1, texture[0], 2D;
//   LOADIM.U32X4 R0, R1, image[0], 2D;         STOREIM.F image[1], R0, R1, ARRAY2D;
//   ATOMIM.ADD.U32 R0, R2, R1, image[2], 2D;
// The coordinate operand holds the coordinates, the compare value of a SHADOW target (z, or w after three
// coordinates) and the level of detail (TXL) or bias (TXB) in w, as far as its four components go; what does not
// fit is the next operand, in that order, followed by the .LODCLAMP minimum. A texture unit (image unit) is used with
// one target only.
#include <algorithm>

#include "bismuth/nvasm/assembler.hpp"
#include "instructions.hpp"

namespace bismuth::nvasm::detail {
namespace {

bool is_shadow_target(TexTarget t) {
  return target_shape(t).shadow;
}

// The values the coordinate operand cannot hold and that the operand after it carries (0: no such operand). As
// in NV_gpu_program4 (and ARB_fragment_program before it), the compare value of a SHADOW target is the third
// component when the coordinates take at most two, else the fourth; TXB's bias and TXL's level of detail are the
// fourth component when it is free.
uint32_t extra_values(Op op, const TargetShape& s, bool lod_clamp) {
  uint32_t used = s.coords;
  uint32_t extra = 0;
  if (s.shadow && op != Op::TXQ && op != Op::TXF && op != Op::LOD) {
    const uint32_t at = std::max<uint32_t>(used, 2);
    if (at < 4)
      used = at + 1;
    else
      ++extra;
  }
  if (op == Op::TXB || op == Op::TXL) {
    if (used < 4 && extra == 0)
      used = 4;
    else
      ++extra;
  }
  if (lod_clamp && op != Op::TXD) ++extra;
  return extra;
}

// The targets each instruction takes; nullptr when the target is allowed.
const char* target_rule(Op op, TexTarget t) {
  const TargetShape s = target_shape(t);
  const bool buffer = s.dim == TexDim::Buffer;
  switch (op) {
    case Op::TEX:
    case Op::TXB:
    case Op::TXL:
    case Op::TXD:
      if (buffer || s.multisample) return "takes no BUFFER or multisample target (use TXF / TXFMS)";
      if (op == Op::TXD && t == TexTarget::SHADOWARRAYCUBE) return "takes no SHADOWARRAYCUBE target";
      return nullptr;
    case Op::TXF:
      if (s.shadow || s.dim == TexDim::Cube) return "takes no SHADOW or CUBE target";
      if (s.multisample) return "takes no multisample target (use TXFMS)";
      return nullptr;
    case Op::TXFMS: return s.multisample ? nullptr : "takes a 2DMS or ARRAY2DMS target";
    case Op::TXG:
      if (s.dim == TexDim::D2 || s.dim == TexDim::Rect || s.dim == TexDim::Cube) {
        return s.multisample ? "takes a 2D, RECT or CUBE target (or its ARRAY and SHADOW forms)" : nullptr;
      }
      return "takes a 2D, RECT or CUBE target (or its ARRAY and SHADOW forms)";
    case Op::TXGO:
      if ((s.dim == TexDim::D2 || s.dim == TexDim::Rect) && !s.multisample) return nullptr;
      return "takes a 2D or RECT target (or its ARRAY and SHADOW forms)";
    case Op::LOD:
      if (buffer || s.multisample || s.dim == TexDim::Rect) return "takes no BUFFER, RECT or multisample target";
      return nullptr;
    case Op::LOADIM:
    case Op::STOREIM:
    case Op::ATOMIM: return s.shadow ? "takes no SHADOW target" : nullptr;
    default: return nullptr;
  }
}

// Components of an immediate texel offset: one per coordinate of the level, none for cube, buffer and multisample
// targets.
uint32_t offset_components(const TargetShape& s) {
  switch (s.dim) {
    case TexDim::D1: return 1;
    case TexDim::D2: return s.multisample ? 0 : 2;
    case TexDim::Rect: return 2;
    case TexDim::D3: return 3;
    default: return 0;
  }
}

}  // namespace

bool InstructionParser::starts_texture_ref(bool image) {
  const Token& t = peek();
  if (t.kind != Tok::Ident) return false;
  auto it = symbols_.find(std::string(t.text));
  if (it != symbols_.end()) {
    return it->second.kind == Symbol::Kind::Texture;  // texture_ref says when it is the wrong kind
  }
  return t.text == (image ? "image" : "texture");
}

// texture[n], a TEXTURE variable (t, t[k], t[R0.x + k]); image[n] and IMAGE variables for images.
bool InstructionParser::texture_ref(TextureAccess& t, bool image) {
  const size_t at = peek().offset;
  t.position = at;
  t.image = image;
  std::string_view name;
  if (!expect_ident(name, image ? "image[n]" : "texture[n]")) return false;
  auto it = symbols_.find(std::string(name));
  const char* kind = image ? "image" : "texture";
  if (it == symbols_.end()) {
    if (name != kind) return error(at, "unexpected '" + std::string(name) + "', expected " + kind + "[n]");
    if (!expect('[')) return false;
    const size_t uat = peek().offset;
    if (peek().kind != Tok::Int) {
      return error(uat, std::string("index ") + kind + " units with a register through an array declared with " +
                            (image ? "IMAGE" : "TEXTURE"));
    }
    const uint64_t unit = next().int_value;
    const uint32_t limit = image ? kMaxImageUnits : kMaxTextureUnits;
    if (unit >= limit) {
      return error(uat, std::string(kind) + " unit " + std::to_string(unit) + " is out of range (" + kind + "[0.." +
                            std::to_string(limit - 1) + "])");
    }
    t.unit = static_cast<uint32_t>(unit);
    return expect(']');
  }
  if (it->second.kind != Symbol::Kind::Texture || out_.textures[it->second.id].image != image) {
    return error(at, "'" + std::string(name) + "' is not " + (image ? "an IMAGE" : "a TEXTURE") + " declaration");
  }
  const TextureDecl& decl = out_.textures[it->second.id];
  t.unit = decl.units[0];
  if (!decl.is_array) return true;
  if (!expect('[')) return false;
  const size_t kat = peek().offset;
  if (peek().kind == Tok::Int) {
    const uint64_t k = next().int_value;
    if (k >= decl.units.size()) return error(kat, "index out of bounds for '" + decl.name + "'");
    t.unit = decl.units[k];
    return expect(']');
  }
  t.dynamic = true;
  t.units = decl.units;
  if (!index_register(t.temp, t.component)) return false;
  if (is_punct('+') || is_punct('-')) {
    const bool minus = next().punct == '-';
    const size_t oat = peek().offset;
    uint64_t v = 0;
    if (!expect_uint(v, "an index offset")) return false;
    if (v >= decl.units.size()) return error(oat, "index offset out of bounds for '" + decl.name + "'");
    // A negative offset wraps; the emitted index is clamped into the array either way.
    t.element = minus ? 0u - static_cast<uint32_t>(v) : static_cast<uint32_t>(v);
  }
  return expect(']');
}

// The target: an identifier, or a number followed directly by one (1D, 2D, 3D, 2DMS: the lexer reads a number).
bool InstructionParser::target_name(TextureAccess& t, bool image) {
  const Token& first = peek();
  const size_t at = first.offset;
  t.target_position = at;
  std::string name;
  if (first.kind == Tok::Int) {
    const std::string_view digits = first.text;
    next();
    const Token& rest = peek();
    if (rest.kind != Tok::Ident || rest.text.data() != digits.data() + digits.size()) {
      return error(at, "unexpected '" + std::string(digits) + "', expected a texture target (1D, 2D, ...)");
    }
    name = std::string(digits) + std::string(rest.text);
    next();
  } else {
    std::string_view word;
    if (!expect_ident(word, "a texture target (1D, 2D, ...)")) return false;
    name = std::string(word);
  }
  const auto target = texture_target(name);
  if (!target) return error(at, "unknown texture target '" + name + "'");
  if (image && is_shadow_target(*target)) return error(at, "image target '" + name + "' cannot be a SHADOW target");
  t.target = *target;
  return true;
}

// An immediate texel offset after the target: `(x)`, `(x, y)` or `(x, y, z)`, one component per coordinate of
// the level, each in [-8, 7] (GL's MIN/MAX_PROGRAM_TEXEL_OFFSET and Vulkan's guaranteed minTexelOffset /
// maxTexelOffset).
bool InstructionParser::texel_offset(TextureAccess& t, const Instruction& inst, Operand& reg) {
  const size_t at = peek().offset;
  const uint32_t want = offset_components(target_shape(t.target));
  const bool allowed = want != 0 && inst.op != Op::TXGO && inst.op != Op::TXQ && inst.op != Op::LOD && !t.image;
  if (peek().kind == Tok::Ident && peek().text == "offset") {
    // NV_gpu_program5's programmable offsets, `offset(R0)` (the integer offset in the register's first
    // components): TXF adds them to its texel coordinates, TXG passes them to the gather (ImageGatherExtended).
    // Vulkan takes a register offset on no other lookup.
    if (!allowed) return error(at, "this instruction and target take no texel offset");
    if (inst.op != Op::TXF && inst.op != Op::TXG) {
      return error(at,
                   "register texel offsets (offset(R0)) are supported on TXF and TXG (Vulkan takes a "
                   "non-constant offset on no other lookup); write an immediate offset (1, 2)");
    }
    next();
    if (!expect('(') || !operand(reg) || !expect(')')) return false;
    t.register_offset = true;
    return true;
  }
  if (!is_punct('(')) return error(at, "unexpected " + describe(peek()) + ", expected a texel offset '('");
  if (!allowed) return error(at, "this instruction and target take no texel offset");
  next();
  uint32_t n = 0;
  while (true) {
    Literal lit;
    const size_t vat = peek().offset;
    if (!literal(lit)) return false;
    if (lit.is_float || lit.i < -8 || lit.i > 7) return error(vat, "texel offsets are integers in [-8, 7]");
    if (n == 3) return error(vat, "a texel offset has at most three components");
    t.offset[n++] = static_cast<int32_t>(lit.i);
    if (accept(')')) break;
    if (!expect(',', "',' or ')'")) return false;
  }
  if (n != want) {
    return error(at,
                 "this target takes a texel offset of " + std::to_string(want) + " component" + (want == 1 ? "" : "s"));
  }
  t.has_offset = true;
  return true;
}

// One target per texture unit (image unit) in a program: NV_fragment_program's rule, kept by NV_gpu_program4.
bool InstructionParser::check_texture_use(const Instruction& inst) {
  const TextureAccess& t = *inst.texture;
  auto& uses = t.image ? image_units_ : texture_units_;
  const std::vector<uint32_t> units = t.dynamic ? t.units : std::vector<uint32_t>{t.unit};
  for (uint32_t unit : units) {
    auto [it, inserted] = uses.emplace(unit, UnitUse{t.target, t.target_position});
    if (!inserted && it->second.target != t.target) {
      return error(t.target_position, std::string(t.image ? "image" : "texture") + " unit " + std::to_string(unit) +
                                          " is already used with another target; a program uses each unit with one "
                                          "target");
    }
  }
  return true;
}

bool InstructionParser::texture_instruction(const OpcodeInfo& info, Instruction& inst) {
  if (!dest(inst.dest)) return false;
  inst.has_dest = true;
  if (!expect(',')) return false;
  while (!starts_texture_ref(false)) {
    if (inst.sources.size() == 5) return error(peek().offset, "too many operands, expected texture[n]");
    Operand o;
    if (!operand(o)) return false;
    inst.sources.push_back(o);
    if (!expect(',')) return false;
  }
  TextureAccess t;
  if (!texture_ref(t, false)) return false;
  if (is_punct('.')) {
    const size_t cat = peek(1).offset;
    next();
    std::array<uint8_t, 4> swz{};
    uint8_t count = 0;
    if (!swizzle(swz, &count, false, nullptr)) return false;
    if (count != 1 || (inst.op != Op::TXG && inst.op != Op::TXGO)) {
      return error(cat, "only TXG and TXGO select a component of the texture (texture[n].x .. .w)");
    }
    t.gather_component = swz[0];
  }
  if (!expect(',')) return false;
  if (!target_name(t, false)) return false;
  if (const char* rule = target_rule(inst.op, t.target)) {
    return error(t.target_position, std::string(info.name) + " " + rule);
  }
  Operand register_offset;
  if (accept(',') && !texel_offset(t, inst, register_offset)) return false;
  const TargetShape shape = target_shape(t.target);
  if (inst.op == Op::TXG && shape.shadow && t.gather_component != 0) {
    return error(t.position, "a SHADOW gather compares the first component; select none or .x");
  }
  const uint32_t extra = extra_values(inst.op, shape, inst.lod_clamp);
  if (inst.op == Op::TXD && extra != 0) return error(t.target_position, "TXD takes no SHADOWARRAYCUBE target");
  if (extra > 4) return error(t.target_position, "too many values for one extra operand");
  const size_t want = info.sources + (extra ? 1 : 0);
  if (inst.sources.size() != want) {
    return error(inst.offset, std::string(info.name) + " with this target takes " + std::to_string(want) + " operand" +
                                  (want == 1 ? "" : "s") + " before the texture");
  }
  if (t.register_offset) inst.sources.push_back(register_offset);  // last, after the counted operands
  inst.texture = t;
  return check_texture_use(inst);
}

bool InstructionParser::image_instruction(const OpcodeInfo& info, Instruction& inst) {
  TextureAccess t;
  if (inst.texture) t.format = inst.texture->format;
  auto read_operand = [&]() {
    Operand o;
    if (!operand(o)) return false;
    inst.sources.push_back(o);
    return expect(',');
  };
  if (info.form == OperandForm::ImageStore) {
    if (!texture_ref(t, true) || !expect(',')) return false;
    if (!read_operand() || !read_operand()) return false;  // data, coordinate
  } else {
    if (!dest(inst.dest)) return false;
    inst.has_dest = true;
    if (!expect(',')) return false;
    if (info.form == OperandForm::ImageAtomic && !read_operand()) return false;  // the atomic's operand
    if (!read_operand()) return false;                                           // coordinate
    if (!texture_ref(t, true) || !expect(',')) return false;
  }
  if (!target_name(t, true)) return false;
  if (const char* rule = target_rule(inst.op, t.target)) {
    return error(t.target_position, std::string(info.name) + " " + rule);
  }
  if (inst.op == Op::ATOMIM) {
    const bool int32 = inst.format.count == 1 && inst.format.bits == 32 && !is_float(inst.format.type);
    // NV_shader_atomic_float: F32 with ADD and EXCH on R32F images (check_memory_modifiers allowed no other float
    // operation). 64-bit image atomics: GL image units have no 64-bit format, and NV_shader_atomic_int64's atomics
    // are on buffer and shared memory.
    const bool f32 = inst.format.count == 1 && inst.format.bits == 32 && inst.format.type == DataType::F32;
    if (!int32 && !f32) {
      return error(inst.offset, "ATOMIM takes U32 or S32, or F32 with ADD or EXCH (NV_shader_atomic_float)");
    }
  } else if (inst.format.bits == 64) {
    return error(inst.offset, std::string(info.name) + " takes 32-bit storage modifiers (F32, U32X4, ...)");
  }
  if (inst.op != Op::ATOMIM && inst.format.bits < 32) {
    // NV_gpu_program5_mem_extended's packed and F16 modifiers name the texel's layout in memory ("8-bit unsigned
    // integer vectors", "16-bit floating-point scalars/vectors", ...): without a format modifier the texel has the
    // matching format (U8X4: RGBA8UI, F16X2: RG16F, S16: R16I, ...).
    if (t.format == ImageFormat::Unknown) t.format = packed_image_format(inst.format);
  }
  if (t.format != ImageFormat::Unknown) {
    // EXT_shader_image_load_store: an image unit's texels convert to floats, unsigned or signed integers by format.
    if (image_format_type(t.format) != inst.type) {
      return error(inst.offset, std::string(info.name) +
                                    ": the image format's data type (float, UI or I) and the "
                                    "storage modifier's type differ");
    }
    if (inst.op == Op::ATOMIM && t.format != ImageFormat::R32UI && t.format != ImageFormat::R32I &&
        t.format != ImageFormat::R32F) {
      return error(inst.offset, "ATOMIM needs an R32UI, R32I or R32F image");
    }
  }
  inst.texture = t;
  return check_texture_use(inst);
}

}  // namespace bismuth::nvasm::detail
