// The opcode table (one row per opcode, in the order of Op) and the modifier and option names.
#include "opcode_table.hpp"

#include <array>
#include <map>
#include <unordered_map>

namespace bismuth::nvasm::detail {
namespace {

using F = Family;
using O = OperandForm;
using T = TypeRule;
using S = MemorySpace;
constexpr uint16_t kAlu = kCondCode | kSaturate | kPrecise;
constexpr uint16_t kAtomic = kCache | kAtomicOp;
constexpr uint16_t kLookup = kCondCode | kSaturate | kSparse;

// clang-format off
constexpr std::array kOpcodes = std::to_array<OpcodeInfo>({
    // name      op            family             form            n  scalar types         modifiers     space
    {"ABS",      Op::ABS,      F::Basic,          O::DestSources, 1, false, T::Any,       kAlu,         S::None},
    {"ADD",      Op::ADD,      F::Basic,          O::DestSources, 2, false, T::Any,       kAlu,         S::None},
    {"AND",      Op::AND,      F::Logic,          O::DestSources, 2, false, T::Integer,   kAlu,         S::None},
    {"BFE",      Op::BFE,      F::Bits,           O::DestSources, 2, false, T::Integer,   kAlu,         S::None},
    {"BFI",      Op::BFI,      F::Bits,           O::DestSources, 3, false, T::Integer,   kAlu,         S::None},
    {"BFR",      Op::BFR,      F::Bits,           O::DestSources, 1, false, T::Integer,   kAlu,         S::None},
    {"BTC",      Op::BTC,      F::Bits,           O::DestSources, 1, false, T::Integer,   kAlu,         S::None},
    {"BTFL",     Op::BTFL,     F::Bits,           O::DestSources, 1, false, T::Integer,   kAlu,         S::None},
    {"BTFM",     Op::BTFM,     F::Bits,           O::DestSources, 1, false, T::Integer,   kAlu,         S::None},
    {"CEIL",     Op::CEIL,     F::Rounding,       O::DestSources, 1, false, T::Any,       kAlu,         S::None},
    {"CMP",      Op::CMP,      F::Comparison,     O::DestSources, 3, false, T::Any,       kAlu,         S::None},
    {"COS",      Op::COS,      F::Transcendental, O::DestSources, 1, true,  T::Float,     kAlu,         S::None},
    {"CVT",      Op::CVT,      F::Conversion,     O::DestSources, 1, false, T::Pair,      kAlu | kRounding, S::None},
    {"DIV",      Op::DIV,      F::Division,       O::DestSources, 2, false, T::Any,       kAlu,         S::None},
    {"DP2",      Op::DP2,      F::DotProduct,     O::DestSources, 2, false, T::Float,     kAlu,         S::None},
    {"DP3",      Op::DP3,      F::DotProduct,     O::DestSources, 2, false, T::Float,     kAlu,         S::None},
    {"DP4",      Op::DP4,      F::DotProduct,     O::DestSources, 2, false, T::Float,     kAlu,         S::None},
    {"EX2",      Op::EX2,      F::Transcendental, O::DestSources, 1, true,  T::Float,     kAlu,         S::None},
    {"FLR",      Op::FLR,      F::Rounding,       O::DestSources, 1, false, T::Any,       kAlu,         S::None},
    {"FRC",      Op::FRC,      F::Rounding,       O::DestSources, 1, false, T::Float,     kAlu,         S::None},
    {"I2F",      Op::I2F,      F::Conversion,     O::DestSources, 1, false, T::Integer,   kAlu,         S::None},
    {"LG2",      Op::LG2,      F::Transcendental, O::DestSources, 1, true,  T::Float,     kAlu,         S::None},
    {"MAD",      Op::MAD,      F::Basic,          O::DestSources, 3, false, T::Any,       kAlu,         S::None},
    {"MAX",      Op::MAX,      F::Basic,          O::DestSources, 2, false, T::Any,       kAlu,         S::None},
    {"MIN",      Op::MIN,      F::Basic,          O::DestSources, 2, false, T::Any,       kAlu,         S::None},
    {"MOD",      Op::MOD,      F::Division,       O::DestSources, 2, false, T::Integer,   kAlu,         S::None},
    {"MOV",      Op::MOV,      F::Basic,          O::DestSources, 1, false, T::Any,       kAlu,         S::None},
    {"MUL",      Op::MUL,      F::Basic,          O::DestSources, 2, false, T::Any,       kAlu | kHigh, S::None},
    {"NOT",      Op::NOT,      F::Logic,          O::DestSources, 1, false, T::Integer,   kAlu,         S::None},
    {"OR",       Op::OR,       F::Logic,          O::DestSources, 2, false, T::Integer,   kAlu,         S::None},
    {"PK64",     Op::PK64,     F::Conversion,     O::DestSources, 1, false, T::Any,       kAlu,         S::None},
    {"POW",      Op::POW,      F::Transcendental, O::DestSources, 2, true,  T::Float,     kAlu,         S::None},
    {"RCP",      Op::RCP,      F::Transcendental, O::DestSources, 1, true,  T::Float,     kAlu,         S::None},
    {"ROUND",    Op::ROUND,    F::Rounding,       O::DestSources, 1, false, T::Any,       kAlu,         S::None},
    {"RSQ",      Op::RSQ,      F::Transcendental, O::DestSources, 1, true,  T::Float,     kAlu,         S::None},
    {"SEQ",      Op::SEQ,      F::Comparison,     O::DestSources, 2, false, T::Any,       kAlu,         S::None},
    {"SFL",      Op::SFL,      F::Comparison,     O::DestSources, 2, false, T::Any,       kAlu,         S::None},
    {"SGE",      Op::SGE,      F::Comparison,     O::DestSources, 2, false, T::Any,       kAlu,         S::None},
    {"SGT",      Op::SGT,      F::Comparison,     O::DestSources, 2, false, T::Any,       kAlu,         S::None},
    {"SHL",      Op::SHL,      F::Logic,          O::DestSources, 2, false, T::Integer,   kAlu,         S::None},
    {"SHR",      Op::SHR,      F::Logic,          O::DestSources, 2, false, T::Integer,   kAlu,         S::None},
    {"SIN",      Op::SIN,      F::Transcendental, O::DestSources, 1, true,  T::Float,     kAlu,         S::None},
    {"SLE",      Op::SLE,      F::Comparison,     O::DestSources, 2, false, T::Any,       kAlu,         S::None},
    {"SLT",      Op::SLT,      F::Comparison,     O::DestSources, 2, false, T::Any,       kAlu,         S::None},
    {"SNE",      Op::SNE,      F::Comparison,     O::DestSources, 2, false, T::Any,       kAlu,         S::None},
    {"SSG",      Op::SSG,      F::Comparison,     O::DestSources, 1, false, T::Any,       kAlu,         S::None},
    {"STR",      Op::STR,      F::Comparison,     O::DestSources, 2, false, T::Any,       kAlu,         S::None},
    {"SUB",      Op::SUB,      F::Basic,          O::DestSources, 2, false, T::Any,       kAlu,         S::None},
    {"TRUNC",    Op::TRUNC,    F::Rounding,       O::DestSources, 1, false, T::Any,       kAlu,         S::None},
    {"UP64",     Op::UP64,     F::Conversion,     O::DestSources, 1, false, T::Any,       kAlu,         S::None},
    {"XOR",      Op::XOR,      F::Logic,          O::DestSources, 2, false, T::Integer,   kAlu,         S::None},
    {"DP2A",     Op::DP2A,     F::Vector,         O::DestSources, 3, false, T::Float,     kAlu,         S::None},
    {"DPH",      Op::DPH,      F::Vector,         O::DestSources, 2, false, T::Float,     kAlu,         S::None},
    {"DST",      Op::DST,      F::Vector,         O::DestSources, 2, false, T::Float,     kAlu,         S::None},
    {"LIT",      Op::LIT,      F::Vector,         O::DestSources, 1, false, T::Float,     kAlu,         S::None},
    {"LRP",      Op::LRP,      F::Vector,         O::DestSources, 3, false, T::Float,     kAlu,         S::None},
    {"NRM",      Op::NRM,      F::Vector,         O::DestSources, 1, false, T::Float,     kAlu,         S::None},
    {"PK2H",     Op::PK2H,     F::Packing,        O::DestSources, 1, false, T::Any,       kAlu,         S::None},
    {"PK2US",    Op::PK2US,    F::Packing,        O::DestSources, 1, false, T::Any,       kAlu,         S::None},
    {"PK4B",     Op::PK4B,     F::Packing,        O::DestSources, 1, false, T::Any,       kAlu,         S::None},
    {"PK4UB",    Op::PK4UB,    F::Packing,        O::DestSources, 1, false, T::Any,       kAlu,         S::None},
    {"RCC",      Op::RCC,      F::Transcendental, O::DestSources, 1, true,  T::Float,     kAlu,         S::None},
    {"RFL",      Op::RFL,      F::Vector,         O::DestSources, 2, false, T::Float,     kAlu,         S::None},
    {"SAD",      Op::SAD,      F::Basic,          O::DestSources, 3, false, T::Integer,   kAlu,         S::None},
    {"SCS",      Op::SCS,      F::Vector,         O::DestSources, 1, true,  T::Float,     kAlu,         S::None},
    {"UP2H",     Op::UP2H,     F::Packing,        O::DestSources, 1, true,  T::Any,       kAlu,         S::None},
    {"UP2US",    Op::UP2US,    F::Packing,        O::DestSources, 1, true,  T::Any,       kAlu,         S::None},
    {"UP4B",     Op::UP4B,     F::Packing,        O::DestSources, 1, true,  T::Any,       kAlu,         S::None},
    {"UP4UB",    Op::UP4UB,    F::Packing,        O::DestSources, 1, true,  T::Any,       kAlu,         S::None},
    {"X2D",      Op::X2D,      F::Vector,         O::DestSources, 3, false, T::Float,     kAlu,         S::None},
    {"XPD",      Op::XPD,      F::Vector,         O::DestSources, 2, false, T::Float,     kAlu,         S::None},
    {"SWZ",      Op::SWZ,      F::Vector,         O::DestSources, 1, false, T::Float,     kAlu,         S::None},
    {"LDB",      Op::LDB,      F::Memory,         O::Load,        0, false, T::Storage,   kCache,       S::Storage},
    {"STB",      Op::STB,      F::Memory,         O::Store,       1, false, T::Storage,   kCache,       S::Storage},
    {"ATOMB",    Op::ATOMB,    F::Memory,         O::Atomic,      1, false, T::Storage,   kAtomic,      S::Storage},
    {"LDS",      Op::LDS,      F::Memory,         O::Load,        0, false, T::Storage,   kCache,       S::Shared},
    {"STS",      Op::STS,      F::Memory,         O::Store,       1, false, T::Storage,   kCache,       S::Shared},
    {"ATOMS",    Op::ATOMS,    F::Memory,         O::Atomic,      1, false, T::Storage,   kAtomic,      S::Shared},
    {"LDC",      Op::LDC,      F::Memory,         O::Load,        0, false, T::Storage,   kCache,       S::Constant},
    {"LOAD",     Op::LOAD,     F::Memory,         O::Load,        0, false, T::Storage,   kCache,       S::Global},
    {"STORE",    Op::STORE,    F::Memory,         O::Store,       1, false, T::Storage,   kCache,       S::Global},
    {"ATOM",     Op::ATOM,     F::Memory,         O::Atomic,      1, false, T::Storage,   kAtomic,      S::Global},
    {"BAR",      Op::BAR,      F::Barrier,        O::None,        0, false, T::None,      0,            S::None},
    {"MEMBAR",   Op::MEMBAR,   F::Barrier,        O::None,        0, false, T::None,      kCta,         S::None},
    {"ATOMCTR",  Op::ATOMCTR,  F::Counter,        O::Counter,     0, false, T::None,      0,            S::None},
    {"ATOMCTROP", Op::ATOMCTROP, F::Counter,      O::Counter,     1, false, T::None,      0,            S::None},
    {"TEX",      Op::TEX,      F::Texture,        O::Texture,     1, false, T::Texel,     kLookup | kLodClamp, S::None},
    {"TXB",      Op::TXB,      F::Texture,        O::Texture,     1, false, T::Texel,     kLookup | kLodClamp, S::None},
    {"TXD",      Op::TXD,      F::Texture,        O::Texture,     3, false, T::Texel,     kLookup | kLodClamp, S::None},
    {"TXF",      Op::TXF,      F::Texture,        O::Texture,     1, false, T::Texel,     kLookup,      S::None},
    {"TXFMS",    Op::TXFMS,    F::Texture,        O::Texture,     1, false, T::Texel,     kLookup,      S::None},
    {"TXG",      Op::TXG,      F::Texture,        O::Texture,     1, false, T::Texel,     kLookup,      S::None},
    {"TXGO",     Op::TXGO,     F::Texture,        O::Texture,     3, false, T::Texel,     kLookup,      S::None},
    {"TXL",      Op::TXL,      F::Texture,        O::Texture,     1, false, T::Texel,     kLookup,      S::None},
    {"TXQ",      Op::TXQ,      F::Texture,        O::Texture,     1, false, T::None,      kCondCode,    S::None},
    {"LOD",      Op::LOD,      F::Texture,        O::Texture,     1, false, T::Texel,     kAlu,         S::None},
    {"LOADIM",   Op::LOADIM,   F::Image,          O::ImageLoad,   1, false, T::Storage,   kCondCode | kCache | kSparse | kImageFormat, S::None},
    {"STOREIM",  Op::STOREIM,  F::Image,          O::ImageStore,  2, false, T::Storage,   kCache | kImageFormat, S::None},
    {"ATOMIM",   Op::ATOMIM,   F::Image,          O::ImageAtomic, 2, false, T::Storage,   kAtomic | kCondCode | kImageFormat, S::None},
    {"TGBALLOT", Op::TGBALLOT, F::ThreadGroup,    O::DestSources, 1, false, T::Integer,   kAlu,         S::None},
    {"TGALL",    Op::TGALL,    F::ThreadGroup,    O::DestSources, 1, false, T::Any,       kAlu,         S::None},
    {"TGANY",    Op::TGANY,    F::ThreadGroup,    O::DestSources, 1, false, T::Any,       kAlu,         S::None},
    {"TGEQ",     Op::TGEQ,     F::ThreadGroup,    O::DestSources, 1, false, T::Any,       kAlu,         S::None},
    {"SHFIDX",   Op::SHFIDX,   F::ThreadGroup,    O::DestSources, 3, false, T::Integer,   kAlu,         S::None},
    {"SHFUP",    Op::SHFUP,    F::ThreadGroup,    O::DestSources, 3, false, T::Integer,   kAlu,         S::None},
    {"SHFDOWN",  Op::SHFDOWN,  F::ThreadGroup,    O::DestSources, 3, false, T::Integer,   kAlu,         S::None},
    {"SHFXOR",   Op::SHFXOR,   F::ThreadGroup,    O::DestSources, 3, false, T::Integer,   kAlu,         S::None},
    {"IF",       Op::IF,       F::Flow,           O::Flow,        0, false, T::None,      0,            S::None},
    {"ELSE",     Op::ELSE,     F::Flow,           O::Flow,        0, false, T::None,      0,            S::None},
    {"ENDIF",    Op::ENDIF,    F::Flow,           O::Flow,        0, false, T::None,      0,            S::None},
    {"REP",      Op::REP,      F::Flow,           O::Flow,        0, false, T::LoopCount, 0,            S::None},
    {"ENDREP",   Op::ENDREP,   F::Flow,           O::Flow,        0, false, T::None,      0,            S::None},
    {"BRK",      Op::BRK,      F::Flow,           O::Flow,        0, false, T::None,      0,            S::None},
    {"CONT",     Op::CONT,     F::Flow,           O::Flow,        0, false, T::None,      0,            S::None},
    {"CAL",      Op::CAL,      F::Flow,           O::Flow,        0, false, T::None,      0,            S::None},
    {"RET",      Op::RET,      F::Flow,           O::Flow,        0, false, T::None,      0,            S::None},
    {"CALI",     Op::CALI,     F::Flow,           O::Flow,        0, false, T::None,      0,            S::None},
});
// clang-format on

constexpr bool in_op_order() {
  for (size_t i = 0; i < kOpcodes.size(); ++i) {
    if (static_cast<size_t>(kOpcodes[i].op) != i) return false;
  }
  return kOpcodes.size() == static_cast<size_t>(Op::CALI) + 1;
}
static_assert(in_op_order(), "one row per Op, in the order of the enum");

}  // namespace

const OpcodeInfo& opcode_info(Op op) { return kOpcodes[static_cast<size_t>(op)]; }

const OpcodeInfo* find_opcode(std::string_view name) {
  static const std::unordered_map<std::string_view, const OpcodeInfo*> by_name = [] {
    std::unordered_map<std::string_view, const OpcodeInfo*> map;
    for (const OpcodeInfo& info : kOpcodes) map.emplace(info.name, &info);
    return map;
  }();
  auto it = by_name.find(name);
  return it == by_name.end() ? nullptr : it->second;
}

DataType default_type(TypeRule rule) {
  switch (rule) {
    case TypeRule::None: return DataType::None;
    case TypeRule::Integer: return DataType::S32;
    default: return DataType::F32;
  }
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
      // NV_gpu_program5_mem_extended: packed 8/16-bit vectors and halves (LDB STB LDS STS LDC).
      {"S8X2", {DataType::S32, 8, 2}},   {"S8X4", {DataType::S32, 8, 4}},   {"U8X2", {DataType::U32, 8, 2}},
      {"U8X4", {DataType::U32, 8, 4}},   {"S16X2", {DataType::S32, 16, 2}}, {"S16X4", {DataType::S32, 16, 4}},
      {"U16X2", {DataType::U32, 16, 2}}, {"U16X4", {DataType::U32, 16, 4}}, {"F16", {DataType::F32, 16, 1, true}},
      {"F16X2", {DataType::F32, 16, 2, true}}, {"F16X4", {DataType::F32, 16, 4, true}},
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

std::optional<CounterOp> counter_modifier(Op op, std::string_view m) {
  if (op == Op::ATOMCTR) {
    // NV_shader_atomic_counters: <opModifier> ::= "INCR" | "DECR" | "GET"
    if (m == "INCR") return CounterOp::Incr;
    if (m == "DECR") return CounterOp::Decr;
    if (m == "GET") return CounterOp::Get;
    return std::nullopt;
  }
  // ATOMCTROP: what NVIDIA's GLSL compiler writes for ARB_shader_atomic_counter_ops' nine functions.
  static const std::map<std::string_view, CounterOp> table = {
      {"ADD", CounterOp::Add}, {"SUB", CounterOp::Sub}, {"MIN", CounterOp::Min},   {"MAX", CounterOp::Max},
      {"AND", CounterOp::And}, {"OR", CounterOp::Or},   {"XOR", CounterOp::Xor},   {"EXCH", CounterOp::Exch},
      {"CSWAP", CounterOp::CSwap},
  };
  auto it = table.find(m);
  if (it == table.end()) return std::nullopt;
  return it->second;
}

std::optional<ImageFormat> image_format_modifier(std::string_view m) {
  using I = ImageFormat;
  static const std::map<std::string_view, ImageFormat> table = {
      {"RGBA32F", I::RGBA32F},   {"RGBA16F", I::RGBA16F},   {"RG32F", I::RG32F},
      {"RG16F", I::RG16F},       {"R11F_G11F_B10F", I::R11FG11FB10F}, {"R32F", I::R32F},
      {"R16F", I::R16F},         {"RGBA32UI", I::RGBA32UI}, {"RGBA16UI", I::RGBA16UI},
      {"RGB10_A2UI", I::RGB10A2UI}, {"RGBA8UI", I::RGBA8UI}, {"RG32UI", I::RG32UI},
      {"RG16UI", I::RG16UI},     {"RG8UI", I::RG8UI},       {"R32UI", I::R32UI},
      {"R16UI", I::R16UI},       {"R8UI", I::R8UI},         {"RGBA32I", I::RGBA32I},
      {"RGBA16I", I::RGBA16I},   {"RGBA8I", I::RGBA8I},     {"RG32I", I::RG32I},
      {"RG16I", I::RG16I},       {"RG8I", I::RG8I},         {"R32I", I::R32I},
      {"R16I", I::R16I},         {"R8I", I::R8I},           {"RGBA16", I::RGBA16},
      {"RGB10_A2", I::RGB10A2},  {"RGBA8", I::RGBA8},       {"RG16", I::RG16},
      {"RG8", I::RG8},           {"R16", I::R16},           {"R8", I::R8},
      {"RGBA16_SNORM", I::RGBA16_SNORM}, {"RGBA8_SNORM", I::RGBA8_SNORM}, {"RG16_SNORM", I::RG16_SNORM},
      {"RG8_SNORM", I::RG8_SNORM}, {"R16_SNORM", I::R16_SNORM}, {"R8_SNORM", I::R8_SNORM},
  };
  auto it = table.find(m);
  if (it == table.end()) return std::nullopt;
  return it->second;
}

DataType image_format_type(ImageFormat f) {
  using I = ImageFormat;
  switch (f) {
    case I::RGBA32UI: case I::RGBA16UI: case I::RGB10A2UI: case I::RGBA8UI: case I::RG32UI: case I::RG16UI:
    case I::RG8UI: case I::R32UI: case I::R16UI: case I::R8UI:
      return DataType::U32;
    case I::RGBA32I: case I::RGBA16I: case I::RGBA8I: case I::RG32I: case I::RG16I: case I::RG8I: case I::R32I:
    case I::R16I: case I::R8I:
      return DataType::S32;
    default:
      return DataType::F32;
  }
}

ImageFormat packed_image_format(const StorageFormat& f) {
  using I = ImageFormat;
  const uint32_t k = f.count == 1 ? 0 : f.count == 2 ? 1 : 2;
  if (f.half) return std::array{I::R16F, I::RG16F, I::RGBA16F}[k];
  const bool s = f.type == DataType::S32;
  if (f.bits == 8) return s ? std::array{I::R8I, I::RG8I, I::RGBA8I}[k] : std::array{I::R8UI, I::RG8UI, I::RGBA8UI}[k];
  return s ? std::array{I::R16I, I::RG16I, I::RGBA16I}[k] : std::array{I::R16UI, I::RG16UI, I::RGBA16UI}[k];
}

std::optional<TexTarget> texture_target(std::string_view name) {
  using X = TexTarget;
  static const std::map<std::string_view, TexTarget> table = {
      {"1D", X::T1D},           {"2D", X::T2D},           {"3D", X::T3D},
      {"CUBE", X::CUBE},        {"RECT", X::RECT},        {"ARRAY1D", X::ARRAY1D},
      {"ARRAY2D", X::ARRAY2D},  {"ARRAYCUBE", X::ARRAYCUBE}, {"BUFFER", X::BUFFER},
      {"2DMS", X::T2DMS},       {"ARRAY2DMS", X::ARRAY2DMS}, {"SHADOW1D", X::SHADOW1D},
      {"SHADOW2D", X::SHADOW2D}, {"SHADOWRECT", X::SHADOWRECT}, {"SHADOWCUBE", X::SHADOWCUBE},
      {"SHADOWARRAY1D", X::SHADOWARRAY1D}, {"SHADOWARRAY2D", X::SHADOWARRAY2D},
      {"SHADOWARRAYCUBE", X::SHADOWARRAYCUBE},
  };
  auto it = table.find(name);
  if (it == table.end()) return std::nullopt;
  return it->second;
}

TargetShape target_shape(TexTarget t) {
  using X = TexTarget;
  switch (t) {
    case X::T1D: return {TexDim::D1, false, false, false, 1};
    case X::T2D: return {TexDim::D2, false, false, false, 2};
    case X::T3D: return {TexDim::D3, false, false, false, 3};
    case X::CUBE: return {TexDim::Cube, false, false, false, 3};
    case X::RECT: return {TexDim::Rect, false, false, false, 2};
    case X::ARRAY1D: return {TexDim::D1, true, false, false, 2};
    case X::ARRAY2D: return {TexDim::D2, true, false, false, 3};
    case X::ARRAYCUBE: return {TexDim::Cube, true, false, false, 4};
    case X::BUFFER: return {TexDim::Buffer, false, false, false, 1};
    case X::T2DMS: return {TexDim::D2, false, false, true, 2};
    case X::ARRAY2DMS: return {TexDim::D2, true, false, true, 3};
    case X::SHADOW1D: return {TexDim::D1, false, true, false, 1};
    case X::SHADOW2D: return {TexDim::D2, false, true, false, 2};
    case X::SHADOWRECT: return {TexDim::Rect, false, true, false, 2};
    case X::SHADOWCUBE: return {TexDim::Cube, false, true, false, 3};
    case X::SHADOWARRAY1D: return {TexDim::D1, true, true, false, 2};
    case X::SHADOWARRAY2D: return {TexDim::D2, true, true, false, 3};
    case X::SHADOWARRAYCUBE: return {TexDim::Cube, true, true, false, 4};
  }
  return {};
}

std::optional<CondRule> cond_rule(std::string_view m, uint8_t& cc) {
  static const std::map<std::string_view, CondRule> table = {
      {"TR", CondRule::TR}, {"FL", CondRule::FL},   {"EQ", CondRule::EQ},   {"NE", CondRule::NE},
      {"LT", CondRule::LT}, {"LE", CondRule::LE},   {"GT", CondRule::GT},   {"GE", CondRule::GE},
      {"NAN", CondRule::NAN_}, {"LEG", CondRule::LEG}, {"CF", CondRule::CF}, {"NCF", CondRule::NCF},
      {"OF", CondRule::OF}, {"NOF", CondRule::NOF}, {"AB", CondRule::AB},   {"BLE", CondRule::BLE},
      {"SF", CondRule::SF}, {"NSF", CondRule::NSF}, {"ZF", CondRule::ZF},   {"NZF", CondRule::NZF},
      {"NONRESIDENT", CondRule::NONRESIDENT},
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
      "NV_image_formats", "NV_shader_texture_footprint", "NV_compute_shader_derivatives", "NV_texture_multisample",
      "EXT_sparse_texture2", "ARB_sparse_texture_clamp", "EXT_shader_image_load_formatted",
      // What yuzu's GLASM backend and NVIDIA's own GLSL compiler put on line 2 of every program:
      // ARB_derivative_control adds DDX/DDY.FINE/.COARSE (fragment-only, so nothing in compute);
      // NV_parameter_buffer_object2 is LDC / CBUFFER / BUFFER4, part of NV_gpu_program5 anyway;
      // NV_unroll_none asks not to unroll loops (REP loops get the DontUnroll loop control).
      "ARB_derivative_control", "NV_parameter_buffer_object2", "NV_unroll_none"};
  return options;
}

const char* other_stage_opcode(std::string_view name) {
  // NV_fragment_program4 / NV_gpu_program5 fragment-only, NV_geometry_program4 geometry-only and
  // NV_tessellation_program5 instructions, and fragment-only ARB_fragment_program spellings.
  static const std::map<std::string_view, const char*> table = {
      {"KIL", "fragment"},  {"DDX", "fragment"},   {"DDY", "fragment"},  {"IPAC", "fragment"},
      {"IPAO", "fragment"}, {"IPAS", "fragment"},  {"EMIT", "geometry"},
      {"EMITS", "geometry"}, {"ENDPRIM", "geometry"},
  };
  auto it = table.find(name);
  return it == table.end() ? nullptr : it->second;
}

}  // namespace bismuth::nvasm::detail
