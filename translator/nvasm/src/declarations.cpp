// Declaration statements. Each checks its sizes and indices against the bounds below, so nothing the program
// declares can make the translation allocate without limit.
#include "declarations.hpp"

#include <algorithm>
#include <map>

#include "bismuth/nvasm/assembler.hpp"
#include "opcode_table.hpp"

namespace bismuth::nvasm::detail {
namespace {

constexpr uint32_t kMaxArray = 4096;
// TEMP registers of one invocation together, arrays included: 512 KiB, the local memory an NVIDIA thread may use
// (a LONG TEMP element takes 32 bytes, any other 16). Vulkan sets no bound on Private memory; this one keeps every
// input's translation and the device's scratch allocation bounded.
constexpr uint64_t kMaxTempBytes = 512 * 1024;
constexpr uint32_t kMaxTempArray = kMaxTempBytes / 16;
constexpr uint32_t kMaxParamIndex = 4095;
constexpr uint32_t kMaxGroupSize = 65535;
constexpr uint32_t kMaxSharedMemory = 1u << 24;
constexpr uint32_t kMaxStorageIndex = 1023;
constexpr uint32_t kMaxBufferIndex = kMaxParameterBuffers - 1;

}  // namespace

bool DeclarationParser::option() {
  next();
  std::string_view name;
  const size_t at = peek().offset;
  if (!expect_ident(name, "an option name")) return false;
  if (!known_options().count(name)) return error(at, "unknown option '" + std::string(name) + "'");
  if (seen_declaration_) return error(at, "OPTION must come before declarations and instructions");
  out_.options.emplace_back(name);
  if (name == "ARB_compute_variable_group_size") out_.variable_group_size = true;
  return end_statement();
}

bool DeclarationParser::group_size() {
  const size_t at = next().offset;
  seen_declaration_ = true;
  if (out_.variable_group_size) {
    return error(at, "GROUP_SIZE is not allowed with OPTION ARB_compute_variable_group_size");
  }
  if (out_.group_size) return error(at, "GROUP_SIZE is already declared");
  std::array<uint32_t, 3> size{1, 1, 1};
  for (int i = 0; i < 3; ++i) {
    if (i > 0 && is_punct(';')) break;
    uint64_t v = 0;
    const size_t vat = peek().offset;
    if (!expect_uint(v, "a group size")) return false;
    if (v == 0 || v > kMaxGroupSize) return error(vat, "invalid group size " + std::to_string(v));
    size[i] = static_cast<uint32_t>(v);
  }
  out_.group_size = size;
  return end_statement();
}

bool DeclarationParser::shared_memory() {
  const size_t at = next().offset;
  seen_declaration_ = true;
  if (out_.has_shared_memory_decl) return error(at, "SHARED_MEMORY is already declared");
  uint64_t v = 0;
  const size_t vat = peek().offset;
  if (!expect_uint(v, "a size in bytes")) return false;
  if (v > kMaxSharedMemory) return error(vat, "SHARED_MEMORY size " + std::to_string(v) + " is too large");
  out_.shared_memory = static_cast<uint32_t>(v);
  out_.has_shared_memory_decl = true;
  return end_statement();
}

bool DeclarationParser::declare(std::string_view name, size_t at, Symbol symbol) {
  seen_declaration_ = true;
  if (symbols_.count(std::string(name))) return error(at, "'" + std::string(name) + "' is already declared");
  if (name == "program" || name == "invocation" || name == "state") {
    return error(at, "'" + std::string(name) + "' is a reserved name");
  }
  symbols_.emplace(std::string(name), symbol);
  return true;
}

bool DeclarationParser::optional_array_size(bool& is_array, uint32_t& size, bool& sized, uint32_t max_size) {
  is_array = false;
  sized = false;
  size = 0;
  if (!accept('[')) return true;
  is_array = true;
  if (peek().kind == Tok::Int) {
    const size_t at = peek().offset;
    const uint64_t v = next().int_value;
    if (v == 0 || v > (max_size ? max_size : kMaxArray)) return error(at, "invalid array size " + std::to_string(v));
    size = static_cast<uint32_t>(v);
    sized = true;
  }
  return expect(']');
}

// The second `[]` / `[n]` of a two-dimensional STORAGE or CBUFFER declaration.
bool DeclarationParser::second_dimension(bool& present, uint32_t max_size) {
  bool sized = false;
  uint32_t size = 0;
  if (!optional_array_size(present, size, sized, max_size)) return false;
  return true;
}

bool DeclarationParser::modified_declaration() {
  bool is_long = false, is_short = false;
  VarType type = VarType::Any;
  while (peek().kind == Tok::Ident) {
    const Token& t = peek();
    const std::string_view w = t.text;
    if (w == "LONG" || w == "SHORT") {
      if (is_long || is_short) return error(t.offset, "more than one size modifier (SHORT, LONG)");
      (w == "LONG" ? is_long : is_short) = true;
    } else if (w == "INT" || w == "UINT" || w == "FLOAT") {
      if (type != VarType::Any) return error(t.offset, "more than one type modifier (INT, UINT, FLOAT)");
      type = w == "INT" ? VarType::Int : w == "UINT" ? VarType::UInt : VarType::Float;
    } else {
      break;
    }
    next();
  }
  const Token& t = peek();
  const bool temp = t.kind == Tok::Ident && t.text == "TEMP";
  const bool param = t.kind == Tok::Ident && t.text == "PARAM";
  if (!temp && !param) {
    return error(t.offset, "unexpected " + describe(t) + ", expected TEMP or PARAM after variable modifiers");
  }
  // NV_gpu_program5: "The LONG modifier is supported only for declarations of temporary variables ... The SHORT
  // modifier is supported only for declarations of temporary variables and result variables".
  if (param && (is_long || is_short)) return error(t.offset, "SHORT and LONG apply to TEMP declarations");
  short_modifier_ = is_short;
  var_type_ = type;
  integer_constants_ = param && (type == VarType::Int || type == VarType::UInt);
  const bool ok = temp ? temp_decl(is_long, 1) : param_decl();
  short_modifier_ = false;
  var_type_ = VarType::Any;
  integer_constants_ = false;
  return ok;
}

bool DeclarationParser::temp_decl(bool is_long, int words) {
  for (int i = 0; i < words; ++i) next();
  while (true) {
    std::string_view name;
    const size_t at = peek().offset;
    if (!expect_ident(name, "a variable name")) return false;
    bool is_array = false, sized = false;
    uint32_t size = 0;
    if (!optional_array_size(is_array, size, sized, kMaxTempArray)) return false;
    if (is_array && !sized) return error(at, "TEMP array '" + std::string(name) + "' needs a size");
    if (out_.temps.size() >= kMaxArray) return error(at, "too many TEMP variables");
    temp_bytes_ += uint64_t(is_array ? size : 1) * (is_long ? 32 : 16);
    if (temp_bytes_ > kMaxTempBytes) {
      return error(at, "TEMP registers take " + std::to_string(temp_bytes_) + " bytes per invocation, more than " +
                           std::to_string(kMaxTempBytes) + " (512 KiB, the local memory of an NVIDIA thread)");
    }
    if (!declare(name, at, {Symbol::Kind::Temp, static_cast<uint32_t>(out_.temps.size())})) return false;
    out_.temps.push_back(Temp{std::string(name), is_long, is_array ? size : 0, short_modifier_, var_type_});
    if (!accept(',')) break;
  }
  return end_statement();
}

// A constant: optional sign, then an integer or a float.
bool DeclarationParser::literal(Literal& lit) {
  bool negative = false;
  if (accept('-')) negative = true;
  else accept('+');
  const Token& t = peek();
  if (t.kind == Tok::Int) {
    next();
    lit.is_float = false;
    lit.i = static_cast<int64_t>(t.int_value);
    if (negative) lit.i = static_cast<int64_t>(0 - t.int_value);
    lit.f = negative ? -static_cast<double>(t.int_value) : static_cast<double>(t.int_value);
    return true;
  }
  if (t.kind == Tok::Float) {
    if (integer_constants_) return error(t.offset, "invalid integer constant (an INT or UINT PARAM takes integers)");
    next();
    lit.is_float = true;
    lit.f = negative ? -t.float_value : t.float_value;
    lit.i = 0;
    return true;
  }
  return error(t.offset, "unexpected " + describe(t) + ", expected a constant");
}

// { a, b, c, d } with the ARB fill rules: missing y and z are 0, a missing w is 1.
bool DeclarationParser::constant_vector(std::array<Literal, 4>& v) {
  if (!expect('{')) return false;
  int n = 0;
  while (true) {
    if (n == 4) return error(peek().offset, "a constant vector has at most four components");
    if (!literal(v[n])) return false;
    ++n;
    if (accept('}')) break;
    if (!expect(',', "',' or '}'")) return false;
  }
  for (int i = n; i < 4; ++i) {
    v[i] = Literal{};
    if (i == 3) {
      v[i].f = 1.0;
      v[i].i = 1;
    }
  }
  return true;
}

// program.local[a], program.local[a..b], program.env[...], {vector}, or a scalar constant (replicated).
bool DeclarationParser::param_item(std::vector<ParamElement>& elements) {
  const Token& t = peek();
  if (is_punct('{')) {
    ParamElement e;
    if (!constant_vector(e.values)) return false;
    elements.push_back(e);
    return true;
  }
  if (t.kind == Tok::Int || t.kind == Tok::Float || is_punct('-') || is_punct('+')) {
    ParamElement e;
    Literal lit;
    if (!literal(lit)) return false;
    e.values = {lit, lit, lit, lit};
    elements.push_back(e);
    return true;
  }
  if (t.kind == Tok::Ident && t.text == "program") {
    next();
    if (!expect('.')) return false;
    std::string_view which;
    const size_t wat = peek().offset;
    if (!expect_ident(which, "local, env or storagelen")) return false;
    ParamElement::Kind kind;
    if (which == "local") kind = ParamElement::Kind::Local;
    else if (which == "env") kind = ParamElement::Kind::Env;
    else if (which == "storagelen") kind = ParamElement::Kind::StorageLen;
    else return error(wat, "invalid parameter binding 'program." + std::string(which) + "'");
    if (!expect('[')) return false;
    uint64_t first = 0, last = 0;
    const size_t iat = peek().offset;
    if (!expect_uint(first, "a parameter index")) return false;
    last = first;
    if (peek().kind == Tok::DotDot) {
      next();
      if (!expect_uint(last, "a parameter index")) return false;
    }
    const uint64_t max_index = kind == ParamElement::Kind::StorageLen ? kMaxStorageIndex : kMaxParamIndex;
    if (last < first || last > max_index) return error(iat, "invalid parameter index range");
    if (!expect(']')) return false;
    for (uint64_t i = first; i <= last; ++i) {
      ParamElement e;
      e.kind = kind;
      e.index = static_cast<uint32_t>(i);
      elements.push_back(e);
      note_param_index(kind, e.index);
      if (kind == ParamElement::Kind::StorageLen) out_.storage_lengths.push_back(e.index);
    }
    return true;
  }
  if (t.kind == Tok::Ident && t.text == "state") {
    // NV_shader_thread_group's state.thread.* values are program parameters: PARAM ws = state.thread.warpsize;
    ParamElement e;
    e.kind = ParamElement::Kind::State;
    if (!builtin_binding(e.builtin)) return false;
    elements.push_back(e);
    return true;
  }
  return error(t.offset, "unexpected " + describe(t) + ", expected a parameter binding");
}

void DeclarationParser::note_param_index(ParamElement::Kind kind, uint32_t index) {
  if (kind == ParamElement::Kind::Local) {
    out_.uses_local = true;
    out_.local_count = std::max(out_.local_count, index + 1);
  } else if (kind == ParamElement::Kind::Env) {
    out_.uses_env = true;
    out_.env_count = std::max(out_.env_count, index + 1);
  }
}

bool DeclarationParser::param_decl() {
  next();
  std::string_view name;
  const size_t at = peek().offset;
  if (!expect_ident(name, "a parameter name")) return false;
  bool is_array = false, sized = false;
  uint32_t size = 0;
  if (!optional_array_size(is_array, size, sized)) return false;
  if (!expect('=')) return false;
  Param p;
  p.name = std::string(name);
  p.is_array = is_array;
  p.var_type = var_type_;
  if (is_array) {
    if (!expect('{')) return false;
    while (true) {
      if (!param_item(p.elements)) return false;
      if (p.elements.size() > kMaxArray) return error(at, "PARAM array '" + p.name + "' is too large");
      if (accept('}')) break;
      if (!expect(',', "',' or '}'")) return false;
    }
    if (sized && p.elements.size() != size) {
      return error(at, "PARAM array '" + p.name + "' declares " + std::to_string(size) + " elements but binds " +
                           std::to_string(p.elements.size()));
    }
  } else {
    if (!param_item(p.elements)) return false;
    if (p.elements.size() != 1) return error(at, "PARAM '" + p.name + "' binds more than one vector; declare an array");
  }
  if (!declare(name, at, {Symbol::Kind::Param, static_cast<uint32_t>(out_.params.size())})) return false;
  out_.params.push_back(std::move(p));
  return end_statement();
}

bool DeclarationParser::storage_item(std::vector<uint32_t>& list) {
  const size_t at = peek().offset;
  std::string_view word;
  if (!expect_ident(word, "program.storage")) return false;
  if (word != "program") return error(at, "unexpected '" + std::string(word) + "', expected program.storage");
  if (!expect('.')) return false;
  const size_t wat = peek().offset;
  if (!expect_ident(word, "storage")) return false;
  if (word != "storage") return error(wat, "invalid storage binding 'program." + std::string(word) + "'");
  if (!expect('[')) return false;
  uint64_t first = 0, last = 0;
  const size_t iat = peek().offset;
  if (!expect_uint(first, "a storage buffer index")) return false;
  last = first;
  if (peek().kind == Tok::DotDot) {
    next();
    if (!expect_uint(last, "a storage buffer index")) return false;
  }
  if (last < first || last > kMaxStorageIndex) return error(iat, "invalid storage buffer index range");
  for (uint64_t i = first; i <= last; ++i) list.push_back(static_cast<uint32_t>(i));
  return expect(']');
}

bool DeclarationParser::storage_decl() {
  next();
  std::string_view name;
  const size_t at = peek().offset;
  if (!expect_ident(name, "a storage buffer name")) return false;
  bool is_array = false, sized = false;
  uint32_t size = 0;
  if (!optional_array_size(is_array, size, sized)) return false;
  StorageDecl decl;
  decl.name = std::string(name);
  // NVIDIA's GLSL compiler writes `STORAGE s[][] = { program.storage[a..b] };`: the first index picks the buffer,
  // the second is the byte address (the same access as `s[]` over several buffers).
  if (is_array && !second_dimension(decl.two_dimensional, 0x40000000u)) return false;
  if (!expect('=')) return false;
  if (accept('{')) {
    while (true) {
      if (!storage_item(decl.program_storage)) return false;
      if (accept('}')) break;
      if (!expect(',', "',' or '}'")) return false;
    }
  } else if (!storage_item(decl.program_storage)) {
    return false;
  }
  if (sized && decl.program_storage.size() != size) {
    return error(at, "STORAGE array '" + decl.name + "' declares " + std::to_string(size) + " buffers but binds " +
                         std::to_string(decl.program_storage.size()));
  }
  if (!declare(name, at, {Symbol::Kind::Storage, static_cast<uint32_t>(out_.storages.size())})) return false;
  out_.storages.push_back(std::move(decl));
  return end_statement();
}

// program.buffer[a], program.buffer[a..b] (CBUFFER arrays), program.buffer[a][b] or program.buffer[a][b..c]
// (BUFFER / BUFFER4 element ranges).
bool DeclarationParser::buffer_item(BufferDecl& decl, bool& ranged) {
  const size_t at = peek().offset;
  std::string_view word;
  if (!expect_ident(word, "program.buffer")) return false;
  if (word != "program") return error(at, "unexpected '" + std::string(word) + "', expected program.buffer");
  if (!expect('.')) return false;
  const size_t wat = peek().offset;
  if (!expect_ident(word, "buffer")) return false;
  if (word != "buffer") return error(wat, "invalid buffer binding 'program." + std::string(word) + "'");
  if (!expect('[')) return false;
  uint64_t first = 0, last = 0;
  const size_t iat = peek().offset;
  if (!expect_uint(first, "a parameter buffer index")) return false;
  last = first;
  if (peek().kind == Tok::DotDot) {
    next();
    if (!expect_uint(last, "a parameter buffer index")) return false;
  }
  if (last < first || last > kMaxBufferIndex) {
    return error(iat, "invalid parameter buffer index range (program.buffer[0.." + std::to_string(kMaxBufferIndex) +
                          "])");
  }
  if (!expect(']')) return false;
  if (is_punct('[')) {
    const size_t eat = peek().offset;
    if (decl.kind == BufferDecl::Kind::Bytes || last != first) {
      return error(eat, "an element range is for BUFFER and BUFFER4 variables of one program.buffer binding");
    }
    next();
    uint64_t e0 = 0, e1 = 0;
    const size_t rat = peek().offset;
    if (!expect_uint(e0, "an element index")) return false;
    e1 = e0;
    if (peek().kind == Tok::DotDot) {
      next();
      if (!expect_uint(e1, "an element index")) return false;
    }
    // The largest window any device gets; codegen clamps into the device's own (parameter_buffer_window).
    const uint64_t limit = kMaxParameterBufferBytes / (decl.kind == BufferDecl::Kind::Words ? 4 : 16);
    if (e1 < e0 || e1 >= limit) {
      return error(rat, "invalid element range (a parameter buffer has " + std::to_string(limit) + " " +
                            (decl.kind == BufferDecl::Kind::Words ? "words" : "vectors") + ")");
    }
    if (!expect(']')) return false;
    decl.first = static_cast<uint32_t>(e0);
    decl.count = static_cast<uint32_t>(e1 - e0 + 1);
    ranged = true;
  }
  for (uint64_t i = first; i <= last; ++i) decl.program_buffer.push_back(static_cast<uint32_t>(i));
  return true;
}

bool DeclarationParser::buffer_decl(BufferDecl::Kind kind) {
  const std::string_view keyword = next().text;
  std::string_view name;
  const size_t at = peek().offset;
  if (!expect_ident(name, "a buffer variable name")) return false;
  bool is_array = false, sized = false;
  uint32_t size = 0;
  // Up to the words of the largest parameter buffer window (BUFFER w[16384]: NVIDIA's 64 KiB).
  if (!optional_array_size(is_array, size, sized, kMaxParameterBufferBytes / 4)) return false;
  BufferDecl decl;
  decl.kind = kind;
  decl.name = std::string(name);
  decl.is_array = is_array;
  // NV_gpu_program5's <BUFFER_statement> takes two <optArraySize>s: `CBUFFER c[][] = { program.buffer[0..3] };`,
  // accessed c[buffer][address]. A second size (bytes) is accepted; the parameter buffer window bounds the access.
  const size_t second_at = peek().offset;
  if (is_array && !second_dimension(decl.two_dimensional, kMaxParameterBufferBytes)) return false;
  if (decl.two_dimensional && kind != BufferDecl::Kind::Bytes) {
    return error(second_at, std::string(keyword) +
                                " arrays over several program.buffer bindings are not supported; declare a CBUFFER and "
                                "read it with LDC");
  }
  if (!expect('=')) return false;
  bool ranged = false;
  if (accept('{')) {
    while (true) {
      if (!buffer_item(decl, ranged)) return false;
      if (accept('}')) break;
      if (!expect(',', "',' or '}'")) return false;
    }
  } else if (!buffer_item(decl, ranged)) {
    return false;
  }
  if (kind == BufferDecl::Kind::Bytes) {
    if (sized && decl.program_buffer.size() != size) {
      return error(at, "CBUFFER array '" + decl.name + "' declares " + std::to_string(size) + " buffers but binds " +
                           std::to_string(decl.program_buffer.size()));
    }
  } else {
    if (decl.program_buffer.size() != 1) {
      return error(at, std::string(keyword) + " '" + decl.name + "' must bind one program.buffer binding");
    }
    if (!is_array && !(ranged && decl.count == 1)) {
      // NV_parameter_buffer_object: a single element, program.buffer[a][b], may be a plain variable; a whole
      // buffer or a range of elements needs an array.
      return error(at, std::string(keyword) + " '" + decl.name + "' binds more than one element; declare an array ('" +
                           decl.name + "[]')");
    }
    if (!ranged) decl.count = kMaxParameterBufferBytes / (kind == BufferDecl::Kind::Words ? 4 : 16);
    if (sized && ranged && decl.count != size) {
      return error(at, std::string(keyword) + " array '" + decl.name + "' declares " + std::to_string(size) +
                           " elements but binds " + std::to_string(decl.count));
    }
    if (sized && !ranged) decl.count = std::min(decl.count, size);
  }
  if (!declare(name, at, {Symbol::Kind::Buffer, static_cast<uint32_t>(out_.buffers.size())})) return false;
  out_.buffers.push_back(std::move(decl));
  return end_statement();
}

// texture[a] or texture[a..b] (image[...] for IMAGE), each unit below GL's unit count.
bool DeclarationParser::unit_item(std::vector<uint32_t>& units, bool image) {
  const char* word = image ? "image" : "texture";
  const size_t at = peek().offset;
  std::string_view found;
  if (!expect_ident(found, image ? "image[n]" : "texture[n]")) return false;
  if (found != word) return error(at, "unexpected '" + std::string(found) + "', expected " + word + "[n]");
  if (!expect('[')) return false;
  uint64_t first = 0, last = 0;
  const size_t iat = peek().offset;
  if (!expect_uint(first, image ? "an image unit" : "a texture unit")) return false;
  last = first;
  if (peek().kind == Tok::DotDot) {
    next();
    if (!expect_uint(last, image ? "an image unit" : "a texture unit")) return false;
  }
  const uint32_t limit = image ? kMaxImageUnits : kMaxTextureUnits;
  if (last < first || last >= limit) {
    return error(iat, std::string("invalid ") + (image ? "image" : "texture") + " unit range (" + word + "[0.." +
                          std::to_string(limit - 1) + "])");
  }
  for (uint64_t i = first; i <= last; ++i) units.push_back(static_cast<uint32_t>(i));
  return expect(']');
}

// TEXTURE t = texture[n]; TEXTURE t[] = { texture[a..b], texture[c] }; IMAGE the same with image[n].
bool DeclarationParser::texture_decl(bool image) {
  next();
  std::string_view name;
  const size_t at = peek().offset;
  if (!expect_ident(name, image ? "an image name" : "a texture name")) return false;
  TextureDecl decl;
  decl.name = std::string(name);
  decl.image = image;
  bool sized = false;
  uint32_t size = 0;
  if (!optional_array_size(decl.is_array, size, sized)) return false;
  if (!expect('=')) return false;
  if (accept('{')) {
    while (true) {
      if (!unit_item(decl.units, image)) return false;
      if (accept('}')) break;
      if (!expect(',', "',' or '}'")) return false;
    }
  } else if (!unit_item(decl.units, image)) {
    return false;
  }
  const char* keyword = image ? "IMAGE" : "TEXTURE";
  if (!decl.is_array && decl.units.size() != 1) {
    return error(at, std::string(keyword) + " '" + decl.name + "' binds more than one unit; declare an array");
  }
  if (sized && decl.units.size() != size) {
    return error(at, std::string(keyword) + " array '" + decl.name + "' declares " + std::to_string(size) +
                         " units but binds " + std::to_string(decl.units.size()));
  }
  if (!declare(name, at, {Symbol::Kind::Texture, static_cast<uint32_t>(out_.textures.size())})) return false;
  out_.textures.push_back(std::move(decl));
  return end_statement();
}

bool DeclarationParser::shared_decl() {
  next();
  std::string_view name;
  const size_t at = peek().offset;
  if (!expect_ident(name, "a shared memory name")) return false;
  bool is_array = false, sized = false;
  uint32_t size = 0;
  if (!optional_array_size(is_array, size, sized, kMaxSharedMemory)) return false;
  if (!expect('=')) return false;
  const bool braces = accept('{');
  const size_t wat = peek().offset;
  std::string_view word;
  if (!expect_ident(word, "program.sharedmem")) return false;
  if (word != "program") return error(wat, "unexpected '" + std::string(word) + "', expected program.sharedmem");
  if (!expect('.')) return false;
  const size_t sat = peek().offset;
  if (!expect_ident(word, "sharedmem")) return false;
  if (word != "sharedmem") return error(sat, "invalid shared memory binding 'program." + std::string(word) + "'");
  SharedDecl decl;
  decl.name = std::string(name);
  decl.is_array = is_array;
  decl.binding_offset = wat;
  bool ranged = false, single = false;
  if (accept('[')) {
    // program.sharedmem[a] / program.sharedmem[a..b]: byte offsets into shared memory (as NVIDIA's driver reads
    // them; they must lie below SHARED_MEMORY, checked once the program is read).
    uint64_t first = 0, last = 0;
    const size_t iat = peek().offset;
    if (!expect_uint(first, "a shared memory offset")) return false;
    last = first;
    if (peek().kind == Tok::DotDot) {
      next();
      if (!expect_uint(last, "a shared memory offset")) return false;
      ranged = true;
    } else {
      single = true;
    }
    if (last < first || last >= kMaxSharedMemory) return error(iat, "invalid shared memory offset range");
    if (!expect(']')) return false;
    decl.base = static_cast<uint32_t>(first);
    // [a] is the one byte a (NVIDIA's driver: a constant address past it is out of bounds); [a..b] bytes a..b.
    decl.last = static_cast<uint32_t>(last);
  }
  if (!is_array && !single) {
    // NVIDIA's driver: "shared memory range not supported for non-array variables". The whole memory as a plain
    // variable stays accepted (read s[address]), as before.
    if (ranged) return error(at, "SHARED '" + decl.name + "' binds a range; declare an array ('" + decl.name + "[]')");
    decl.is_array = true;
  }
  if (sized && ranged && uint64_t(decl.last) - decl.base + 1 != size) {
    return error(at, "SHARED array '" + decl.name + "' declares " + std::to_string(size) + " bytes but binds " +
                         std::to_string(uint64_t(decl.last) - decl.base + 1));
  }
  if (braces && !expect('}')) return false;
  if (!declare(name, at, {Symbol::Kind::Shared, static_cast<uint32_t>(out_.shareds.size())})) return false;
  out_.shareds.push_back(std::move(decl));
  if (!first_shared_decl_) first_shared_decl_ = at;
  return end_statement();
}

bool DeclarationParser::builtin_binding(Builtin& b) {
  const size_t at = peek().offset;
  std::string_view word;
  if (!expect_ident(word, "a binding")) return false;
  if (word == "invocation") {
    if (!expect('.')) return false;
    const size_t nat = peek().offset;
    if (!expect_ident(word, "an invocation attribute")) return false;
    static const std::map<std::string_view, Builtin> names = {
        {"localid", Builtin::LocalId},         {"globalid", Builtin::GlobalId},
        {"groupid", Builtin::GroupId},         {"groupcount", Builtin::GroupCount},
        {"groupsize", Builtin::GroupSize},     {"localindex", Builtin::LocalIndex},
        {"threadid", Builtin::ThreadId},       {"threadeqmask", Builtin::ThreadEqMask},
        {"threadgemask", Builtin::ThreadGeMask}, {"threadgtmask", Builtin::ThreadGtMask},
        {"threadlemask", Builtin::ThreadLeMask}, {"threadltmask", Builtin::ThreadLtMask},
        {"warpid", Builtin::WarpId},           {"smid", Builtin::SmId}};
    auto it = names.find(word);
    if (it == names.end()) return error(nat, "unknown invocation attribute 'invocation." + std::string(word) + "'");
    b = it->second;
    if (is_thread_group_builtin(b)) note_thread_group(at);
    return true;
  }
  if (word == "state") {
    // NV_shader_thread_group: state.thread.warpsize, state.thread.warpspersm, state.thread.smcount
    if (!expect('.')) return false;
    const size_t nat = peek().offset;
    if (!expect_ident(word, "thread")) return false;
    if (word != "thread") return error(nat, "unknown state binding 'state." + std::string(word) + "'");
    if (!expect('.')) return false;
    const size_t wat = peek().offset;
    if (!expect_ident(word, "warpsize")) return false;
    if (word == "warpsize") {
      b = Builtin::WarpSize;
      note_thread_group(at);
    } else if (word == "warpspersm") {
      b = Builtin::WarpsPerSm;
    } else if (word == "smcount") {
      b = Builtin::SmCount;
    } else {
      return error(wat, "unknown state binding 'state.thread." + std::string(word) + "'");
    }
    return true;
  }
  return error(at, "unexpected '" + std::string(word) + "', expected an invocation binding");
}

bool DeclarationParser::attrib_decl() {
  next();
  std::string_view name;
  const size_t at = peek().offset;
  if (!expect_ident(name, "an attribute name")) return false;
  if (!expect('=')) return false;
  Symbol s{Symbol::Kind::Builtin, 0, Builtin::LocalId};
  if (!builtin_binding(s.builtin)) return false;
  if (!declare(name, at, s)) return false;
  return end_statement();
}

bool DeclarationParser::alias_decl() {
  next();
  std::string_view name, target;
  const size_t at = peek().offset;
  if (!expect_ident(name, "an alias name")) return false;
  if (!expect('=')) return false;
  const size_t tat = peek().offset;
  if (!expect_ident(target, "a variable name")) return false;
  auto it = symbols_.find(std::string(target));
  if (it == symbols_.end()) return error(tat, "undefined variable '" + std::string(target) + "'");
  const Symbol s = it->second;
  if (!declare(name, at, s)) return false;
  return end_statement();
}

}  // namespace bismuth::nvasm::detail
