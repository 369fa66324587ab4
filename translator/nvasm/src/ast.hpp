// The parsed form of a !!NVcp5.0 program: declarations resolved to ids, instructions with typed operands.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bismuth/nvasm/assembler.hpp"

namespace bismuth::nvasm::detail {

// A load error: the byte offset it points at and the text after "error: ".
struct Failure {
  size_t offset = 0;
  std::string text;
};

enum class DataType : uint8_t { None, F32, S32, U32, F64, S64, U64 };
inline bool is_64(DataType t) { return t == DataType::F64 || t == DataType::S64 || t == DataType::U64; }
inline bool is_float(DataType t) { return t == DataType::F32 || t == DataType::F64; }
inline bool is_signed(DataType t) { return t == DataType::S32 || t == DataType::S64; }

// Memory access formats (storage modifiers): element type and count.
struct StorageFormat {
  DataType type = DataType::U32;  // value type as the registers see it
  uint8_t bits = 32;              // 8, 16, 32 or 64 bits per element in memory
  uint8_t count = 1;              // 1, 2 or 4 elements
  bool half = false;              // F16, F16X2, F16X4: IEEE halves in memory, f32 in registers
};

enum class AtomicOp : uint8_t { None, Add, Min, Max, IWrap, DWrap, And, Or, Xor, Exch, CSwap };

// NV_shader_atomic_counters' ATOMCTR operations (INCR DECR GET) and the ARB_shader_atomic_counter_ops forms of
// NVIDIA's internal ATOMCTROP (ADD SUB MIN MAX AND OR XOR EXCH CSWAP), all on unsigned 32-bit counters.
enum class CounterOp : uint8_t { None, Incr, Decr, Get, Add, Sub, Min, Max, And, Or, Xor, Exch, CSwap };

// The counter an ATOMCTR / ATOMCTROP names: element `element` (+ temps[rel_temp].rel_component when relative) of
// COUNTER declaration `decl`.
struct CounterRef {
  uint32_t decl = 0;
  uint32_t element = 0;
  bool relative = false;
  uint32_t rel_temp = 0;
  uint8_t rel_component = 0;
  size_t position = 0;
};

enum class CondRule : uint8_t {
  TR, FL, EQ, NE, LT, LE, GT, GE, NAN_, LEG, CF, NCF, OF, NOF, AB, BLE, SF, NSF, ZF, NZF,
  NONRESIDENT,  // EXT_sparse_texture2: the last .SPARSE lookup touched texels that are not resident
};

struct CondTest {
  CondRule rule = CondRule::TR;
  uint8_t cc = 0;  // CC0 or CC1
  std::array<uint8_t, 4> swizzle{0, 1, 2, 3};
  uint8_t swizzle_count = 4;  // 1 when written as a scalar selector
};

struct Literal {
  bool is_float = false;
  double f = 0.0;
  int64_t i = 0;  // integer literals keep their full value (hex up to 64 bits)
};

enum class Builtin : uint8_t {
  LocalId, GlobalId, GroupId, GroupCount, GroupSize, LocalIndex,
  // NV_shader_thread_group's warp and SM numbers: any subgroup size gives them a meaning (docs/nvasm.md).
  WarpId, SmId, WarpsPerSm, SmCount,
  // Values that describe 32-thread warps: they need 32-lane subgroups.
  ThreadId, ThreadEqMask, ThreadGeMask, ThreadGtMask, ThreadLeMask, ThreadLtMask, WarpSize
};
inline bool is_thread_group_builtin(Builtin b) { return b >= Builtin::ThreadId; }

// An element of a PARAM array (or a single PARAM).
struct ParamElement {
  // StorageLen: program.storagelen[i], the size in bytes of the range bound to program.storage[i], in every
  // component (what NVIDIA's driver gives; its compiler writes it for an unsized array's length()).
  enum class Kind : uint8_t { Constant, Local, Env, State, StorageLen } kind = Kind::Constant;
  std::array<Literal, 4> values{};
  uint32_t index = 0;                   // program.local / program.env / program.storagelen index
  Builtin builtin = Builtin::WarpSize;  // State: state.thread.warpsize / warpspersm / smcount
};

struct Operand {
  enum class Kind : uint8_t { Temp, Param, Literal, Builtin, Buffer } kind = Kind::Literal;
  uint32_t id = 0;  // temp, param or buffer (BUFFER / BUFFER4 declaration) id
  uint32_t element = 0;  // array element (constant part of the index)
  bool relative = false;  // element + temps[rel_temp].rel_component
  uint32_t rel_temp = 0;
  uint8_t rel_component = 0;
  std::array<Literal, 4> literal{};
  Builtin builtin = Builtin::LocalId;
  std::array<uint8_t, 4> swizzle{0, 1, 2, 3};
  bool negate = false;
  bool absolute = false;
  size_t offset = 0;
};

struct Dest {
  uint32_t temp = 0;
  uint32_t element = 0;
  bool relative = false;
  uint32_t rel_temp = 0;
  uint8_t rel_component = 0;
  uint8_t mask = 0xF;
  std::optional<CondTest> predicate;
  size_t offset = 0;
};

// A memory reference: storage[buffer][address], cbuffer[buffer][address] or shared[address]; address = temp
// component + offset.
struct MemoryRef {
  bool shared = false;
  bool constant = false;  // a CBUFFER (program.buffer, read by LDC)
  uint32_t buffer = 0;    // the program.storage (or, for `constant`, program.buffer) index
  // Arrays of buffers indexed with a register: `s[R0.x + k][address]`. `buffers` lists the declaration's
  // program.storage / program.buffer indices; the element is buffer_element + temps[buffer_temp].buffer_component,
  // clamped into the array.
  bool dynamic_buffer = false;
  uint32_t buffer_temp = 0;
  uint8_t buffer_component = 0;
  uint32_t buffer_element = 0;
  std::vector<uint32_t> buffers;
  // LDC's operand modifiers (NV_gpu_program5, LDC: "A final operand vector is derived from the base operand vector
  // by applying swizzle, negation, and absolute value operand modifiers"): `-|c[R0.x]|.wzyx`.
  std::array<uint8_t, 4> swizzle{0, 1, 2, 3};
  bool has_swizzle = false;
  bool negate = false;
  bool absolute = false;
  bool has_register = false;
  uint32_t temp = 0;
  uint8_t component = 0;
  int64_t offset = 0;
  size_t position = 0;
  // LOAD / STORE / ATOM (NV_shader_buffer_load / NV_shader_buffer_store): the address is the value of `address`, a
  // scalar integer operand read as U64 (a 32-bit operand zero-extends), not a buffer and offset.
  bool global = false;
  Operand address;
};

enum class Op : uint16_t {
  // arithmetic / logic
  ABS, ADD, AND, BFE, BFI, BFR, BTC, BTFL, BTFM, CEIL, CMP, COS, CVT, DIV, DP2, DP3, DP4, EX2, FLR, FRC, I2F, LG2,
  MAD, MAX, MIN, MOD, MOV, MUL, NOT, OR, PK64, POW, RCP, ROUND, RSQ, SEQ, SFL, SGE, SGT, SHL, SHR, SIN, SLE, SLT,
  SNE, SSG, STR, SUB, TRUNC, UP64, XOR,
  // NV_gpu_program4's vector, packing and ARB-heritage instructions
  DP2A, DPH, DST, LIT, LRP, NRM, PK2H, PK2US, PK4B, PK4UB, RCC, RFL, SAD, SCS, UP2H, UP2US, UP4B, UP4UB, X2D, XPD, SWZ,
  // memory
  LDB, STB, ATOMB, LDS, STS, ATOMS, LDC, LOAD, STORE, ATOM, BAR, MEMBAR,
  // NV_shader_atomic_counters (ATOMCTR) and NVIDIA's internal form for ARB_shader_atomic_counter_ops (ATOMCTROP)
  ATOMCTR, ATOMCTROP,
  // textures and images
  TEX, TXB, TXD, TXF, TXFMS, TXG, TXGO, TXL, TXQ, LOD, LOADIM, STOREIM, ATOMIM,
  // thread group
  TGBALLOT, TGALL, TGANY, TGEQ, SHFIDX, SHFUP, SHFDOWN, SHFXOR,
  // flow control
  IF, ELSE, ENDIF, REP, ENDREP, BRK, CONT, CAL, RET,
  // ARB_shader_subroutine's NV_gpu_program5 interaction: an indirect call through a SUBROUTINE variable
  CALI,
};

// Texture targets (NV_gpu_program4 <texTarget>, NV_gpu_program5, NV_texture_multisample). They also name the image
// targets of LOADIM / STOREIM / ATOMIM (no SHADOW forms there).
enum class TexTarget : uint8_t {
  T1D, T2D, T3D, CUBE, RECT, ARRAY1D, ARRAY2D, ARRAYCUBE, BUFFER, T2DMS, ARRAY2DMS,
  SHADOW1D, SHADOW2D, SHADOWRECT, SHADOWCUBE, SHADOWARRAY1D, SHADOWARRAY2D, SHADOWARRAYCUBE,
};

// The shape a target gives the coordinate operand.
enum class TexDim : uint8_t { D1, D2, D3, Cube, Rect, Buffer };
struct TargetShape {
  TexDim dim = TexDim::D2;
  bool array = false;
  bool shadow = false;
  bool multisample = false;
  uint8_t coords = 2;  // coordinate components, the layer included (not the compare value)
};
TargetShape target_shape(TexTarget t);

// Image formats an image instruction may name (the GL image unit formats of EXT_shader_image_load_store, table
// "Supported image unit formats"); Unknown: the format of the image unit (EXT_shader_image_load_formatted).
enum class ImageFormat : uint8_t {
  Unknown, RGBA32F, RGBA16F, RG32F, RG16F, R11FG11FB10F, R32F, R16F, RGBA32UI, RGBA16UI, RGB10A2UI, RGBA8UI, RG32UI,
  RG16UI, RG8UI, R32UI, R16UI, R8UI, RGBA32I, RGBA16I, RGBA8I, RG32I, RG16I, RG8I, R32I, R16I, R8I, RGBA16, RGB10A2,
  RGBA8, RG16, RG8, R16, R8, RGBA16_SNORM, RGBA8_SNORM, RG16_SNORM, RG8_SNORM, R16_SNORM, R8_SNORM,
};

// The texture or image a texture / image instruction accesses, and the rest of its access description.
struct TextureAccess {
  bool image = false;         // image[n] (LOADIM STOREIM ATOMIM); else texture[n]
  uint32_t unit = 0;          // the texture image unit or image unit
  TexTarget target = TexTarget::T2D;
  uint8_t gather_component = 0;  // TXG / TXGO: texture[n].x .. .w
  bool has_offset = false;       // an immediate texel offset (1, 2, 3)
  bool register_offset = false;  // offset(R0): the texel offset in the last source operand (TXF, TXG)
  std::array<int32_t, 3> offset{};
  ImageFormat format = ImageFormat::Unknown;
  // A TEXTURE / IMAGE array indexed with a register (`t[R0.x + k]`): `units` lists the array's units; the element is
  // element + temps[temp].component, clamped into the array.
  bool dynamic = false;
  uint32_t temp = 0;
  uint8_t component = 0;
  uint32_t element = 0;
  std::vector<uint32_t> units;
  size_t position = 0;     // where texture[n] / image[n] is written
  size_t target_position = 0;
};

struct Instruction {
  Op op = Op::MOV;
  DataType type = DataType::None;      // the opcode's data type (CVT: destination type)
  DataType src_type = DataType::None;  // CVT: source type
  StorageFormat format{};              // memory instructions
  AtomicOp atomic = AtomicOp::None;
  bool update_cc = false;
  uint8_t cc_register = 0;
  bool saturate = false;  // .SAT [0,1]
  bool signed_saturate = false;  // .SSAT [-1,1]
  bool precise = false;   // .PREC (NV_gpu_program5): no contraction or reassociation of the result
  // CVT (NV_gpu_program5): the rounding modifier, and the component sizes of the sized storage modifiers F16, S8,
  // S16, U8, U16 (`type` / `src_type` hold their base type F32, S32, U32; 0: the type's own size).
  enum class Rounding : uint8_t { None, Round, Trunc, Floor, Ceil } rounding = Rounding::None;
  uint8_t dst_bits = 0;
  uint8_t src_bits = 0;
  // SWZ (ARB_vertex_program's extended swizzle): per result component the operand component 0-3, or 4 (0.0) or
  // 5 (1.0), negated where ext_negate has the component's bit.
  std::array<uint8_t, 4> ext_swizzle{0, 1, 2, 3};
  uint8_t ext_negate = 0;
  bool high = false;      // MUL.HI
  bool cta = false;       // MEMBAR.CTA
  bool has_dest = false;
  Dest dest;
  std::vector<Operand> sources;
  std::optional<MemoryRef> memory;
  std::optional<TextureAccess> texture;  // texture and image instructions
  bool sparse = false;     // .SPARSE (EXT_sparse_texture2): residency to the NONRESIDENT condition code test
  bool lod_clamp = false;  // .LODCLAMP (ARB_sparse_texture_clamp): a minimum level of detail
  std::optional<CondTest> condition;  // IF / BRK / CONT / RET / CAL / CALI
  CounterOp counter_op = CounterOp::None;  // ATOMCTR / ATOMCTROP
  std::optional<CounterRef> counter;
  uint32_t label = 0;                 // CAL target subroutine; CALI: the SUBROUTINE variable
  // CALI's `<optArrayMem>`: the element of a SUBROUTINE array (constant, or element + temps[rel_temp].rel_component,
  // clamped into the array).
  uint32_t call_element = 0;
  bool call_relative = false;
  uint32_t call_rel_temp = 0;
  uint8_t call_rel_component = 0;
  size_t offset = 0;
};

// NV_gpu_program4's variable type modifiers INT, UINT, FLOAT: an instruction that reads or writes the variable as
// another type is a load error (as on NVIDIA's driver: "data type mismatch").
enum class VarType : uint8_t { Any, Int, UInt, Float };

struct Temp {
  std::string name;
  bool is_long = false;
  uint32_t count = 0;  // 0: not an array
  bool is_short = false;  // SHORT TEMP: float results written to it are rounded to half precision
  VarType var_type = VarType::Any;
};

struct Param {
  std::string name;
  bool is_array = false;
  std::vector<ParamElement> elements;
  VarType var_type = VarType::Any;
};

// SHARED s[] = { program.sharedmem }; SHARED s[] = { program.sharedmem[a..b] } (bytes a..b, NVIDIA's driver: a
// constant address past b is a load error); SHARED s[] = { program.sharedmem[a] } (the byte a: s[0], whose access
// may be wider); SHARED s = program.sharedmem[a] (one location, read as `s` without an address).
struct SharedDecl {
  std::string name;
  uint32_t base = 0;
  uint32_t last = UINT32_MAX;  // the last byte a range names; UINT32_MAX: to the end of shared memory
  bool is_array = true;
  size_t binding_offset = 0;  // where program.sharedmem[...] is written (offsets are checked at the end)
};

struct StorageDecl {
  std::string name;
  std::vector<uint32_t> program_storage;  // program.storage indices, one per array element
  bool two_dimensional = false;           // `s[][]`: accessed s[buffer][address] even with one buffer
};

// NV_parameter_buffer_object(2) buffer variables over program.buffer[a] (GL uniform buffer binding a):
// BUFFER: 32-bit words, BUFFER4: 16-byte vectors (both read as operands, `b[n]`, `b[R0.x + n]`), CBUFFER: bytes
// (read by LDC with a storage modifier). `first` is the element the variable's element 0 is; `count` the elements.
struct BufferDecl {
  enum class Kind : uint8_t { Words, Vec4, Bytes } kind = Kind::Bytes;
  std::string name;
  std::vector<uint32_t> program_buffer;  // program.buffer indices (CBUFFER arrays: one per element; else one)
  uint32_t first = 0;
  uint32_t count = 0;
  bool is_array = true;          // BUFFER w = program.buffer[a][b] (one element) is read as `w`, without an index
  bool two_dimensional = false;  // CBUFFER `c[][]`: accessed c[buffer][address] even with one buffer
};

// TEXTURE name = texture[n]; TEXTURE name[] = { texture[a..b], ... }; IMAGE the same with image[n].
struct TextureDecl {
  std::string name;
  bool image = false;
  bool is_array = false;
  std::vector<uint32_t> units;
};

// COUNTER declarations (NV_shader_atomic_counters): program.counter[b] is GL atomic counter buffer binding b, an array
// of 32-bit counters (NVIDIA's driver: GLSL `offset = 12` is element 3). `COUNTER c[] = { program.counter[b] };` is
// the whole binding (element i is word i); `COUNTER c = program.counter[b][i];` and `COUNTER c[] = {
// program.counter[b][i], ... };` name single counters (`words`), all of one binding.
struct CounterDecl {
  std::string name;
  uint32_t binding = 0;
  bool whole = false;           // the whole binding: indexed by word, unbounded (as a storage buffer)
  bool is_array = true;         // false: `COUNTER c = program.counter[b][i];`, used as `c`
  std::vector<uint32_t> words;  // !whole: element k is word words[k]
};

struct Subroutine {
  std::string name;  // "" for the code before the first label
  size_t offset = 0;
  std::vector<Instruction> body;
  // `name SUBROUTINENUM(n):` (ARB_shader_subroutine, NV_gpu_program5 interaction): the number
  // ProgramSubroutineParametersuivNV selects it by; -1: none.
  int64_t number = -1;
};

// SUBROUTINETYPE name { label, ... }: the labels (subroutine indices) a SUBROUTINE variable of the type may call.
// Statements naming the same type add to it.
struct SubroutineType {
  std::string name;
  std::vector<uint32_t> labels;  // subroutine indices, resolved at the end of the program, no duplicates
};

// SUBROUTINE Type name = program.subroutine[n]; SUBROUTINE Type name[k] = { program.subroutine[a..b], ... }.
struct SubroutineVar {
  std::string name;
  uint32_t type = 0;
  bool is_array = false;
  std::vector<uint32_t> params;  // program.subroutine indices, one per element
};

struct ParsedProgram {
  std::vector<std::string> options;
  bool variable_group_size = false;
  std::optional<std::array<uint32_t, 3>> group_size;
  uint32_t shared_memory = 0;
  bool has_shared_memory_decl = false;
  std::vector<Temp> temps;
  std::vector<Param> params;
  std::vector<SharedDecl> shareds;
  std::vector<StorageDecl> storages;
  std::vector<uint32_t> storage_lengths;  // program.storage indices program.storagelen[i] names
  std::vector<BufferDecl> buffers;
  std::vector<TextureDecl> textures;  // TEXTURE and IMAGE declarations
  std::vector<CounterDecl> counters;  // COUNTER declarations
  std::vector<Subroutine> subroutines;
  uint32_t entry = 0;  // index of the entry subroutine
  size_t first_thread_group_use = SIZE_MAX;  // offset of the first thread-group instruction or value
  bool uses_local = false;
  bool uses_env = false;
  uint32_t local_count = 0;
  uint32_t env_count = 0;
  std::vector<SubroutineType> subroutine_types;
  std::vector<SubroutineVar> subroutine_vars;
  // program.subroutine: one plus the largest index a SUBROUTINE declaration binds (0: none).
  uint32_t subroutine_param_count = 0;
  // Subroutines in a call cycle (CAL recursion): emitted once per call depth up to kMaxCallDepth (codegen_flow.cpp).
  bool recursive = false;
};

using nvasm::kMaxCallDepth;
using nvasm::kMaxSubroutineNum;
using nvasm::kMaxSubroutineParameters;

}  // namespace bismuth::nvasm::detail
