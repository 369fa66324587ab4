// The run of the code generator: module-level variables, one function per subroutine, dispatch of each
// instruction to its family's emitter, and the module's capabilities and entry point.
#include "codegen.hpp"

#include <algorithm>

#include "opcode_table.hpp"
#include "program_info.hpp"

namespace bismuth::nvasm::detail {

bool Codegen::run(std::vector<uint32_t>& words) {
  glsl_ = b_.id();
  size_t instructions = 0;
  for (const auto& sub : p_.subroutines) instructions += sub.body.size();
  b_.body.reserve(instructions * 64);
  b_.functions.reserve(instructions * 64);
  setup_globals();
  // Subroutines: one function each, then the entry point calling the entry subroutine. A recursive program: one
  // function per (subroutine, call depth) that the entry subroutine at depth 0 reaches (codegen_flow.cpp).
  uint32_t entry_id;
  if (p_.recursive) {
    overflow_var_ = variable(t_ptr(spv::StorageClass::Private, t_bool()), spv::StorageClass::Private, c_bool(false));
    entry_id = instance(p_.entry, 0);
    for (size_t i = 0; i < instances_.size(); ++i) {
      const auto [sub, depth] = instances_[i];
      depth_ = depth;
      if (!function(sub, instance_ids_[instances_[i]])) return false;
    }
  } else {
    fn_ids_.resize(p_.subroutines.size());
    for (auto& id : fn_ids_) id = b_.id();
    for (size_t i = 0; i < p_.subroutines.size(); ++i) {
      if (!function(i, fn_ids_[i])) return false;
    }
    entry_id = fn_ids_[p_.entry];
  }
  const uint32_t main_id = b_.id();
  begin_function(main_id);
  for (const auto& [var, count, element] : zero_filled_) zero_fill(var, count, element);
  scratch_prologue();
  b_.op(Op::OpFunctionCall, t_void(), {entry_id});
  b_.inst(Op::OpReturn, {});
  end_function();
  finish_module(main_id);
  words = b_.finish();
  return true;
}

// ---------------------------------------------------------------- module-level objects
void Codegen::setup_globals() {
  declare_registers();
  declare_storage_buffers();
  declare_counter_buffers();
  declare_shared_memory();
  declare_parameter_buffers();
  declare_group_size();
}

void Codegen::declare_registers() {
  const bool scratch = temps_in_scratch();
  for (const Temp& t : p_.temps) {
    if (scratch && t.count) {
      temp_vars_.push_back(0);  // in the scratch buffer (declare_scratch)
      continue;
    }
    const uint32_t element = raw_vec(t.is_long);
    const uint32_t type = t.count ? b_.global(Op::OpTypeArray, {element, c_u32(t.count)}, false) : element;
    // Zero-initialized, so a program that reads a register before writing it is at least deterministic. A long
    // array is zeroed by a loop at the start of main instead of an initializer: SPIRV-Tools' folder crashes
    // (FoldInsertWithConstants, in the simplification pass) on a null array initializer too long for scalar
    // replacement (over 100 elements; limits_test's 101-element case), and a null composite of tens of thousands
    // of elements is that many constants for a driver.
    const bool loop = t.count > kZeroFillLoopElements;
    const uint32_t zero = loop ? 0 : b_.global(Op::OpConstantNull, {type}, true);
    temp_vars_.push_back(variable(t_ptr(spv::StorageClass::Private, type), spv::StorageClass::Private, zero));
    if (loop) zero_filled_.push_back({temp_vars_.back(), t.count, element});
  }
  if (scratch) declare_scratch();
  for (auto& cc : cc_vars_) {
    cc = variable(t_ptr(spv::StorageClass::Private, t_uvec4()), spv::StorageClass::Private, c_uvec4(0, 0, 0, 0));
  }
}

// One block variable per program.storage index a STORAGE declaration binds.
void Codegen::declare_storage_buffers() {
  const std::vector<uint32_t> indices = declared_storage_buffers(p_);
  if (indices.empty()) return;
  const uint32_t rt = b_.global(Op::OpTypeRuntimeArray, {t_u32()}, false);
  const uint32_t block = b_.global(Op::OpTypeStruct, {rt}, false);
  decorate(rt, spv::Decoration::ArrayStride, {4});
  decorate(block, spv::Decoration::Block);
  member_decorate(block, 0, spv::Decoration::Offset, {0});
  const uint32_t ptr = t_ptr(spv::StorageClass::StorageBuffer, block);
  for (uint32_t index : indices) {
    const uint32_t var = variable(ptr, spv::StorageClass::StorageBuffer);
    decorate(var, spv::Decoration::DescriptorSet, {0});
    decorate(var, spv::Decoration::Binding, {storage_binding(options_, index)});
    storage_vars_[index] = var;
  }
}

void Codegen::declare_shared_memory() {
  if (!p_.has_shared_memory_decl && !p_.shared_memory) return;
  if (options_.int64_shared_atomics && program_has_wide_shared_atomics(p_)) {
    // 64-bit ATOMS: an array of 64-bit words (codegen_shared64.cpp); shared_words_ still counts 32-bit words.
    const uint32_t words64 = std::max<uint32_t>(1, (p_.shared_memory + 7) / 8);
    shared64_ = true;
    shared_words_ = 2 * words64;
    const uint32_t arr = b_.global(Op::OpTypeArray, {t_u64(), c_u32(words64)}, false);
    shared_var_ = variable(t_ptr(spv::StorageClass::Workgroup, arr), spv::StorageClass::Workgroup);
    return;
  }
  const uint32_t words = std::max<uint32_t>(1, (p_.shared_memory + 3) / 4);
  shared_words_ = words;
  const uint32_t arr = b_.global(Op::OpTypeArray, {t_u32(), c_u32(words)}, false);
  shared_var_ = variable(t_ptr(spv::StorageClass::Workgroup, arr), spv::StorageClass::Workgroup);
}

// One uniform block per program.buffer index a BUFFER, BUFFER4 or CBUFFER declaration binds, and the
// program.local and program.env blocks.
void Codegen::declare_parameter_buffers() {
  for (uint32_t index : declared_parameter_buffers(p_)) {
    parameter_vars_[index] =
        uniform_block(parameter_buffer_window(options_) / 16, parameter_buffer_binding(options_, index));
  }
  if (p_.local_count) local_var_ = uniform_block(p_.local_count, kLocalParameterBinding);
  if (p_.env_count) env_var_ = uniform_block(p_.env_count, kEnvParameterBinding);
  if (p_.subroutine_param_count) {
    subroutine_var_ = uniform_block(p_.subroutine_param_count, kSubroutineParameterBinding);
  }
}

void Codegen::declare_group_size() {
  if (p_.variable_group_size) {
    std::array<uint32_t, 3> ids{};
    for (int i = 0; i < 3; ++i) {
      ids[i] = b_.id();
      SpirvBuilder::put(b_.globals, Op::OpSpecConstant, {t_u32(), ids[i], 1});
      decorate(ids[i], spv::Decoration::SpecId, {kGroupSizeSpecIds[i]});
    }
    group_size_ = b_.id();
    SpirvBuilder::put(b_.globals, Op::OpSpecConstantComposite, {t_uvec3(), group_size_, ids[0], ids[1], ids[2]});
    decorate(group_size_, spv::Decoration::BuiltIn, {static_cast<uint32_t>(spv::BuiltIn::WorkgroupSize)});
  } else {
    const auto& s = *p_.group_size;
    group_size_ = b_.global(Op::OpConstantComposite, {t_uvec3(), c_u32(s[0]), c_u32(s[1]), c_u32(s[2])}, true);
  }
}

uint32_t Codegen::uniform_block(uint32_t count, uint32_t binding) {
  // Distinct array lengths make distinct types; the same length shares one block type, which is fine.
  const uint32_t arr = b_.global(Op::OpTypeArray, {t_uvec4(), c_u32(count)}, false);
  const uint32_t block = b_.global(Op::OpTypeStruct, {arr}, false);
  if (decorated_ubo_types_.insert(block).second) {
    decorate(arr, spv::Decoration::ArrayStride, {16});
    decorate(block, spv::Decoration::Block);
    member_decorate(block, 0, spv::Decoration::Offset, {0});
  }
  const uint32_t var = variable(t_ptr(spv::StorageClass::Uniform, block), spv::StorageClass::Uniform);
  decorate(var, spv::Decoration::DescriptorSet, {0});
  decorate(var, spv::Decoration::Binding, {binding});
  return var;
}

uint32_t Codegen::builtin_var(spv::BuiltIn which, uint32_t type) {
  auto it = builtin_vars_.find(static_cast<uint32_t>(which));
  if (it != builtin_vars_.end()) return it->second;
  const uint32_t var = variable(t_ptr(spv::StorageClass::Input, type), spv::StorageClass::Input);
  decorate(var, spv::Decoration::BuiltIn, {static_cast<uint32_t>(which)});
  builtin_vars_[static_cast<uint32_t>(which)] = var;
  return var;
}

void Codegen::finish_module(uint32_t main_id) {
  auto cap = [&](spv::Capability c) {
    SpirvBuilder::put(b_.capabilities, Op::OpCapability, {static_cast<uint32_t>(c)});
  };
  cap(spv::Capability::Shader);
  if (uses_int64_) cap(spv::Capability::Int64);
  if (uses_int64_atomics_ || uses_int64_shared_atomics_) cap(spv::Capability::Int64Atomics);
  if (uses_storage8_) {
    cap(spv::Capability::StorageBuffer8BitAccess);
    std::vector<uint32_t> name;
    SpirvBuilder::put_string(name, "SPV_KHR_8bit_storage");
    SpirvBuilder::put(b_.extensions, Op::OpExtension, name);
  }
  if (uses_storage16_) cap(spv::Capability::StorageBuffer16BitAccess);
  if (uses_pointers_) {
    cap(spv::Capability::PhysicalStorageBufferAddresses);
    std::vector<uint32_t> name;
    SpirvBuilder::put_string(name, "SPV_KHR_physical_storage_buffer");
    SpirvBuilder::put(b_.extensions, Op::OpExtension, name);
  }
  if (uses_float32_add_) cap(spv::Capability::AtomicFloat32AddEXT);
  if (uses_float64_add_) cap(spv::Capability::AtomicFloat64AddEXT);
  if (uses_float32_add_ || uses_float64_add_) {
    std::vector<uint32_t> name;
    SpirvBuilder::put_string(name, "SPV_EXT_shader_atomic_float_add");
    SpirvBuilder::put(b_.extensions, Op::OpExtension, name);
  }
  if (uses_float64_) cap(spv::Capability::Float64);
  if (uses_subgroup_) cap(spv::Capability::GroupNonUniform);
  if (uses_ballot_) cap(spv::Capability::GroupNonUniformBallot);
  if (uses_vote_) cap(spv::Capability::GroupNonUniformVote);
  if (uses_shuffle_) cap(spv::Capability::GroupNonUniformShuffle);
  for (uint32_t c : image_caps_) cap(static_cast<spv::Capability>(c));
  std::vector<uint32_t> import = {glsl_};
  SpirvBuilder::put_string(import, "GLSL.std.450");
  SpirvBuilder::put(b_.imports, Op::OpExtInstImport, import);
  SpirvBuilder::put(
      b_.memory_model, Op::OpMemoryModel,
      {static_cast<uint32_t>(uses_pointers_ ? spv::AddressingModel::PhysicalStorageBuffer64
                                            : spv::AddressingModel::Logical),
       static_cast<uint32_t>(spv::MemoryModel::GLSL450)});
  std::vector<uint32_t> entry = {static_cast<uint32_t>(spv::ExecutionModel::GLCompute), main_id};
  SpirvBuilder::put_string(entry, "main");
  // SPIR-V 1.3: the interface lists Input and Output variables only.
  for (const auto& [builtin, var] : builtin_vars_) entry.push_back(var);
  SpirvBuilder::put(b_.entry_points, Op::OpEntryPoint, entry);
  const auto size = p_.variable_group_size ? std::array<uint32_t, 3>{1, 1, 1} : *p_.group_size;
  SpirvBuilder::put(b_.modes, Op::OpExecutionMode,
                    {main_id, static_cast<uint32_t>(spv::ExecutionMode::LocalSize), size[0], size[1], size[2]});
  info_.uses_int64 = uses_int64_;
  info_.uses_int64_atomics = uses_int64_atomics_;
  info_.uses_int64_shared_atomics = uses_int64_shared_atomics_;
  info_.uses_storage_buffer_8bit = uses_storage8_;
  info_.uses_storage_buffer_16bit = uses_storage16_;
  info_.uses_float64 = uses_float64_;
  info_.uses_subgroup_basic = uses_subgroup_;
  info_.uses_subgroup_ballot = uses_ballot_;
  info_.uses_subgroup_vote = uses_vote_;
  info_.uses_subgroup_shuffle = uses_shuffle_;
  info_.uses_sparse_residency = uses_sparse_;
  info_.uses_buffer_device_address = uses_pointers_;
  info_.uses_storage_image_extended_formats = uses_image_extended_formats_;
  auto has = [&](spv::Capability c) { return image_caps_.count(static_cast<uint32_t>(c)) != 0; };
  info_.uses_storage_image_multisample = has(spv::Capability::StorageImageMultisample);
  info_.uses_image_cube_array = has(spv::Capability::SampledCubeArray) || has(spv::Capability::ImageCubeArray);
  info_.uses_image_gather_extended = has(spv::Capability::ImageGatherExtended);
  info_.uses_min_lod = has(spv::Capability::MinLod);
  info_.uses_image_float32_atomics = uses_image_float_atomics_;
  info_.uses_image_float32_atomic_add = uses_image_float_add_;
  info_.uses_buffer_float32_atomic_add = uses_buffer_float_add_;
  info_.uses_buffer_float64_atomic_add = uses_buffer_double_add_;
  info_.uses_storage_image_read_without_format =
      image_caps_.count(static_cast<uint32_t>(spv::Capability::StorageImageReadWithoutFormat)) != 0;
  info_.uses_storage_image_write_without_format =
      image_caps_.count(static_cast<uint32_t>(spv::Capability::StorageImageWriteWithoutFormat)) != 0;
}

// ---------------------------------------------------------------- functions
void Codegen::begin_function(uint32_t id) {
  b_.body.clear();
  function_vars_.clear();
  const uint32_t fn_type = b_.global(Op::OpTypeFunction, {t_void()}, false);
  SpirvBuilder::put(b_.functions, Op::OpFunction, {t_void(), id, 0, fn_type});
  SpirvBuilder::put(b_.functions, Op::OpLabel, {b_.id()});
}

void Codegen::end_function() {
  b_.functions.insert(b_.functions.end(), function_vars_.begin(), function_vars_.end());
  b_.functions.insert(b_.functions.end(), b_.body.begin(), b_.body.end());
  SpirvBuilder::put(b_.functions, Op::OpFunctionEnd, {});
  b_.body.clear();
}

// for (i = 0; i < count; ++i) var[i] = 0; in the current function.
void Codegen::zero_fill(uint32_t var, uint32_t count, uint32_t element) {
  zero_fill_with(count, element, [&](uint32_t n) {
    return b_.op(Op::OpAccessChain, t_ptr(spv::StorageClass::Private, element), {var, n});
  });
}

void Codegen::zero_fill_with(uint32_t count, uint32_t element, const std::function<uint32_t(uint32_t)>& pointer_of) {
  const uint32_t i = function_var(t_u32());
  b_.inst(Op::OpStore, {i, c_u32(0)});
  const uint32_t header = b_.id(), check = b_.id(), body = b_.id(), cont = b_.id(), merge = b_.id();
  branch(header);
  label(header);
  b_.inst(Op::OpLoopMerge, {merge, cont, 0});
  branch(check);
  label(check);
  const uint32_t n = b_.op(Op::OpLoad, t_u32(), {i});
  b_.inst(Op::OpBranchConditional, {b_.op(Op::OpULessThan, t_bool(), {n, c_u32(count)}), body, merge});
  label(body);
  const uint32_t ptr = pointer_of(n);
  b_.inst(Op::OpStore, {ptr, b_.global(Op::OpConstantNull, {element}, true)});
  branch(cont);
  label(cont);
  b_.inst(Op::OpStore, {i, b_.op(Op::OpIAdd, t_u32(), {n, c_u32(1)})});
  branch(header);
  label(merge);
}

uint32_t Codegen::function_var(uint32_t type) {
  const uint32_t v = b_.id();
  SpirvBuilder::put(function_vars_, Op::OpVariable,
                    {t_ptr(spv::StorageClass::Function, type), v, static_cast<uint32_t>(spv::StorageClass::Function)});
  return v;
}

bool Codegen::function(size_t index, uint32_t id) {
  const Subroutine& sub = p_.subroutines[index];
  begin_function(id);
  constructs_.clear();
  for (const Instruction& inst : sub.body) {
    if (!instruction(inst)) return false;
  }
  b_.inst(Op::OpReturn, {});
  end_function();
  return true;
}

// ---------------------------------------------------------------- dispatch
bool Codegen::instruction(const Instruction& inst) {
  const size_t body_start = b_.body.size();
  bool ok;
  switch (opcode_info(inst.op).family) {
    case Family::Flow: ok = flow(inst); break;
    case Family::Barrier: ok = barrier(inst); break;
    case Family::Memory: ok = memory(inst); break;
    case Family::Counter: ok = counter(inst); break;
    case Family::Texture:
    case Family::Image: ok = texture_family(inst); break;
    default:
      ok = arithmetic(inst);
      if (ok && inst.precise) mark_precise(body_start);
      break;
  }
  if (ok && type_error_) {
    failure_ = *type_error_;
    return false;
  }
  return ok;
}

// NV_gpu_program5 .PREC: "When ".PREC" is specified, the instruction will be executed in a manner that always
// generates the same result regardless of the program instructions that precede or follow the instruction." Every
// floating-point arithmetic instruction the instruction emitted gets NoContraction, so that no consumer fuses it
// with a neighbour (a MUL.PREC feeding an ADD.PREC stays two roundings).
void Codegen::mark_precise(size_t body_start) {
  const std::vector<uint32_t>& body = b_.body;
  for (size_t i = body_start; i < body.size();) {
    const uint32_t count = body[i] >> 16;
    const auto opcode = static_cast<Op>(body[i] & 0xFFFF);
    if (count == 0) break;
    switch (opcode) {
      case Op::OpFAdd: case Op::OpFSub: case Op::OpFMul: case Op::OpFDiv: case Op::OpFRem: case Op::OpFMod:
      case Op::OpFNegate: case Op::OpVectorTimesScalar: case Op::OpDot:
        if (count >= 3) decorate(body[i + 2], spv::Decoration::NoContraction);
        break;
      default: break;
    }
    i += count;
  }
}

bool Codegen::fail(const Instruction& inst, std::string text) {
  failure_ = {inst.offset, std::move(text)};
  return false;
}

bool generate_spirv(const ParsedProgram& program, const AssembleOptions& options, std::vector<uint32_t>& words,
                    ProgramInfo& info, Failure& failure) {
  Codegen gen(program, options, info, failure);
  return gen.run(words);
}

}  // namespace bismuth::nvasm::detail
