// Lexer and parser for !!NVcp5.0 programs. Every load error is a Failure with the byte offset it points at; the
// parser never throws, never recurses on input structure, and bounds every size it allocates from the input.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>

#include "ast.hpp"
#include "bismuth/nvasm/assembler.hpp"

namespace bismuth::nvasm::detail {
namespace {

enum class Tok : uint8_t { End, Ident, Int, Float, Punct, DotDot };

struct Token {
  Tok kind = Tok::End;
  std::string_view text;
  size_t offset = 0;
  uint64_t int_value = 0;
  double float_value = 0.0;
  char punct = 0;
};

constexpr uint32_t kMaxArray = 4096;
constexpr uint32_t kMaxParamIndex = 4095;
constexpr uint32_t kMaxGroupSize = 65535;
constexpr uint32_t kMaxSharedMemory = 1u << 24;
constexpr uint32_t kMaxStorageIndex = 1023;
constexpr uint32_t kMaxBufferIndex = kMaxParameterBuffers - 1;
// Deeper nesting than any real program keeps SPIRV-Tools' structured-CFG analyses far from deep recursion.
constexpr size_t kMaxNesting = 64;
constexpr size_t kMaxInstructions = size_t{1} << 17;

bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }

class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}

  // Lexes everything after the header; false with a failure on a bad character or number.
  bool run(size_t start, std::vector<Token>& out, Failure& failure) {
    size_t i = start;
    out.reserve(s_.size() / 3 + 16);
    while (true) {
      while (i < s_.size()) {
        const char c = s_[i];
        if (c == '#') {
          while (i < s_.size() && s_[i] != '\n') ++i;
        } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
          ++i;
        } else {
          break;
        }
      }
      Token t;
      t.offset = i;
      if (i >= s_.size()) {
        t.kind = Tok::End;
        out.push_back(t);
        return true;
      }
      const char c = s_[i];
      if (is_ident_start(c)) {
        size_t j = i;
        while (j < s_.size() && is_ident_char(s_[j])) ++j;
        t.kind = Tok::Ident;
        t.text = s_.substr(i, j - i);
        i = j;
      } else if (is_digit(c)) {
        if (!number(i, t, failure)) return false;
      } else if (c == '.' && i + 1 < s_.size() && s_[i + 1] == '.') {
        t.kind = Tok::DotDot;
        t.text = s_.substr(i, 2);
        i += 2;
      } else if (std::string_view(";,.[]{}()|-+=:").find(c) != std::string_view::npos) {
        t.kind = Tok::Punct;
        t.punct = c;
        t.text = s_.substr(i, 1);
        ++i;
      } else {
        failure = {i, std::string("unexpected character '") + printable(c) + "'"};
        return false;
      }
      out.push_back(t);
      if (out.size() > (1u << 22)) {
        failure = {t.offset, "program too long"};
        return false;
      }
    }
  }

  static std::string printable(char c) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f) return std::string(1, c);
    static const char* hex = "0123456789abcdef";
    return std::string("\\x") + hex[u >> 4] + hex[u & 15];
  }

 private:
  bool number(size_t& i, Token& t, Failure& failure) {
    const size_t start = i;
    if (s_[i] == '0' && i + 1 < s_.size() && (s_[i + 1] == 'x' || s_[i + 1] == 'X')) {
      size_t j = i + 2;
      uint64_t v = 0;
      size_t digits = 0;
      while (j < s_.size() && std::isxdigit(static_cast<unsigned char>(s_[j]))) {
        const char c = s_[j];
        const uint64_t d = is_digit(c) ? uint64_t(c - '0') : uint64_t((c | 0x20) - 'a' + 10);
        if (v >> 60) {
          failure = {start, "integer constant out of range"};
          return false;
        }
        v = v * 16 + d;
        ++j;
        ++digits;
      }
      if (digits == 0) {
        failure = {start, "malformed hexadecimal constant"};
        return false;
      }
      t.kind = Tok::Int;
      t.int_value = v;
      t.text = s_.substr(start, j - start);
      i = j;
      return true;
    }
    size_t j = i;
    while (j < s_.size() && is_digit(s_[j])) ++j;
    bool is_float = false;
    if (j < s_.size() && s_[j] == '.' && !(j + 1 < s_.size() && s_[j + 1] == '.')) {
      is_float = true;
      ++j;
      while (j < s_.size() && is_digit(s_[j])) ++j;
    }
    if (j < s_.size() && (s_[j] == 'e' || s_[j] == 'E')) {
      size_t k = j + 1;
      if (k < s_.size() && (s_[k] == '+' || s_[k] == '-')) ++k;
      if (k < s_.size() && is_digit(s_[k])) {
        is_float = true;
        while (k < s_.size() && is_digit(s_[k])) ++k;
        j = k;
      }
    }
    t.text = s_.substr(start, j - start);
    if (is_float) {
      const std::string copy(t.text);
      t.kind = Tok::Float;
      t.float_value = std::strtod(copy.c_str(), nullptr);
    } else {
      uint64_t v = 0;
      for (size_t k = start; k < j; ++k) {
        const uint64_t d = uint64_t(s_[k] - '0');
        if (v > (UINT64_MAX - d) / 10) {
          failure = {start, "integer constant out of range"};
          return false;
        }
        v = v * 10 + d;
      }
      t.kind = Tok::Int;
      t.int_value = v;
    }
    i = j;
    return true;
  }

  std::string_view s_;
};

struct OpInfo {
  Op op;
  enum Class : uint8_t { AnyType, FloatOnly, IntOnly, Convert, Round, Memory, Flow, Barrier, ThreadGroup } cls;
  uint8_t sources;  // operand count (register operands, not counting a memory reference)
  bool scalar;      // scalar instruction: operands read .x of their swizzle, result replicated
};

const std::unordered_map<std::string_view, OpInfo>& opcode_table() {
  using C = OpInfo;
  static const std::unordered_map<std::string_view, OpInfo> table = {
      {"ABS", {Op::ABS, C::AnyType, 1, false}},    {"ADD", {Op::ADD, C::AnyType, 2, false}},
      {"AND", {Op::AND, C::IntOnly, 2, false}},    {"BFE", {Op::BFE, C::IntOnly, 2, false}},
      {"BFI", {Op::BFI, C::IntOnly, 3, false}},    {"BFR", {Op::BFR, C::IntOnly, 1, false}},
      {"BTC", {Op::BTC, C::IntOnly, 1, false}},    {"BTFL", {Op::BTFL, C::IntOnly, 1, false}},
      {"BTFM", {Op::BTFM, C::IntOnly, 1, false}},  {"CEIL", {Op::CEIL, C::Round, 1, false}},
      {"CMP", {Op::CMP, C::AnyType, 3, false}},    {"COS", {Op::COS, C::FloatOnly, 1, true}},
      {"CVT", {Op::CVT, C::Convert, 1, false}},    {"DIV", {Op::DIV, C::AnyType, 2, false}},
      {"DP2", {Op::DP2, C::FloatOnly, 2, false}},  {"DP3", {Op::DP3, C::FloatOnly, 2, false}},
      {"DP4", {Op::DP4, C::FloatOnly, 2, false}},  {"EX2", {Op::EX2, C::FloatOnly, 1, true}},
      {"FLR", {Op::FLR, C::Round, 1, false}},      {"FRC", {Op::FRC, C::FloatOnly, 1, false}},
      {"I2F", {Op::I2F, C::IntOnly, 1, false}},    {"LG2", {Op::LG2, C::FloatOnly, 1, true}},
      {"MAD", {Op::MAD, C::AnyType, 3, false}},    {"MAX", {Op::MAX, C::AnyType, 2, false}},
      {"MIN", {Op::MIN, C::AnyType, 2, false}},    {"MOD", {Op::MOD, C::IntOnly, 2, false}},
      {"MOV", {Op::MOV, C::AnyType, 1, false}},    {"MUL", {Op::MUL, C::AnyType, 2, false}},
      {"NOT", {Op::NOT, C::IntOnly, 1, false}},    {"OR", {Op::OR, C::IntOnly, 2, false}},
      {"PK64", {Op::PK64, C::AnyType, 1, false}},  {"POW", {Op::POW, C::FloatOnly, 2, true}},
      {"RCP", {Op::RCP, C::FloatOnly, 1, true}},   {"ROUND", {Op::ROUND, C::Round, 1, false}},
      {"RSQ", {Op::RSQ, C::FloatOnly, 1, true}},   {"SEQ", {Op::SEQ, C::AnyType, 2, false}},
      {"SFL", {Op::SFL, C::AnyType, 2, false}},    {"SGE", {Op::SGE, C::AnyType, 2, false}},
      {"SGT", {Op::SGT, C::AnyType, 2, false}},    {"SHL", {Op::SHL, C::IntOnly, 2, false}},
      {"SHR", {Op::SHR, C::IntOnly, 2, false}},    {"SIN", {Op::SIN, C::FloatOnly, 1, true}},
      {"SLE", {Op::SLE, C::AnyType, 2, false}},    {"SLT", {Op::SLT, C::AnyType, 2, false}},
      {"SNE", {Op::SNE, C::AnyType, 2, false}},    {"SSG", {Op::SSG, C::AnyType, 1, false}},
      {"STR", {Op::STR, C::AnyType, 2, false}},    {"SUB", {Op::SUB, C::AnyType, 2, false}},
      {"TRUNC", {Op::TRUNC, C::Round, 1, false}},  {"UP64", {Op::UP64, C::AnyType, 1, false}},
      {"XOR", {Op::XOR, C::IntOnly, 2, false}},
      {"LDB", {Op::LDB, C::Memory, 0, false}},     {"STB", {Op::STB, C::Memory, 1, false}},
      {"ATOMB", {Op::ATOMB, C::Memory, 1, false}}, {"LDS", {Op::LDS, C::Memory, 0, false}},
      {"LDC", {Op::LDC, C::Memory, 0, false}},
      {"STS", {Op::STS, C::Memory, 1, false}},     {"ATOMS", {Op::ATOMS, C::Memory, 1, false}},
      {"BAR", {Op::BAR, C::Barrier, 0, false}},    {"MEMBAR", {Op::MEMBAR, C::Barrier, 0, false}},
      {"TGBALLOT", {Op::TGBALLOT, C::ThreadGroup, 1, false}}, {"TGALL", {Op::TGALL, C::ThreadGroup, 1, false}},
      {"TGANY", {Op::TGANY, C::ThreadGroup, 1, false}},       {"TGEQ", {Op::TGEQ, C::ThreadGroup, 1, false}},
      {"SHFIDX", {Op::SHFIDX, C::ThreadGroup, 3, false}},     {"SHFUP", {Op::SHFUP, C::ThreadGroup, 3, false}},
      {"SHFDOWN", {Op::SHFDOWN, C::ThreadGroup, 3, false}},   {"SHFXOR", {Op::SHFXOR, C::ThreadGroup, 3, false}},
      {"IF", {Op::IF, C::Flow, 0, false}},         {"ELSE", {Op::ELSE, C::Flow, 0, false}},
      {"ENDIF", {Op::ENDIF, C::Flow, 0, false}},   {"REP", {Op::REP, C::Flow, 0, false}},
      {"ENDREP", {Op::ENDREP, C::Flow, 0, false}}, {"BRK", {Op::BRK, C::Flow, 0, false}},
      {"CONT", {Op::CONT, C::Flow, 0, false}},     {"CAL", {Op::CAL, C::Flow, 0, false}},
      {"RET", {Op::RET, C::Flow, 0, false}},
  };
  return table;
}

std::optional<DataType> type_modifier(std::string_view m) {
  if (m == "F" || m == "F32") return DataType::F32;
  if (m == "S" || m == "S32") return DataType::S32;
  if (m == "U" || m == "U32") return DataType::U32;
  if (m == "F64") return DataType::F64;
  if (m == "S64") return DataType::S64;
  if (m == "U64") return DataType::U64;
  return std::nullopt;
}

std::optional<StorageFormat> storage_modifier(std::string_view m) {
  static const std::map<std::string_view, StorageFormat> table = {
      {"U8", {DataType::U32, 8, 1}},     {"S8", {DataType::S32, 8, 1}},     {"U16", {DataType::U32, 16, 1}},
      {"S16", {DataType::S32, 16, 1}},   {"U32", {DataType::U32, 32, 1}},   {"S32", {DataType::S32, 32, 1}},
      {"F32", {DataType::F32, 32, 1}},   {"U64", {DataType::U64, 64, 1}},   {"S64", {DataType::S64, 64, 1}},
      {"F64", {DataType::F64, 64, 1}},   {"U32X2", {DataType::U32, 32, 2}}, {"S32X2", {DataType::S32, 32, 2}},
      {"F32X2", {DataType::F32, 32, 2}}, {"U32X4", {DataType::U32, 32, 4}}, {"S32X4", {DataType::S32, 32, 4}},
      {"F32X4", {DataType::F32, 32, 4}}, {"U64X2", {DataType::U64, 64, 2}}, {"S64X2", {DataType::S64, 64, 2}},
      {"F64X2", {DataType::F64, 64, 2}}, {"U64X4", {DataType::U64, 64, 4}}, {"S64X4", {DataType::S64, 64, 4}},
      {"F64X4", {DataType::F64, 64, 4}},
  };
  auto it = table.find(m);
  if (it == table.end()) return std::nullopt;
  return it->second;
}

std::optional<AtomicOp> atomic_modifier(std::string_view m) {
  if (m == "ADD") return AtomicOp::Add;
  if (m == "MIN") return AtomicOp::Min;
  if (m == "MAX") return AtomicOp::Max;
  if (m == "IWRAP") return AtomicOp::IWrap;
  if (m == "DWRAP") return AtomicOp::DWrap;
  if (m == "AND") return AtomicOp::And;
  if (m == "OR") return AtomicOp::Or;
  if (m == "XOR") return AtomicOp::Xor;
  if (m == "EXCH") return AtomicOp::Exch;
  if (m == "CSWAP") return AtomicOp::CSwap;
  return std::nullopt;
}

std::optional<CondRule> cond_rule(std::string_view m, uint8_t& cc) {
  static const std::map<std::string_view, CondRule> table = {
      {"TR", CondRule::TR}, {"FL", CondRule::FL},   {"EQ", CondRule::EQ},   {"NE", CondRule::NE},
      {"LT", CondRule::LT}, {"LE", CondRule::LE},   {"GT", CondRule::GT},   {"GE", CondRule::GE},
      {"NAN", CondRule::NAN_}, {"LEG", CondRule::LEG}, {"CF", CondRule::CF}, {"NCF", CondRule::NCF},
      {"OF", CondRule::OF}, {"NOF", CondRule::NOF}, {"AB", CondRule::AB},   {"BLE", CondRule::BLE},
      {"SF", CondRule::SF}, {"NSF", CondRule::NSF}, {"ZF", CondRule::ZF},   {"NZF", CondRule::NZF},
  };
  cc = 0;
  auto it = table.find(m);
  if (it != table.end()) return it->second;
  if (m.size() >= 3 && (m.back() == '0' || m.back() == '1')) {
    it = table.find(m.substr(0, m.size() - 1));
    if (it != table.end()) {
      cc = static_cast<uint8_t>(m.back() - '0');
      return it->second;
    }
  }
  return std::nullopt;
}

const std::set<std::string_view>& known_options() {
  static const std::set<std::string_view> options = {
      "NV_internal", "NV_shader_storage_buffer", "NV_bindless_texture", "NV_gpu_program_fp64",
      "NV_shader_thread_group", "NV_shader_thread_shuffle", "ARB_compute_variable_group_size",
      "NV_shader_atomic_float", "NV_shader_atomic_int64", "NV_shader_atomic_fp16_vector",
      "NV_gpu_program5_mem_extended", "NV_shader_buffer_load", "NV_shader_buffer_store",
      "NV_shader_atomic_float64", "NV_shader_atomic_counters", "ARB_shader_group_vote", "NV_derivatives",
      "NV_image_formats", "NV_shader_texture_footprint", "NV_compute_shader_derivatives"};
  return options;
}

struct Symbol {
  enum class Kind : uint8_t { Temp, Param, Storage, Shared, Builtin, Buffer } kind;
  uint32_t id = 0;
  Builtin builtin = Builtin::LocalId;
};

struct PendingCall {
  size_t subroutine;
  size_t instruction;
  std::string label;
  size_t offset;
};

class Parser {
 public:
  Parser(std::string_view source, std::vector<Token> tokens, ParsedProgram& out, Failure& failure)
      : source_(source), toks_(std::move(tokens)), out_(out), failure_(failure) {}

  bool run() {
    out_.subroutines.push_back(Subroutine{"", 0, {}});
    while (true) {
      const Token& t = peek();
      if (t.kind == Tok::End) return error(t.offset, "unexpected end of program, expected END");
      if (t.kind != Tok::Ident) return error(t.offset, "unexpected '" + std::string(t.text) + "', expected a statement");
      if (t.text == "END") {
        end_offset_ = t.offset;
        break;
      }
      if (!statement()) return false;
    }
    return finish();
  }

 private:
  // ---- token helpers
  const Token& peek(size_t ahead = 0) const { return toks_[std::min(pos_ + ahead, toks_.size() - 1)]; }
  const Token& next() {
    const Token& t = peek();
    if (pos_ < toks_.size() - 1) ++pos_;
    return t;
  }
  bool is_punct(char c, size_t ahead = 0) const { return peek(ahead).kind == Tok::Punct && peek(ahead).punct == c; }
  bool accept(char c) {
    if (!is_punct(c)) return false;
    next();
    return true;
  }
  std::string describe(const Token& t) const {
    if (t.kind == Tok::End) return "end of program";
    return "'" + std::string(t.text) + "'";
  }
  bool expect(char c, const char* what = nullptr) {
    if (accept(c)) return true;
    return error(peek().offset, "unexpected " + describe(peek()) + ", expected " +
                                    (what ? std::string(what) : "'" + std::string(1, c) + "'"));
  }
  bool error(size_t offset, std::string text) {
    failure_ = {offset, std::move(text)};
    return false;
  }
  bool expect_ident(std::string_view& out, const char* what) {
    if (peek().kind != Tok::Ident) return error(peek().offset, "unexpected " + describe(peek()) + ", expected " + what);
    out = next().text;
    return true;
  }
  bool expect_uint(uint64_t& v, const char* what) {
    if (peek().kind != Tok::Int) return error(peek().offset, "unexpected " + describe(peek()) + ", expected " + what);
    v = next().int_value;
    return true;
  }

  // ---- statements
  bool statement() {
    const Token& t = peek();
    if (is_punct(':', 1)) return label();
    const std::string_view word = t.text;
    if (word == "OPTION") return option();
    if (word == "GROUP_SIZE") return group_size();
    if (word == "SHARED_MEMORY") return shared_memory();
    if (word == "TEMP") return temp_decl(false, 1);
    if (word == "LONG" || word == "SHORT") {
      if (peek(1).kind == Tok::Ident && peek(1).text == "TEMP") return temp_decl(word == "LONG", 2);
      return error(peek(1).offset, "unexpected " + describe(peek(1)) + ", expected TEMP after " + std::string(word));
    }
    if (word == "PARAM") return param_decl();
    if (word == "STORAGE") return storage_decl();
    if (word == "SHARED") return shared_decl();
    if (word == "ATTRIB") return attrib_decl();
    if (word == "ALIAS") return alias_decl();
    if (word == "CBUFFER") return buffer_decl(BufferDecl::Kind::Bytes);
    if (word == "BUFFER") return buffer_decl(BufferDecl::Kind::Words);
    if (word == "BUFFER4") return buffer_decl(BufferDecl::Kind::Vec4);
    if (word == "OUTPUT" || word == "IMAGE" || word == "TEXTURE") {
      return error(t.offset, std::string(word) + " declarations are not supported by this assembler");
    }
    return instruction();
  }

  bool label() {
    const Token& name = next();
    next();  // ':'
    if (!open_blocks_.empty()) return error(name.offset, "label '" + std::string(name.text) + "' inside an IF or REP block");
    if (labels_.count(std::string(name.text))) {
      return error(name.offset, "label '" + std::string(name.text) + "' is already defined");
    }
    labels_[std::string(name.text)] = out_.subroutines.size();
    out_.subroutines.push_back(Subroutine{std::string(name.text), name.offset, {}});
    return true;
  }

  bool end_statement() { return expect(';'); }

  bool option() {
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

  bool group_size() {
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
    group_size_offset_ = at;
    return end_statement();
  }

  bool shared_memory() {
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

  bool declare(std::string_view name, size_t at, Symbol symbol) {
    seen_declaration_ = true;
    if (symbols_.count(std::string(name))) return error(at, "'" + std::string(name) + "' is already declared");
    if (name == "program" || name == "invocation" || name == "state") {
      return error(at, "'" + std::string(name) + "' is a reserved name");
    }
    symbols_.emplace(std::string(name), symbol);
    return true;
  }

  bool optional_array_size(bool& is_array, uint32_t& size, bool& sized) {
    is_array = false;
    sized = false;
    size = 0;
    if (!accept('[')) return true;
    is_array = true;
    if (peek().kind == Tok::Int) {
      const size_t at = peek().offset;
      const uint64_t v = next().int_value;
      if (v == 0 || v > kMaxArray) return error(at, "invalid array size " + std::to_string(v));
      size = static_cast<uint32_t>(v);
      sized = true;
    }
    return expect(']');
  }

  bool temp_decl(bool is_long, int words) {
    for (int i = 0; i < words; ++i) next();
    while (true) {
      std::string_view name;
      const size_t at = peek().offset;
      if (!expect_ident(name, "a variable name")) return false;
      bool is_array = false, sized = false;
      uint32_t size = 0;
      if (!optional_array_size(is_array, size, sized)) return false;
      if (is_array && !sized) return error(at, "TEMP array '" + std::string(name) + "' needs a size");
      if (out_.temps.size() >= kMaxArray) return error(at, "too many TEMP variables");
      if (!declare(name, at, {Symbol::Kind::Temp, static_cast<uint32_t>(out_.temps.size())})) return false;
      out_.temps.push_back(Temp{std::string(name), is_long, is_array ? size : 0});
      if (!accept(',')) break;
    }
    return end_statement();
  }

  // A constant: optional sign, then an integer or a float.
  bool literal(Literal& lit) {
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
      next();
      lit.is_float = true;
      lit.f = negative ? -t.float_value : t.float_value;
      lit.i = 0;
      return true;
    }
    return error(t.offset, "unexpected " + describe(t) + ", expected a constant");
  }

  // { a, b, c, d } with the ARB fill rules: missing y and z are 0, a missing w is 1.
  bool constant_vector(std::array<Literal, 4>& v) {
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
  bool param_item(std::vector<ParamElement>& elements) {
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
      if (!expect_ident(which, "local or env")) return false;
      ParamElement::Kind kind;
      if (which == "local") kind = ParamElement::Kind::Local;
      else if (which == "env") kind = ParamElement::Kind::Env;
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
      if (last < first || last > kMaxParamIndex) return error(iat, "invalid parameter index range");
      if (!expect(']')) return false;
      for (uint64_t i = first; i <= last; ++i) {
        ParamElement e;
        e.kind = kind;
        e.index = static_cast<uint32_t>(i);
        elements.push_back(e);
        note_param_index(kind, e.index);
      }
      return true;
    }
    return error(t.offset, "unexpected " + describe(t) + ", expected a parameter binding");
  }

  void note_param_index(ParamElement::Kind kind, uint32_t index) {
    if (kind == ParamElement::Kind::Local) {
      out_.uses_local = true;
      out_.local_count = std::max(out_.local_count, index + 1);
    } else if (kind == ParamElement::Kind::Env) {
      out_.uses_env = true;
      out_.env_count = std::max(out_.env_count, index + 1);
    }
  }

  bool param_decl() {
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

  bool storage_item(std::vector<uint32_t>& list) {
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

  bool storage_decl() {
    next();
    std::string_view name;
    const size_t at = peek().offset;
    if (!expect_ident(name, "a storage buffer name")) return false;
    bool is_array = false, sized = false;
    uint32_t size = 0;
    if (!optional_array_size(is_array, size, sized)) return false;
    if (!expect('=')) return false;
    StorageDecl decl;
    decl.name = std::string(name);
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
  bool buffer_item(BufferDecl& decl, bool& ranged) {
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
      const uint64_t limit = kParameterBufferBytes / (decl.kind == BufferDecl::Kind::Words ? 4 : 16);
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

  bool buffer_decl(BufferDecl::Kind kind) {
    const std::string_view keyword = next().text;
    std::string_view name;
    const size_t at = peek().offset;
    if (!expect_ident(name, "a buffer variable name")) return false;
    bool is_array = false, sized = false;
    uint32_t size = 0;
    if (!optional_array_size(is_array, size, sized)) return false;
    if (!expect('=')) return false;
    BufferDecl decl;
    decl.kind = kind;
    decl.name = std::string(name);
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
      if (!is_array) return error(at, std::string(keyword) + " '" + decl.name + "' must be an array ('" + decl.name + "[]')");
      if (!ranged) decl.count = kParameterBufferBytes / (kind == BufferDecl::Kind::Words ? 4 : 16);
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

  bool shared_decl() {
    next();
    std::string_view name;
    const size_t at = peek().offset;
    if (!expect_ident(name, "a shared memory name")) return false;
    bool is_array = false, sized = false;
    uint32_t size = 0;
    if (!optional_array_size(is_array, size, sized)) return false;
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
    if (braces && !expect('}')) return false;
    if (!declare(name, at, {Symbol::Kind::Shared, 0})) return false;
    if (!first_shared_decl_) first_shared_decl_ = at;
    return end_statement();
  }

  bool builtin_binding(Builtin& b) {
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
          {"threadlemask", Builtin::ThreadLeMask}, {"threadltmask", Builtin::ThreadLtMask}};
      auto it = names.find(word);
      if (it == names.end()) return error(nat, "unknown invocation attribute 'invocation." + std::string(word) + "'");
      b = it->second;
      if (is_thread_group_builtin(b)) note_thread_group(at);
      return true;
    }
    if (word == "state") {
      // state.thread.warpsize
      if (!expect('.')) return false;
      const size_t nat = peek().offset;
      if (!expect_ident(word, "thread")) return false;
      if (word != "thread") return error(nat, "unknown state binding 'state." + std::string(word) + "'");
      if (!expect('.')) return false;
      const size_t wat = peek().offset;
      if (!expect_ident(word, "warpsize")) return false;
      if (word != "warpsize") return error(wat, "unknown state binding 'state.thread." + std::string(word) + "'");
      b = Builtin::WarpSize;
      note_thread_group(at);
      return true;
    }
    return error(at, "unexpected '" + std::string(word) + "', expected an invocation binding");
  }

  bool attrib_decl() {
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

  bool alias_decl() {
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

  void note_thread_group(size_t at) { out_.first_thread_group_use = std::min(out_.first_thread_group_use, at); }

  // ---- instructions
  bool instruction() {
    const Token& op_token = next();
    const auto& table = opcode_table();
    auto it = table.find(op_token.text);
    if (it == table.end()) return error(op_token.offset, "unknown opcode '" + std::string(op_token.text) + "'");
    seen_declaration_ = true;
    const OpInfo info = it->second;
    Instruction inst;
    inst.op = info.op;
    inst.offset = op_token.offset;
    if (!modifiers(info, inst, op_token.text)) return false;
    if (info.cls == OpInfo::ThreadGroup) note_thread_group(op_token.offset);
    switch (info.cls) {
      case OpInfo::Flow:
        if (!flow(inst)) return false;
        break;
      case OpInfo::Barrier:
        break;
      case OpInfo::Memory:
        if (!memory_instruction(inst)) return false;
        break;
      default:
        if (!dest(inst.dest)) return false;
        inst.has_dest = true;
        for (int i = 0; i < info.sources; ++i) {
          if (!expect(',')) return false;
          Operand o;
          if (!operand(o)) return false;
          if (info.scalar) o.swizzle = {o.swizzle[0], o.swizzle[0], o.swizzle[0], o.swizzle[0]};
          inst.sources.push_back(o);
        }
        break;
    }
    if (!end_statement()) return false;
    if (++instruction_count_ > kMaxInstructions) {
      return error(inst.offset, "program too long (more than " + std::to_string(kMaxInstructions) + " instructions)");
    }
    out_.subroutines.back().body.push_back(std::move(inst));
    return true;
  }

  bool modifiers(const OpInfo& info, Instruction& inst, std::string_view opname) {
    int types = 0;
    while (is_punct('.')) {
      next();
      const size_t at = peek().offset;
      std::string_view m;
      if (!expect_ident(m, "an opcode modifier")) return false;
      auto bad = [&]() { return error(at, "invalid modifier '" + std::string(m) + "' for " + std::string(opname)); };
      if (m == "CC" || m == "CC0" || m == "CC1") {
        if (info.cls == OpInfo::Flow || info.cls == OpInfo::Barrier || info.cls == OpInfo::Memory) return bad();
        inst.update_cc = true;
        inst.cc_register = m == "CC1" ? 1 : 0;
        continue;
      }
      if (m == "SAT" || m == "SSAT") {
        if (info.cls == OpInfo::Flow || info.cls == OpInfo::Barrier || info.cls == OpInfo::Memory) return bad();
        (m == "SAT" ? inst.saturate : inst.signed_saturate) = true;
        continue;
      }
      if (m == "HI") {
        if (info.op != Op::MUL) return bad();
        inst.high = true;
        continue;
      }
      if (m == "CTA") {
        if (info.op != Op::MEMBAR) return bad();
        inst.cta = true;
        continue;
      }
      if (info.cls == OpInfo::Memory) {
        if (m == "COH" || m == "VOL") continue;
        if ((info.op == Op::ATOMB || info.op == Op::ATOMS) && inst.atomic == AtomicOp::None) {
          if (auto a = atomic_modifier(m)) {
            inst.atomic = *a;
            continue;
          }
          return bad();
        }
        if (auto f = storage_modifier(m); f && types == 0) {
          inst.format = *f;
          inst.type = f->type;
          ++types;
          continue;
        }
        return bad();
      }
      if (info.cls == OpInfo::Flow) {
        if (info.op == Op::REP && (m == "S" || m == "U" || m == "F" || m == "S32" || m == "U32" || m == "F32") &&
            types == 0) {
          inst.type = *type_modifier(m);
          ++types;
          continue;
        }
        return bad();
      }
      if (info.cls == OpInfo::Barrier) return bad();
      auto type = type_modifier(m);
      if (!type) return bad();
      if (info.cls == OpInfo::Convert) {
        if (types == 0) inst.type = *type;
        else if (types == 1) inst.src_type = *type;
        else return bad();
        ++types;
        continue;
      }
      if (types != 0) return bad();
      if (info.cls == OpInfo::FloatOnly && !is_float(*type)) return bad();
      if ((info.cls == OpInfo::IntOnly || info.cls == OpInfo::ThreadGroup) && is_float(*type)) return bad();
      if (inst.high && is_float(*type)) return bad();
      inst.type = *type;
      ++types;
    }
    if (info.cls == OpInfo::Convert && types != 2) {
      return error(inst.offset, std::string(opname) + " needs a destination and a source type (CVT.F64.U32)");
    }
    if (info.cls == OpInfo::Memory) {
      if ((info.op == Op::ATOMB || info.op == Op::ATOMS) && inst.atomic == AtomicOp::None) {
        return error(inst.offset, std::string(opname) + " needs an atomic operation modifier (ADD, MIN, ...)");
      }
      if (types == 0) return error(inst.offset, std::string(opname) + " needs a storage modifier (U32, F32, ...)");
      if (inst.atomic != AtomicOp::None) {
        const auto& f = inst.format;
        const bool int32 = f.count == 1 && f.bits == 32 && !is_float(f.type);
        const bool f32add = f.count == 1 && f.type == DataType::F32 && inst.atomic == AtomicOp::Add;
        // NV_shader_atomic_int64: U64 / S64 with every operation but IWRAP and DWRAP (whether the device can run
        // them is checked at emission).
        const bool int64 = f.count == 1 && f.bits == 64 && !is_float(f.type) && inst.atomic != AtomicOp::IWrap &&
                           inst.atomic != AtomicOp::DWrap;
        if (!int32 && !f32add && !int64) {
          return error(inst.offset, std::string(opname) + ": atomic operation not supported with this storage "
                                                          "modifier (supported: 32-bit integers, F32 with ADD, "
                                                          "U64/S64 without IWRAP/DWRAP)");
        }
      }
    }
    if (inst.type == DataType::None && info.cls != OpInfo::Flow && info.cls != OpInfo::Barrier) {
      inst.type = (info.cls == OpInfo::IntOnly || info.cls == OpInfo::ThreadGroup) ? DataType::S32 : DataType::F32;
    }
    if (inst.op == Op::I2F && is_float(inst.type)) return error(inst.offset, "I2F needs .S or .U");
    if (inst.op == Op::MOD && is_float(inst.type)) return error(inst.offset, "MOD needs an integer type");
    return true;
  }

  bool swizzle(std::array<uint8_t, 4>& swz, uint8_t* count, bool mask_form, uint8_t* mask) {
    const size_t at = peek().offset;
    std::string_view s;
    if (!expect_ident(s, mask_form ? "a write mask" : "a swizzle")) return false;
    if (s.empty() || s.size() > 4) return error(at, "invalid swizzle '" + std::string(s) + "'");
    auto component = [](char c) -> int {
      switch (c) {
        case 'x': case 'r': return 0;
        case 'y': case 'g': return 1;
        case 'z': case 'b': return 2;
        case 'w': case 'a': return 3;
        default: return -1;
      }
    };
    if (mask_form) {
      uint8_t m = 0;
      int last = -1;
      for (char c : s) {
        const int k = component(c);
        if (k < 0 || k <= last) return error(at, "invalid write mask '" + std::string(s) + "'");
        last = k;
        m |= uint8_t(1u << k);
      }
      *mask = m;
      return true;
    }
    if (s.size() != 1 && s.size() != 4) return error(at, "invalid swizzle '" + std::string(s) + "'");
    for (size_t i = 0; i < 4; ++i) {
      const int k = component(s[std::min(i, s.size() - 1)]);
      if (k < 0) return error(at, "invalid swizzle '" + std::string(s) + "'");
      swz[i] = static_cast<uint8_t>(k);
    }
    if (count) *count = static_cast<uint8_t>(s.size());
    return true;
  }

  bool cond_test(CondTest& test) {
    const size_t at = peek().offset;
    std::string_view word;
    if (!expect_ident(word, "a condition code test")) return false;
    uint8_t cc = 0;
    auto rule = cond_rule(word, cc);
    if (!rule) return error(at, "invalid condition code test '" + std::string(word) + "'");
    test.rule = *rule;
    test.cc = cc;
    if (accept('.')) {
      if (!swizzle(test.swizzle, &test.swizzle_count, false, nullptr)) return false;
    }
    return true;
  }

  // temp or temp[index] (index: constant, or temp.c [+/- constant])
  bool temp_index(uint32_t temp, uint32_t& element, bool& relative, uint32_t& rel_temp, uint8_t& rel_comp,
                  uint32_t limit, bool array, const std::string& name, size_t at) {
    element = 0;
    relative = false;
    if (!is_punct('[')) {
      if (array) return error(at, "array '" + name + "' needs an index");
      return true;
    }
    if (!array) return error(peek().offset, "'" + name + "' is not an array");
    next();
    (void)temp;
    if (peek().kind == Tok::Int) {
      const size_t iat = peek().offset;
      const uint64_t v = next().int_value;
      if (v >= limit) return error(iat, "index " + std::to_string(v) + " is out of bounds for '" + name + "'");
      element = static_cast<uint32_t>(v);
      return expect(']');
    }
    if (!index_register(rel_temp, rel_comp)) return false;
    relative = true;
    if (is_punct('+') || is_punct('-')) {
      const bool minus = next().punct == '-';
      const size_t iat = peek().offset;
      uint64_t v = 0;
      if (!expect_uint(v, "an index offset")) return false;
      if (v >= limit) return error(iat, "index offset out of bounds for '" + name + "'");
      // A negative offset wraps; the emitted index is clamped into the array either way.
      element = minus ? 0u - static_cast<uint32_t>(v) : static_cast<uint32_t>(v);
    }
    return expect(']');
  }

  bool index_register(uint32_t& temp, uint8_t& comp) {
    const size_t at = peek().offset;
    std::string_view name;
    if (!expect_ident(name, "an address register")) return false;
    auto it = symbols_.find(std::string(name));
    if (it == symbols_.end() || it->second.kind != Symbol::Kind::Temp || out_.temps[it->second.id].count) {
      return error(at, "'" + std::string(name) + "' is not a TEMP variable usable as an index");
    }
    temp = it->second.id;
    if (!expect('.')) return false;
    std::array<uint8_t, 4> swz{};
    uint8_t count = 0;
    const size_t sat = peek().offset;
    if (!swizzle(swz, &count, false, nullptr)) return false;
    if (count != 1) return error(sat, "an index needs a single component");
    comp = swz[0];
    return true;
  }

  bool dest(Dest& d) {
    const size_t at = peek().offset;
    d.offset = at;
    std::string_view name;
    if (!expect_ident(name, "a destination register")) return false;
    auto it = symbols_.find(std::string(name));
    if (it == symbols_.end()) return error(at, "undefined variable '" + std::string(name) + "'");
    if (it->second.kind != Symbol::Kind::Temp) return error(at, "'" + std::string(name) + "' is not a writable TEMP variable");
    d.temp = it->second.id;
    const Temp& t = out_.temps[d.temp];
    if (!temp_index(d.temp, d.element, d.relative, d.rel_temp, d.rel_component, t.count, t.count != 0, t.name, at)) {
      return false;
    }
    if (accept('.')) {
      std::array<uint8_t, 4> unused{};
      if (!swizzle(unused, nullptr, true, &d.mask)) return false;
    }
    if (accept('(')) {
      CondTest test;
      if (!cond_test(test)) return false;
      d.predicate = test;
      if (!expect(')')) return false;
    }
    return true;
  }

  bool operand(Operand& o) {
    o.offset = peek().offset;
    if (accept('-')) o.negate = true;
    else accept('+');
    if (accept('|')) {
      o.absolute = true;
      if (!primary(o)) return false;
      return expect('|');
    }
    return primary(o);
  }

  bool primary(Operand& o) {
    const Token& t = peek();
    const size_t at = t.offset;
    if (is_punct('{')) {
      o.kind = Operand::Kind::Literal;
      if (!constant_vector(o.literal)) return false;
      return operand_swizzle(o);
    }
    if (t.kind == Tok::Int || t.kind == Tok::Float) {
      o.kind = Operand::Kind::Literal;
      Literal lit;
      if (!literal(lit)) return false;
      o.literal = {lit, lit, lit, lit};
      return true;
    }
    if (t.kind != Tok::Ident) return error(at, "unexpected " + describe(t) + ", expected an operand");
    if (t.text == "invocation" || t.text == "state") {
      o.kind = Operand::Kind::Builtin;
      if (!builtin_binding(o.builtin)) return false;
      return operand_swizzle(o);
    }
    if (t.text == "program") {
      std::vector<ParamElement> elements;
      if (!param_item(elements)) return false;
      if (elements.size() != 1) return error(at, "an operand binds a single parameter vector");
      Param p;
      p.name = "program";
      p.elements = elements;
      o.kind = Operand::Kind::Param;
      o.id = static_cast<uint32_t>(out_.params.size());
      out_.params.push_back(std::move(p));
      return operand_swizzle(o);
    }
    next();
    auto it = symbols_.find(std::string(t.text));
    if (it == symbols_.end()) return error(at, "undefined variable '" + std::string(t.text) + "'");
    const Symbol& s = it->second;
    switch (s.kind) {
      case Symbol::Kind::Temp: {
        o.kind = Operand::Kind::Temp;
        o.id = s.id;
        const Temp& temp = out_.temps[s.id];
        if (!temp_index(s.id, o.element, o.relative, o.rel_temp, o.rel_component, temp.count, temp.count != 0,
                        temp.name, at)) {
          return false;
        }
        break;
      }
      case Symbol::Kind::Param: {
        o.kind = Operand::Kind::Param;
        o.id = s.id;
        const Param& p = out_.params[s.id];
        if (!temp_index(s.id, o.element, o.relative, o.rel_temp, o.rel_component,
                        static_cast<uint32_t>(p.elements.size()), p.is_array, p.name, at)) {
          return false;
        }
        break;
      }
      case Symbol::Kind::Builtin:
        o.kind = Operand::Kind::Builtin;
        o.builtin = s.builtin;
        if (is_thread_group_builtin(s.builtin)) note_thread_group(at);
        break;
      case Symbol::Kind::Buffer: {
        const BufferDecl& b = out_.buffers[s.id];
        if (b.kind == BufferDecl::Kind::Bytes) {
          return error(at, "'" + b.name + "' is a CBUFFER: read it with LDC");
        }
        o.kind = Operand::Kind::Buffer;
        o.id = s.id;
        if (!temp_index(s.id, o.element, o.relative, o.rel_temp, o.rel_component, b.count, true, b.name, at)) {
          return false;
        }
        break;
      }
      default:
        return error(at, "'" + std::string(t.text) + "' is a memory declaration, not a register operand");
    }
    return operand_swizzle(o);
  }

  bool operand_swizzle(Operand& o) {
    if (!is_punct('.')) return true;
    next();
    return swizzle(o.swizzle, nullptr, false, nullptr);
  }

  bool memory_ref(MemoryRef& m) {
    const size_t at = peek().offset;
    m.position = at;
    std::string_view name;
    if (!expect_ident(name, "a storage buffer or shared memory name")) return false;
    auto it = symbols_.find(std::string(name));
    if (it == symbols_.end()) return error(at, "undefined variable '" + std::string(name) + "'");
    const std::vector<uint32_t>* list = nullptr;
    std::string decl_name;
    if (it->second.kind == Symbol::Kind::Shared) {
      m.shared = true;
    } else if (it->second.kind == Symbol::Kind::Storage) {
      list = &out_.storages[it->second.id].program_storage;
      decl_name = out_.storages[it->second.id].name;
    } else if (it->second.kind == Symbol::Kind::Buffer && out_.buffers[it->second.id].kind == BufferDecl::Kind::Bytes) {
      m.constant = true;
      list = &out_.buffers[it->second.id].program_buffer;
      decl_name = out_.buffers[it->second.id].name;
    } else {
      return error(at, "'" + std::string(name) + "' is not a STORAGE, CBUFFER or SHARED declaration");
    }
    if (list) {
      m.buffer = (*list)[0];
      if (list->size() > 1) {
        // s[k][address] or s[R0.x + k][address]: the buffer index first.
        if (!expect('[')) return false;
        const size_t kat = peek().offset;
        if (peek().kind == Tok::Int) {
          const uint64_t k = next().int_value;
          if (k >= list->size()) return error(kat, "buffer index out of bounds for '" + decl_name + "'");
          m.buffer = (*list)[k];
        } else {
          m.dynamic_buffer = true;
          m.buffers = *list;
          if (!index_register(m.buffer_temp, m.buffer_component)) return false;
          if (is_punct('+') || is_punct('-')) {
            const bool minus = next().punct == '-';
            const size_t oat = peek().offset;
            uint64_t v = 0;
            if (!expect_uint(v, "a buffer index offset")) return false;
            if (v >= list->size()) return error(oat, "buffer index offset out of bounds for '" + decl_name + "'");
            // A negative offset wraps; the emitted index is clamped into the array either way.
            m.buffer_element = minus ? 0u - static_cast<uint32_t>(v) : static_cast<uint32_t>(v);
          }
        }
        if (!expect(']')) return false;
      }
    }
    if (!expect('[')) return false;
    if (peek().kind == Tok::Int) {
      const uint64_t v = next().int_value;
      if (v > 0xFFFFFFFFull) return error(at, "address out of range");
      m.offset = static_cast<int64_t>(v);
      return expect(']');
    }
    m.has_register = true;
    if (!index_register(m.temp, m.component)) return false;
    if (is_punct('+') || is_punct('-')) {
      const bool minus = next().punct == '-';
      uint64_t v = 0;
      const size_t oat = peek().offset;
      if (!expect_uint(v, "an address offset")) return false;
      if (v > 0xFFFFFFFFull) return error(oat, "address offset out of range");
      m.offset = minus ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
    }
    return expect(']');
  }

  bool memory_instruction(Instruction& inst) {
    const bool shared_op = inst.op == Op::LDS || inst.op == Op::STS || inst.op == Op::ATOMS;
    const bool constant_op = inst.op == Op::LDC;
    MemoryRef m;
    if (inst.op == Op::LDB || inst.op == Op::LDS || inst.op == Op::LDC) {
      if (!dest(inst.dest)) return false;
      inst.has_dest = true;
      if (!expect(',')) return false;
    } else if (inst.op == Op::ATOMB || inst.op == Op::ATOMS) {
      if (!dest(inst.dest)) return false;
      inst.has_dest = true;
      if (!expect(',')) return false;
      Operand o;
      if (!operand(o)) return false;
      inst.sources.push_back(o);
      if (!expect(',')) return false;
    } else {
      Operand o;
      if (!operand(o)) return false;
      inst.sources.push_back(o);
      if (!expect(',')) return false;
    }
    if (!memory_ref(m)) return false;
    if (m.shared != shared_op || m.constant != constant_op) {
      return error(m.position, shared_op     ? "this instruction accesses shared memory (a SHARED declaration)"
                               : constant_op ? "LDC reads a parameter buffer (a CBUFFER declaration)"
                                             : "this instruction accesses a storage buffer (a STORAGE declaration)");
    }
    inst.memory = m;
    return true;
  }

  bool flow(Instruction& inst) {
    switch (inst.op) {
      case Op::IF: {
        CondTest test;
        if (!cond_test(test)) return false;
        inst.condition = test;
        open_blocks_.push_back({Op::IF, inst.offset, false});
        if (open_blocks_.size() > kMaxNesting) return error(inst.offset, "IF and REP blocks nested too deeply");
        return true;
      }
      case Op::ELSE:
        if (open_blocks_.empty() || open_blocks_.back().op != Op::IF || open_blocks_.back().has_else) {
          return error(inst.offset, "ELSE without a matching IF");
        }
        open_blocks_.back().has_else = true;
        return true;
      case Op::ENDIF:
        if (open_blocks_.empty() || open_blocks_.back().op != Op::IF) return error(inst.offset, "ENDIF without a matching IF");
        open_blocks_.pop_back();
        return true;
      case Op::REP:
        if (!is_punct(';')) {
          Operand o;
          if (!operand(o)) return false;
          inst.sources.push_back(o);
        }
        if (inst.type == DataType::None) inst.type = DataType::F32;
        open_blocks_.push_back({Op::REP, inst.offset, false});
        if (open_blocks_.size() > kMaxNesting) return error(inst.offset, "IF and REP blocks nested too deeply");
        return true;
      case Op::ENDREP:
        if (open_blocks_.empty() || open_blocks_.back().op != Op::REP) return error(inst.offset, "ENDREP without a matching REP");
        open_blocks_.pop_back();
        return true;
      case Op::BRK:
      case Op::CONT: {
        const bool in_loop = std::any_of(open_blocks_.begin(), open_blocks_.end(), [](const Block& b) { return b.op == Op::REP; });
        if (!in_loop) return error(inst.offset, std::string(inst.op == Op::BRK ? "BRK" : "CONT") + " outside a REP block");
        return optional_condition(inst);
      }
      case Op::RET:
        return optional_condition(inst);
      case Op::CAL: {
        const size_t at = peek().offset;
        std::string_view label;
        if (!expect_ident(label, "a label")) return false;
        calls_.push_back({out_.subroutines.size() - 1, out_.subroutines.back().body.size(), std::string(label), at});
        return optional_condition(inst);
      }
      default:
        return true;
    }
  }

  bool optional_condition(Instruction& inst) {
    if (!accept('(')) return true;
    CondTest test;
    if (!cond_test(test)) return false;
    inst.condition = test;
    return expect(')');
  }

  bool finish() {
    if (!open_blocks_.empty()) {
      const Block& b = open_blocks_.back();
      return error(b.offset, b.op == Op::IF ? "IF without a matching ENDIF" : "REP without a matching ENDREP");
    }
    if (first_shared_decl_ && !out_.has_shared_memory_decl) {
      return error(*first_shared_decl_, "SHARED needs a SHARED_MEMORY declaration");
    }
    if (!out_.variable_group_size && !out_.group_size) {
      return error(end_offset_, "missing GROUP_SIZE declaration (required unless OPTION ARB_compute_variable_group_size)");
    }
    for (const auto& call : calls_) {
      auto it = labels_.find(call.label);
      if (it == labels_.end()) return error(call.offset, "undefined label '" + call.label + "'");
      out_.subroutines[call.subroutine].body[call.instruction].label = static_cast<uint32_t>(it->second);
    }
    auto main = labels_.find("main");
    out_.entry = main == labels_.end() ? 0 : static_cast<uint32_t>(main->second);
    return check_recursion();
  }

  // SPIR-V has no recursion: a call cycle is a load error, reported at the call that closes it.
  bool check_recursion() {
    const size_t n = out_.subroutines.size();
    std::vector<uint8_t> state(n, 0);  // 0 new, 1 on stack, 2 done
    struct Frame {
      size_t sub;
      size_t next_call;
    };
    std::vector<std::vector<std::pair<size_t, size_t>>> edges(n);  // (callee, call offset)
    for (const auto& call : calls_) {
      const Instruction& inst = out_.subroutines[call.subroutine].body[call.instruction];
      edges[call.subroutine].push_back({inst.label, call.offset});
    }
    // The size of each subroutine with its callees inlined (the optimizer inlines every call): bounded, so a
    // small program of calls that fan out cannot make the translation explode.
    std::vector<uint64_t> inlined(n, 0);
    constexpr uint64_t kMaxInlined = 1u << 17;
    for (size_t root = 0; root < n; ++root) {
      if (state[root]) continue;
      std::vector<Frame> stack{{root, 0}};
      state[root] = 1;
      while (!stack.empty()) {
        Frame& f = stack.back();
        if (f.next_call == edges[f.sub].size()) {
          uint64_t total = out_.subroutines[f.sub].body.size() + 1;
          for (const auto& [callee, offset] : edges[f.sub]) total = std::min(kMaxInlined + 1, total + inlined[callee]);
          inlined[f.sub] = total;
          if (total > kMaxInlined) {
            return error(out_.subroutines[f.sub].offset,
                         "subroutine calls expand to more than " + std::to_string(kMaxInlined) +
                             " instructions once inlined");
          }
          state[f.sub] = 2;
          stack.pop_back();
          continue;
        }
        const auto [callee, offset] = edges[f.sub][f.next_call++];
        if (state[callee] == 1) {
          return error(offset, "recursive call to subroutine '" + out_.subroutines[callee].name +
                                   "' (SPIR-V cannot express recursion)");
        }
        if (state[callee] == 0) {
          state[callee] = 1;
          stack.push_back({callee, 0});
        }
      }
    }
    return true;
  }

  struct Block {
    Op op;
    size_t offset;
    bool has_else;
  };

  std::string_view source_;
  std::vector<Token> toks_;
  size_t pos_ = 0;
  ParsedProgram& out_;
  Failure& failure_;
  std::unordered_map<std::string, Symbol> symbols_;
  std::unordered_map<std::string, size_t> labels_;
  std::vector<PendingCall> calls_;
  std::vector<Block> open_blocks_;
  bool seen_declaration_ = false;
  size_t instruction_count_ = 0;
  std::optional<size_t> first_shared_decl_;
  size_t group_size_offset_ = 0;
  size_t end_offset_ = 0;
};

}  // namespace

bool parse_program(std::string_view source, ParsedProgram& out, Failure& failure) {
  constexpr std::string_view kHeader = "!!NVcp5.0";
  if (source.substr(0, kHeader.size()) != kHeader) {
    failure = {0, "program must begin with !!NVcp5.0"};
    return false;
  }
  if (source.size() > kHeader.size() && is_ident_char(source[kHeader.size()])) {
    failure = {0, "program must begin with !!NVcp5.0"};
    return false;
  }
  std::vector<Token> tokens;
  Lexer lexer(source);
  if (!lexer.run(kHeader.size(), tokens, failure)) return false;
  Parser parser(source, std::move(tokens), out, failure);
  return parser.run();
}

}  // namespace bismuth::nvasm::detail
