// The opcode and modifier tables: what each !!NVcp5.0 opcode is, as data. The instruction parser reads an opcode's
// row to know which modifiers it takes and how its operands are written; the code generator reads the family to
// pick the emitter. A new opcode is a row here, plus its emission in the family's codegen file.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string_view>

#include "ast.hpp"

namespace bismuth::nvasm::detail {

// What the code generator does with an instruction: one emitter per family.
enum class Family : uint8_t {
  Basic,           // MOV ABS ADD SUB MUL MAD MIN MAX, SAD
  Division,        // DIV MOD
  Comparison,      // the set-on instructions, SSG, CMP
  Logic,           // AND OR XOR NOT SHL SHR
  Bits,            // bit fields and bit counts: BFE BFI BFR BTC BTFL BTFM
  Rounding,        // FLR CEIL TRUNC ROUND FRC
  Transcendental,  // RCP RCC RSQ EX2 LG2 SIN COS POW
  DotProduct,      // DP2 DP3 DP4
  Vector,          // NV_gpu_program4's geometric vector instructions: DP2A DPH DST LIT LRP NRM RFL X2D XPD, SCS
  Packing,         // PK2H PK2US PK4B PK4UB (floats -> one 32-bit word), UP2H UP2US UP4B UP4UB (the reverse)
  Conversion,      // I2F CVT PK64 UP64
  ThreadGroup,     // TGBALLOT TGALL TGANY TGEQ, SHF*
  Memory,          // loads, stores and atomics on storage buffers, shared memory and parameter buffers
  Texture,         // TEX TXB TXD TXF TXFMS TXG TXGO TXL TXQ LOD: texture[n] lookups and queries
  Image,           // LOADIM STOREIM ATOMIM: image[n] loads, stores and atomics
  Barrier,         // BAR MEMBAR
  Counter,         // ATOMCTR ATOMCTROP: atomic counters (NV_shader_atomic_counters)
  Flow,            // IF ELSE ENDIF REP ENDREP BRK CONT CAL RET
};

// How the operands are written after the opcode and its modifiers.
enum class OperandForm : uint8_t {
  None,         // BAR, MEMBAR
  DestSources,  // a destination, then `sources` operands
  Load,         // a destination, then a memory reference
  Store,        // an operand, then a memory reference
  Atomic,       // a destination, an operand, then a memory reference
  Flow,         // per opcode: a condition test (IF), a count (REP), a label (CAL), an optional test (BRK CONT RET CAL)
  Texture,      // a destination, `sources` operands (one more where the target needs it), texture[n], a target,
                // an optional immediate offset (1, 2, 3)
  ImageLoad,    // a destination, the coordinate, image[n], a target
  ImageStore,   // image[n], the data, the coordinate, a target
  ImageAtomic,  // a destination, the operand, the coordinate, image[n], a target
  Counter,      // a destination, a COUNTER variable (`c`, `c[3]`, `c[R0.x + 3]`), then `sources` operands
};

// Which type (or storage) modifiers the opcode takes, and its type without one.
enum class TypeRule : uint8_t {
  None,       // no type modifier
  Any,        // one of F32 F64 S32 S64 U32 U64 (short forms F S U); F32 without one
  Float,      // F32 or F64; F32 without one
  Integer,    // S32 S64 U32 U64; S32 without one
  Pair,       // CVT: the destination type, then the source type; both needed
  Storage,    // one storage modifier (U8 ... F64X4), needed; it also gives the register type
  LoopCount,  // REP: the count's type, S U F (32-bit); F32 without one
  Texel,      // texture lookups: the result's type, F S U (F32 S32 U32); F32 without one
};

// The memory an instruction of the Memory family accesses.
enum class MemorySpace : uint8_t { None, Storage, Shared, Constant, Global };

// The other modifiers an opcode takes (a bit set).
enum Modifier : uint16_t {
  kCondCode = 1,       // .CC .CC0 .CC1: update a condition code
  kSaturate = 2,       // .SAT .SSAT
  kHigh = 4,           // .HI: the high half of the product (MUL)
  kCta = 8,            // .CTA: workgroup scope (MEMBAR)
  kCache = 16,         // .COH .VOL: accepted, no effect
  kAtomicOp = 32,      // the atomic operation (ADD ... CSWAP), needed
  kSparse = 64,        // .SPARSE (EXT_sparse_texture2)
  kLodClamp = 128,     // .LODCLAMP (ARB_sparse_texture_clamp)
  kImageFormat = 256,  // an image format (.RGBA8, .R32UI, ...; the GL image unit format names)
  kPrecise = 512,      // .PREC (NV_gpu_program5): the result is precise (no contraction)
  kRounding = 1024,    // .ROUND .TRUNC .FLR .CEIL (CVT)
};

struct OpcodeInfo {
  std::string_view name;
  Op op;
  Family family;
  OperandForm form;
  uint8_t sources;  // register operands of DestSources (a memory reference is not counted)
  bool scalar;      // operands read .x of their swizzle, the result is replicated
  TypeRule types;
  uint16_t modifiers;  // Modifier bits
  MemorySpace space;
};

// The row of `op`.
const OpcodeInfo& opcode_info(Op op);
// The row named `name`, or nullptr for an unknown opcode.
const OpcodeInfo* find_opcode(std::string_view name);

// The register type an instruction has without a type modifier.
DataType default_type(TypeRule rule);

// Modifier names.
std::optional<DataType> type_modifier(std::string_view m);
std::optional<StorageFormat> storage_modifier(std::string_view m);
std::optional<AtomicOp> atomic_modifier(std::string_view m);
std::optional<ImageFormat> image_format_modifier(std::string_view m);
// ATOMCTR's INCR / DECR / GET, ATOMCTROP's ADD ... CSWAP.
std::optional<CounterOp> counter_modifier(Op op, std::string_view m);
// The register type an image format's texels convert to: F32 (float, unorm, snorm), U32 (UI) or S32 (I).
DataType image_format_type(ImageFormat f);
// The image format a packed or F16 storage modifier (NV_gpu_program5_mem_extended; f.bits < 32) describes: its
// elements as the texel's components (U8X4: RGBA8UI, F16X2: RG16F, S16: R16I).
ImageFormat packed_image_format(const StorageFormat& f);
// A texture target name (1D, SHADOW2D, ARRAYCUBE, 2DMS, ...).
std::optional<TexTarget> texture_target(std::string_view name);
// A condition code test (EQ, NE1, ...); `cc` is the condition code register its suffix names.
std::optional<CondRule> cond_rule(std::string_view m, uint8_t& cc);

// The OPTION names the assembler accepts.
const std::set<std::string_view>& known_options();

// Opcodes of other program types (fragment, vertex, geometry, tessellation): a compute program that uses one
// fails to load with a message naming the program type, rather than "unknown opcode". nullptr for others.
const char* other_stage_opcode(std::string_view name);

}  // namespace bismuth::nvasm::detail
