// SPIR-V emission for parsed !!NVcp5.0 programs.
//
// Registers are untyped: a TEMP is four 32-bit words (LONG TEMP: four 64-bit words), held in a Private variable
// so that subroutines share them. Each instruction loads its operands as raw words, converts them to the opcode's
// data type (bitcast when the widths agree; a value conversion between a 32-bit register and a 64-bit type, as
// NV_gpu_program_fp64 defines), computes on four components, converts back and stores under the write mask and
// the condition-code predicate. Condition codes CC0/CC1 are Private uvec4s with SF, ZF, OF, CF as bits 0..3.
// The optimizer turns all of this into SSA afterwards.
//
// Codegen is the state one emission shares; its members are implemented by concern, one file each:
//   codegen.cpp               the run: module-level variables, functions, dispatch by opcode family, capabilities
//   codegen_types.cpp         types and constants by DataType (the builder keeps the one cache of them)
//   codegen_operands.cpp      register conversions, operand loads, swizzles, destination writes, condition codes
//   codegen_flow.cpp          IF / REP blocks, BRK / CONT / RET, CAL
//   codegen_memory.cpp        loads, stores, atomics and barriers on storage buffers, shared memory, parameter buffers
//   codegen_arithmetic.cpp    the arithmetic families of the opcode table
//   codegen_thread_group.cpp  ballot, votes and shuffles
// The order in which they ask the builder for ids is the module's id order: keep it when moving code around.
#pragma once

#include <spirv/unified1/GLSL.std.450.h>
#include <functional>

#include <array>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "ast.hpp"
#include "bismuth/nvasm/assembler.hpp"
#include "spirv_builder.hpp"

namespace bismuth::nvasm::detail {

// A value of four components of one data type.
struct Val {
  uint32_t id = 0;
  DataType type = DataType::U32;
};

// double -> float without relying on out-of-range conversions (inf for values past the float range).
float narrow(double v);

class Codegen {
 public:
  Codegen(const ParsedProgram& p, const AssembleOptions& o, ProgramInfo& info, Failure& f)
      : p_(p), options_(o), info_(info), failure_(f) {}

  bool run(std::vector<uint32_t>& words);

 private:
  // Inside the emitters Op is a SPIR-V opcode (Op::OpLoad) and AsmOp the assembler's own (AsmOp::ADD).
  using Op = spv::Op;
  using AsmOp = detail::Op;

  static constexpr uint32_t kScopeDevice = 1, kScopeWorkgroup = 2, kScopeSubgroup = 3;
  static constexpr uint32_t kSemAcqRel = 0x8, kSemUniform = 0x40, kSemWorkgroup = 0x100;
  static constexpr uint32_t kMemoryAccessAligned = 0x2;
  static constexpr uint32_t kFlagSF = 1, kFlagZF = 2, kFlagOF = 4, kFlagCF = 8;
  static constexpr uint32_t kFlagNR = 16;  // EXT_sparse_texture2: the last .SPARSE lookup touched non-resident texels
  // TEMP arrays longer than this are zeroed by a loop in main rather than by an OpConstantNull initializer (below
  // the optimizer's scalar-replacement limit of 100 elements, past which its folder crashes on the initializer).
  static constexpr uint32_t kZeroFillLoopElements = 64;

  // ---- codegen.cpp: module-level objects, functions, dispatch
  void setup_globals();
  void declare_registers();
  void declare_storage_buffers();
  void declare_shared_memory();
  void declare_parameter_buffers();
  void declare_group_size();
  uint32_t uniform_block(uint32_t count, uint32_t binding);
  uint32_t builtin_var(spv::BuiltIn which, uint32_t type);
  void finish_module(uint32_t main_id);
  void begin_function(uint32_t id);
  void end_function();
  uint32_t function_var(uint32_t type);
  void zero_fill(uint32_t var, uint32_t count, uint32_t element);
  // for (i = 0; i < count; ++i) *pointer_of(i) = 0 (element: the pointee type).
  void zero_fill_with(uint32_t count, uint32_t element, const std::function<uint32_t(uint32_t)>& pointer_of);
  // ---- codegen_scratch.cpp: TEMP arrays in the scratch storage buffer (AssembleOptions::scratch_threshold_bytes)
  bool temps_in_scratch() const;
  void declare_scratch();
  uint32_t scratch_view(bool wide);
  void scratch_prologue();
  uint32_t scratch_pointer(uint32_t temp, uint32_t index);
  bool function(size_t index, uint32_t id);
  bool instruction(const Instruction& inst);
  void mark_precise(size_t body_start);
  bool fail(const Instruction& inst, std::string text);

  // ---- codegen_types.cpp: types and constants
  uint32_t t_void() { return b_.type_void(); }
  uint32_t t_bool() { return b_.type_bool(); }
  uint32_t t_int(uint32_t width, bool sign) {
    if (width == 64) uses_int64_ = true;
    return b_.type_int(width, sign);
  }
  uint32_t t_float(uint32_t width) {
    if (width == 64) uses_float64_ = true;
    return b_.type_float(width);
  }
  uint32_t t_vec(uint32_t component, uint32_t n) { return b_.type_vector(component, n); }
  uint32_t t_u32() { return t_int(32, false); }
  uint32_t t_i32() { return t_int(32, true); }
  uint32_t t_u64() { return t_int(64, false); }
  uint32_t t_bvec4() { return t_vec(t_bool(), 4); }
  uint32_t t_uvec4() { return t_vec(t_u32(), 4); }
  uint32_t t_uvec3() { return t_vec(t_u32(), 3); }
  uint32_t t_ptr(spv::StorageClass sc, uint32_t type) { return b_.type_pointer(sc, type); }
  uint32_t scalar_type(DataType t);
  uint32_t vec_type(DataType t) { return t_vec(scalar_type(t), 4); }
  uint32_t raw_scalar(bool wide) { return wide ? t_u64() : t_u32(); }
  uint32_t raw_vec(bool wide) { return t_vec(raw_scalar(wide), 4); }
  uint32_t c_u32(uint32_t v) { return b_.constant_u32(v); }
  uint32_t c_i32(int32_t v);
  uint32_t c_bool(bool v);
  uint32_t c_scalar(DataType t, double f, int64_t i, bool from_float);
  uint32_t c_splat(DataType t, double f, int64_t i);
  uint32_t c_literal(const Literal& lit, DataType t) { return c_scalar(t, lit.f, lit.i, lit.is_float); }
  uint32_t c_uvec4(uint32_t a, uint32_t b, uint32_t c, uint32_t d);
  uint32_t c_bvec4(uint8_t mask);
  uint32_t variable(uint32_t ptr_type, spv::StorageClass sc, uint32_t init = 0);
  void decorate(uint32_t target, spv::Decoration d, std::initializer_list<uint32_t> extra = {});
  void member_decorate(uint32_t type, uint32_t member, spv::Decoration d, std::initializer_list<uint32_t> extra = {});

  // ---- codegen_operands.cpp: conversions, operands, results, condition codes
  uint32_t ext(GLSLstd450 which, uint32_t type, std::initializer_list<uint32_t> args);
  uint32_t from_raw(uint32_t raw, bool wide, DataType t);
  uint32_t to_raw(Val v, bool wide);
  Val convert(Val v, DataType to);
  uint32_t swizzle(uint32_t vec, uint32_t type, const std::array<uint8_t, 4>& s);
  uint32_t dynamic_index(uint32_t element, uint32_t rel_temp, uint8_t comp, uint32_t limit);
  // An OpSwitch on `index` (0 .. count-1; the last case is the default) whose case k is emit_case(k): how a
  // register-indexed array of descriptors (buffers, textures, images) reaches each one as its own descriptor.
  bool switch_cases(uint32_t index, uint32_t count, const std::function<bool(uint32_t)>& emit_case);
  uint32_t temp_pointer(uint32_t temp, uint32_t element, bool relative, uint32_t rel_temp, uint8_t rel_comp);
  uint32_t load_temp_raw(uint32_t temp, uint32_t element, bool relative, uint32_t rel_temp, uint8_t rel_comp);
  uint32_t builtin_raw(Builtin which);
  uint32_t param_raw(const Operand& o);
  uint32_t param_element_raw(const ParamElement& e);
  uint32_t buffer_raw(const Operand& o);
  Val load_operand(const Operand& o, DataType t);
  uint32_t component(Val v, uint32_t c);
  Val splat(Val v, uint32_t c);
  Val splat_scalar(uint32_t s, DataType t);
  uint32_t condition_vector(const CondTest& test);
  uint32_t condition_scalar(const CondTest& test);
  uint32_t flags_of(Val v);
  void write_dest(const Instruction& inst, Val v, uint32_t extra_flags = 0);
  // INT / UINT / FLOAT variables: notes the first access as another type (reported after the instruction).
  void check_var_type(VarType declared, const std::string& name, DataType t, size_t offset, bool write);
  uint32_t short_rounded(uint32_t f32vec);
  Val bool_result(uint32_t bvec, DataType t);

  // ---- codegen_flow.cpp: structured control flow
  struct Construct {
    AsmOp kind;
    uint32_t merge = 0;
    uint32_t else_label = 0;
    uint32_t cont = 0;
    uint32_t counter = 0;  // REP with a count: Function variable
    bool else_seen = false;
  };
  void label(uint32_t id);
  void branch(uint32_t target);
  void dead_block();
  uint32_t innermost_loop(bool continue_target);
  void conditional_exit(uint32_t cond, uint32_t target);
  bool flow(const Instruction& inst);
  void begin_if(const Instruction& inst);
  void begin_else();
  void end_if();
  void begin_rep(const Instruction& inst);
  void end_rep();
  void jump(const Instruction& inst);
  void call(const Instruction& inst);
  void indirect_call(const Instruction& inst);
  // The call of subroutine `sub` from the function being emitted (a recursive program: its instance one call
  // deeper, or the call stack overflow), then the overflow check after it.
  void call_subroutine(uint32_t sub);
  // A recursive program's function for (subroutine, call depth), created on first use and emitted by run().
  uint32_t instance(uint32_t sub, uint32_t depth);

  // ---- codegen_memory.cpp: memory, atomics, barriers
  bool barrier(const Instruction& inst);
  bool memory(const Instruction& inst);
  bool memory_access(const Instruction& inst);
  uint32_t byte_address(const MemoryRef& m);
  uint32_t parameter_word_pointer(uint32_t buffer, uint32_t word_index);
  uint32_t word_pointer(const MemoryRef& m, uint32_t word_index);
  uint32_t word_index(uint32_t addr, uint32_t plus_words);
  // Plain (non-atomic) loads and stores of the 32-bit word `word_index`: GPU-address accesses carry the Aligned
  // memory operand PhysicalStorageBuffer pointers need.
  uint32_t load_word(const MemoryRef& m, uint32_t word_index);
  void store_word(const MemoryRef& m, uint32_t word_index, uint32_t value);
  // codegen_pointer.cpp: LOAD / STORE / ATOM on GPU addresses (NV_shader_buffer_load / _store).
  uint32_t global_byte_address(const MemoryRef& m);
  uint32_t global_pointer(uint32_t byte_offset, uint32_t type);
  uint32_t scope_of(const MemoryRef& m) { return c_u32(m.shared ? kScopeWorkgroup : kScopeDevice); }
  bool load(const Instruction& inst);
  bool store(const Instruction& inst);
  uint32_t narrow_address(const MemoryRef& m, const StorageFormat& f);
  uint32_t narrow_element(const StorageFormat& f, uint32_t word, uint32_t shift);
  bool store_narrow(const MemoryRef& m, const StorageFormat& f, Val v);
  void store_field(const MemoryRef& m, uint32_t addr, uint32_t bits, uint32_t w);
  template <class F>
  uint32_t cas_loop(uint32_t ptr, uint32_t scope, F&& next_value, uint32_t word = 0);
  uint32_t atomic_word(AtomicOp op, bool sign, uint32_t ptr, uint32_t scope, uint32_t word, uint32_t a, uint32_t b);
  // OpAtomicFAddEXT (SPV_EXT_shader_atomic_float_add) of `value` to the float (`type`: f32 or f64) at `ptr`.
  uint32_t float_atomic_add(uint32_t ptr, uint32_t scope, uint32_t type, uint32_t value);
  uint32_t storage_view(uint32_t index, uint32_t bits, bool is_float = false);
  bool atomic64(const Instruction& inst);
  bool atomic(const Instruction& inst);
  // cas_loop for callers in other files.
  uint32_t cas_loop_fn(uint32_t ptr, uint32_t scope, const std::function<uint32_t(uint32_t)>& next_value,
                       uint32_t word);
  // ---- codegen_shared64.cpp: shared memory as 64-bit words (programs with 64-bit ATOMS)
  uint32_t shared64_pointer_of_word(uint32_t word_index);
  uint32_t shared64_shift_of_word(uint32_t word_index);
  uint32_t shared64_load_word(uint32_t word_index);
  uint32_t shared64_update_word(uint32_t word_index, const std::function<uint32_t(uint32_t)>& next);
  uint32_t atomic_result(AtomicOp op, bool sign, uint32_t old, uint32_t a, uint32_t b, uint32_t word = 0);
  bool shared64_access(const Instruction& inst);
  // ---- codegen_counter.cpp: atomic counters (ATOMCTR, ATOMCTROP; NV_shader_atomic_counters)
  void declare_counter_buffers();
  uint32_t counter_word(const CounterRef& c);
  bool counter(const Instruction& inst);
  // ---- codegen_atomic_f16.cpp: F16X2 / F16X4 atomics (NV_shader_atomic_fp16_vector)
  bool atomic_f16(const Instruction& inst);

  // ---- codegen_arithmetic.cpp: the arithmetic families (false: a load error)
  bool arithmetic(const Instruction& inst);
  bool basic(const Instruction& inst, uint32_t vt, Val& r, uint32_t& extra_flags);
  bool division(const Instruction& inst, uint32_t vt, Val& r);
  bool comparison(const Instruction& inst, uint32_t vt, Val& r);
  bool logic(const Instruction& inst, uint32_t vt, Val& r);
  bool bit_instruction(const Instruction& inst, uint32_t vt, Val& r);
  bool rounding(const Instruction& inst, Val& r);
  bool transcendental(const Instruction& inst, uint32_t vt, Val& r);
  bool dot_product(const Instruction& inst, Val& r);
  bool conversion(const Instruction& inst, Val& r);
  Val binary(const Instruction& inst, uint32_t vt, Op f_op, Op s_op, Op u_op);
  // codegen_conversion.cpp: CVT
  bool cvt(const Instruction& inst, Val& r);
  uint32_t half_bits(uint32_t f32vec);
  uint32_t from_half_bits(uint32_t u32vec);
  uint32_t half_to_float(uint32_t half);
  Val rounded_half(uint32_t f32vec, bool sat, Instruction::Rounding mode);
  uint32_t directed(uint32_t bits, uint32_t greater, uint32_t less, Instruction::Rounding mode, bool half);
  Val round_integral(Val v, Instruction::Rounding mode);
  // codegen_vector.cpp: NV_gpu_program4's vector and packing instructions
  bool vector_instruction(const Instruction& inst, Val& r);
  bool packing(const Instruction& inst, Val& r);
  uint32_t add_sub_flags(AsmOp op, Val a, Val b, Val r);
  // OF | CF condition-code bits of r = a + b (r = a - b) on integers; addition_flags serves every instruction
  // whose last step is an integer addition (ADD, MAD, SAD).
  uint32_t addition_flags(Val a, Val b, Val r);
  uint32_t subtraction_flags(Val a, Val b, Val r);
  uint32_t sign_set(uint32_t bits, DataType like);
  uint32_t overflow_carry_bits(uint32_t of, uint32_t cf);
  uint32_t shift(Op op, DataType t, uint32_t value, uint32_t count_u32);
  uint32_t clamp_field(uint32_t v);
  uint32_t convert_bits_signed(Val v);

  // ---- codegen_texture.cpp: texture lookups and queries; codegen_image.cpp: image loads, stores, atomics
  struct TextureVar {
    uint32_t var = 0;
    uint32_t image_type = 0;    // OpTypeImage
    uint32_t sampled_type = 0;  // OpTypeSampledImage (0 for buffer textures and images)
  };
  bool texture_family(const Instruction& inst);
  bool texture_access(const Instruction& inst);
  const TextureVar& texture_var(const TextureAccess& t, DataType type);
  const TextureVar& image_var(const TextureAccess& t, DataType type, ImageFormat format);
  uint32_t texture_image(const TextureVar& v);
  uint32_t pick(Val v, uint32_t first, uint32_t count);
  uint32_t rect_scale(uint32_t image, uint32_t coords);
  uint32_t offset_constant(const TextureAccess& t, uint32_t n);
  Val texel_result(uint32_t texel, DataType type, bool scalar_compare);
  // Sets residency_ (bool: every texel resident).
  Val sparse_result(uint32_t returned, uint32_t texel_type, DataType type, bool scalar_compare);
  void write_residency(const Instruction& inst);
  bool lookup(const Instruction& inst);
  bool fetch(const Instruction& inst);
  bool gather(const Instruction& inst);
  bool query(const Instruction& inst);
  bool image(const Instruction& inst);
  bool image_atomic(const Instruction& inst, const TextureVar& v, uint32_t coords, uint32_t sample);
  Val narrow_texel(Val texel, const StorageFormat& f);
  bool image_float_atomic(const Instruction& inst, const TextureVar& v, uint32_t coords, uint32_t sample);
  void need(spv::Capability c) { image_caps_.insert(static_cast<uint32_t>(c)); }

  // ---- codegen_thread_group.cpp: ballot, votes, shuffles
  bool thread_group(const Instruction& inst, Val& r);
  Val shuffle(const Instruction& inst, uint32_t subgroup);

  const ParsedProgram& p_;
  const AssembleOptions& options_;
  ProgramInfo& info_;
  Failure& failure_;
  SpirvBuilder b_;
  uint32_t glsl_ = 0;
  std::vector<uint32_t> temp_vars_;
  // TEMP index -> byte offset of its array in the invocation's scratch slice (arrays in scratch only).
  std::map<uint32_t, uint32_t> scratch_offsets_;
  uint32_t scratch_bytes_ = 0;               // the slice size, a multiple of 32
  std::array<uint32_t, 2> scratch_views_{};  // the scratch buffer as uvec4s / u64vec4s
  uint32_t scratch_base_var_ = 0;            // Private u32: the linear global invocation index
  std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> zero_filled_;  // (variable, elements, element type)
  std::array<uint32_t, 2> cc_vars_{};
  std::map<uint32_t, uint32_t> storage_vars_;
  std::map<uint32_t, uint32_t> counter_vars_;  // program.counter binding -> storage block variable
  std::map<uint32_t, uint32_t> parameter_vars_;  // program.buffer index -> uniform block variable
  std::map<uint32_t, uint32_t> param_arrays_;
  std::map<uint32_t, uint32_t> builtin_vars_;
  std::set<uint32_t> decorated_ubo_types_;
  uint32_t shared_var_ = 0, shared_words_ = 1;
  bool shared64_ = false;  // shared memory is an array of 64-bit words (codegen_shared64.cpp)
  // The 32-byte aligned part of the current GPU-address access's address (u64; codegen_pointer.cpp).
  uint32_t global_base_ = 0;
  bool uses_pointers_ = false;
  bool uses_int64_shared_atomics_ = false;
  uint32_t local_var_ = 0, env_var_ = 0;
  uint32_t group_size_ = 0;
  std::vector<uint32_t> fn_ids_;
  // Recursive programs (ParsedProgram::recursive): a function per (subroutine, call depth) reached, in creation
  // order; the depth of the one being emitted; a Private bool set when a call overflows the call stack.
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> instance_ids_;
  std::vector<std::pair<uint32_t, uint32_t>> instances_;
  uint32_t depth_ = 0;
  uint32_t overflow_var_ = 0;
  uint32_t subroutine_var_ = 0;  // program.subroutine uniform block
  std::vector<uint32_t> function_vars_;
  std::vector<Construct> constructs_;
  std::vector<uint32_t> loop_headers_;
  // program.storage index -> its view as 8-, 16- or 64-bit elements (another block variable on the same binding).
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> storage_views_;                       // (bits, index) -> variable
  std::map<std::tuple<bool, uint32_t, DataType, ImageFormat>, TextureVar> texture_vars_;  // (image, unit, ...)
  std::set<uint32_t> image_caps_;  // capabilities the texture and image instructions need
  bool uses_sparse_ = false, uses_image_extended_formats_ = false;
  bool uses_image_float_add_ = false, uses_image_float_atomics_ = false;
  bool uses_buffer_float_add_ = false, uses_buffer_double_add_ = false;
  bool uses_float32_add_ = false, uses_float64_add_ = false;  // the AtomicFloat32/64AddEXT capabilities
  uint32_t residency_ = 0;  // the last sparse lookup's residency (bool)
  std::optional<Failure> type_error_;  // check_var_type's first mismatch
  bool uses_int64_atomics_ = false, uses_storage8_ = false, uses_storage16_ = false;
  bool uses_int64_ = false, uses_float64_ = false, uses_subgroup_ = false, uses_ballot_ = false, uses_vote_ = false,
       uses_shuffle_ = false;
};

// Straightforward SPIR-V for a parsed program: one Private variable per register, every instruction as
// load operands -> convert to the opcode's type -> compute on four components -> convert back -> masked store.
// Sets the uses_* features of `info`.
// The program has 64-bit ATOMS (shared memory as 64-bit words where the device has shaderSharedInt64Atomics).
bool program_has_wide_shared_atomics(const ParsedProgram& p);

bool generate_spirv(const ParsedProgram& program, const AssembleOptions& options, std::vector<uint32_t>& words,
                    ProgramInfo& info, Failure& failure);

}  // namespace bismuth::nvasm::detail
