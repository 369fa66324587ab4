// lower_float_compare_swap (passes/float_compare_swap.hpp). Sources: SPIR-V 1.6 section 3.42.18
// (OpAtomicCompareExchange: "Result Type must be an integer type scalar"), 2.18.2 (Aliased), Vulkan 1.3 section 15.6
// (descriptor set interface: several variables may share a DescriptorSet and Binding), GLSL 4.60 section 8.11 ("Atomic
// memory functions are supported only for a limited set of variables ... buffer or shared variable"; atomicCompSwap:
// "If the content of mem is equal to compare", equality being GLSL's `==` on floats: OpFOrdEqual, section 3.42.15).
#define SPV_ENABLE_UTILITY_CODE  // HasResultAndType
#include <spirv/unified1/spirv.hpp11>

#include "bismuth/spirv_patch/passes/float_compare_swap.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include "analysis/type_queries.hpp"
#include "analysis/use_index.hpp"
#include "block_split.hpp"
#include "variable_edits.hpp"

namespace bismuth::spirv_patch {

namespace {

using spv::Op;

constexpr uint32_t kScopeDevice = 1;  // the scope glslang gives GLSL's atomic memory functions
constexpr uint32_t kSemanticsNone = 0;

bool is_float32(const Module& m, uint32_t type) {
  auto def = m.definition(type);
  return def && m.opcode(*def) == Op::OpTypeFloat && m.words(*def)[2] == 32;
}

std::optional<uint32_t> constant_value(const Module& m, uint32_t id) {
  auto def = m.definition(id);
  if (!def || m.opcode(*def) != Op::OpConstant || m.words(*def).size() != 4) return std::nullopt;
  return m.words(*def)[3];
}

// The OpName of `id`, quoted, or the id itself.
std::string name_of(const Module& m, uint32_t id) {
  for (InstructionHandle h : m.instructions(Section::Debug)) {
    if (m.opcode(h) == Op::OpName && m.words(h)[1] == id && !m.string_operand(h, 2).empty()) {
      return "'" + std::string(m.string_operand(h, 2)) + "'";
    }
  }
  return id_name(id);
}

bool has_decoration(const Module& m, uint32_t id, spv::Decoration decoration) {
  for (InstructionHandle h : m.instructions(Section::Annotation)) {
    const auto w = m.words(h);
    if (m.opcode(h) == Op::OpDecorate && w[1] == id && w[2] == uint32_t(decoration)) return true;
  }
  return false;
}

// Literal of OpMemberDecorate struct member decoration, if present.
std::optional<uint32_t> member_decoration(const Module& m, uint32_t type, uint32_t member, spv::Decoration decoration) {
  for (InstructionHandle h : m.instructions(Section::Annotation)) {
    const auto w = m.words(h);
    if (m.opcode(h) == Op::OpMemberDecorate && w[1] == type && w[2] == member && w[3] == uint32_t(decoration)) {
      return w.size() > 4 ? w[4] : 0;
    }
  }
  return std::nullopt;
}

// One term of a word index: a constant, or `index` times `words_per_step`.
struct IndexTerm {
  uint32_t index = 0;  // id of the dynamic index (0: constant term)
  bool index_signed = false;
  uint64_t words = 0;  // constant words, or words per step of `index`
};

// A marker and how to reach its memory through a uint view.
struct Marker {
  InstructionHandle handle = 0;
  uint32_t root = 0;                  // the OpVariable
  spv::StorageClass storage{};        // StorageBuffer / Uniform (buffer) or Workgroup (shared)
  uint32_t descriptor_index = 0;      // buffer: the index into an array of blocks (0: none)
  std::vector<IndexTerm> word_terms;  // buffer: the word offset inside the block
};

std::string where(const Module& m, InstructionHandle h) {
  return "atomicCompSwap on float (" + m.describe(h) + ")";
}

// The root variable and the index operands from it to `pointer`, outermost first.
Status trace_pointer(const Module& m, InstructionHandle marker, uint32_t pointer, uint32_t& root,
                     std::vector<uint32_t>& indices) {
  std::vector<std::vector<uint32_t>> chains;  // innermost last
  for (int depth = 0; depth < 64; ++depth) {
    auto def = m.definition(pointer);
    if (!def) return fail(where(m, marker) + ": its pointer " + id_name(pointer) + " is not defined");
    const Op op = m.opcode(*def);
    const auto w = m.words(*def);
    if (op == Op::OpVariable) {
      root = pointer;
      for (auto it = chains.rbegin(); it != chains.rend(); ++it) indices.insert(indices.end(), it->begin(), it->end());
      return {};
    }
    if (op == Op::OpAccessChain || op == Op::OpInBoundsAccessChain) {
      chains.emplace_back(w.begin() + 4, w.end());
      pointer = w[3];
      continue;
    }
    return fail(where(m, marker) + ": mem must be a buffer or shared variable (GLSL 4.60 section 8.11); " +
                "it reaches the call through " + opcode_name(uint32_t(op)) + " (a function parameter is a local copy)");
  }
  return fail(where(m, marker) + ": access chains nested too deeply");
}

// Buffer: the word offset of the indexed float inside its block. `type` is the block struct.
Status buffer_word_terms(const Module& m, InstructionHandle marker, uint32_t type, std::span<const uint32_t> indices,
                         std::vector<IndexTerm>& terms) {
  uint64_t bytes = 0;
  // Layout of the matrix (or array of matrices) being walked, from the struct member that holds it.
  std::optional<uint32_t> matrix_stride;
  bool row_major = false;
  bool in_row = false;  // the vector walked is a row-major matrix's column: components are MatrixStride apart
  auto add_dynamic = [&](uint32_t index, uint64_t stride) -> Status {
    if (stride % 4 != 0) return fail(where(m, marker) + ": a stride of " + std::to_string(stride) + " bytes");
    auto index_type = int32_type(m, result_type(m, index), 1);
    if (!index_type) return fail(where(m, marker) + ": index " + id_name(index) + " is not a 32-bit integer");
    terms.push_back({index, *index_type, stride / 4});
    return {};
  };
  for (uint32_t index : indices) {
    auto def = m.definition(type);
    if (!def) return fail(where(m, marker) + ": type " + id_name(type) + " is not defined");
    const auto w = m.words(*def);
    const auto constant = constant_value(m, index);
    switch (m.opcode(*def)) {
      case Op::OpTypeStruct: {
        if (!constant || *constant + 2 >= w.size()) return fail(where(m, marker) + ": bad struct member index");
        auto offset = member_decoration(m, type, *constant, spv::Decoration::Offset);
        if (!offset) return fail(where(m, marker) + ": member " + std::to_string(*constant) + " has no Offset");
        bytes += *offset;
        matrix_stride = member_decoration(m, type, *constant, spv::Decoration::MatrixStride);
        row_major = member_decoration(m, type, *constant, spv::Decoration::RowMajor).has_value();
        type = w[2 + *constant];
        break;
      }
      case Op::OpTypeArray:
      case Op::OpTypeRuntimeArray: {
        auto stride = [&]() -> std::optional<uint32_t> {
          for (InstructionHandle h : m.instructions(Section::Annotation)) {
            const auto d = m.words(h);
            if (m.opcode(h) == Op::OpDecorate && d[1] == type && d[2] == uint32_t(spv::Decoration::ArrayStride)) {
              return d[3];
            }
          }
          return std::nullopt;
        }();
        if (!stride) return fail(where(m, marker) + ": array " + id_name(type) + " has no ArrayStride");
        if (constant) {
          bytes += uint64_t(*constant) * *stride;
        } else if (Status added = add_dynamic(index, *stride); !added) {
          return added;
        }
        type = w[2];
        break;
      }
      case Op::OpTypeMatrix: {
        if (!matrix_stride) return fail(where(m, marker) + ": matrix " + id_name(type) + " has no MatrixStride");
        const uint64_t column_stride = row_major ? 4 : *matrix_stride;
        if (constant) {
          bytes += *constant * column_stride;
        } else if (Status added = add_dynamic(index, column_stride); !added) {
          return added;
        }
        in_row = row_major;
        type = w[2];
        break;
      }
      case Op::OpTypeVector: {
        const uint64_t component_stride = in_row ? *matrix_stride : 4;
        if (constant) {
          bytes += *constant * component_stride;
        } else if (Status added = add_dynamic(index, component_stride); !added) {
          return added;
        }
        type = w[2];
        break;
      }
      default: return fail(where(m, marker) + ": cannot index type " + id_name(type));
    }
  }
  if (!is_float32(m, type)) return fail(where(m, marker) + ": mem is not a 32-bit float");
  if (bytes % 4 != 0) return fail(where(m, marker) + ": mem is not 4-byte aligned in its block");
  terms.push_back({0, false, bytes / 4});
  return {};
}

// The struct a buffer variable's blocks have, and whether the variable is an array of blocks.
struct BufferShape {
  uint32_t block = 0;
  uint32_t array = 0;  // the array-of-blocks type, or 0
};

std::optional<BufferShape> buffer_shape(const Module& m, uint32_t pointee) {
  BufferShape shape;
  auto def = m.definition(pointee);
  if (!def) return std::nullopt;
  if (m.opcode(*def) == Op::OpTypeArray || m.opcode(*def) == Op::OpTypeRuntimeArray) {
    shape.array = pointee;
    pointee = m.words(*def)[2];
    def = m.definition(pointee);
    if (!def) return std::nullopt;
  }
  if (m.opcode(*def) != Op::OpTypeStruct) return std::nullopt;
  shape.block = pointee;
  return shape;
}

// Shared: whether `type` is float or an array (of arrays) of float with a constant length.
bool shared_shape_ok(const Module& m, uint32_t type) {
  for (int depth = 0; depth < 64; ++depth) {
    if (is_float32(m, type)) return true;
    auto def = m.definition(type);
    if (!def || m.opcode(*def) != Op::OpTypeArray) return false;
    type = m.words(*def)[2];
  }
  return false;
}

// The checks of a retyped shared variable's uses, before any edit: every pointer derived from it is only loaded,
// stored, indexed or used by atomics that take a uint pointer as well.
Status check_shared_uses(const Module& m, const UseIndex& uses, uint32_t variable, uint32_t set) {
  std::vector<uint32_t> pointers{variable};
  while (!pointers.empty()) {
    const uint32_t pointer = pointers.back();
    pointers.pop_back();
    for (InstructionHandle h : uses.users(pointer)) {
      if (names_without_using(m, h)) continue;
      const auto w = m.words(h);
      const Op op = m.opcode(h);
      const bool scalar = is_float32(m, [&] {
        auto p = pointer_type(m, result_type(m, pointer));
        return p ? p->second : 0u;
      }());
      switch (op) {
        case Op::OpAccessChain:
        case Op::OpInBoundsAccessChain:
          if (w[3] == pointer) pointers.push_back(w[2]);
          continue;
        case Op::OpLoad:
        case Op::OpStore:
        case Op::OpAtomicLoad:
        case Op::OpAtomicStore:
        case Op::OpAtomicExchange:
          if (scalar) continue;
          return fail("the shared variable " + name_of(m, variable) +
                      " is used by atomicCompSwap on float, which gives it a uint type, and copied as a whole (" +
                      m.describe(h) + "); copy its elements one by one");
        case Op::OpExtInst:
          if (w[3] == set) continue;
          break;
        case Op::OpAtomicFAddEXT:
        case Op::OpAtomicFMinEXT:
        case Op::OpAtomicFMaxEXT:
          return fail("the shared variable " + name_of(m, variable) +
                      " is used by atomicCompSwap on float and by atomicAdd, atomicMin or atomicMax on float (" +
                      m.describe(h) +
                      "): Bismuth lowers atomicCompSwap on a shared float to a uint compare-exchange, which retypes "
                      "the variable to uint, and the float atomics need a float variable");
        default: break;
      }
      return fail("the shared variable " + name_of(m, variable) + " is used by atomicCompSwap on float and by " +
                  m.describe(h) + ", which the uint retyping does not handle");
    }
  }
  return {};
}

class Lowering {
 public:
  explicit Lowering(Module& m) : m_(m) {}

  Expected<uint32_t> uint_type() {
    if (uint_ == 0) {
      auto t = m_.type_int(32, false);
      if (!t) return t.error();
      uint_ = *t;
    }
    return uint_;
  }

  Expected<uint32_t> new_id() { return m_.allocate_id(); }

  // `OpBitcast %to <value>` before `before`.
  Expected<uint32_t> bitcast(InstructionHandle before, uint32_t to, uint32_t value) {
    auto id = new_id();
    if (!id) return id;
    const uint32_t operands[] = {to, *id, value};
    m_.insert_before(before, Op::OpBitcast, operands);
    return *id;
  }

  // The retyped shape of a shared variable's type: float -> uint, arrays of it rebuilt.
  Expected<uint32_t> uint_shape(uint32_t type) {
    if (is_float32(m_, type)) return uint_type();
    // Copied first: the recursion appends, which may move the words.
    const uint32_t old_element = m_.words(*m_.definition(type))[2];
    const uint32_t length = m_.words(*m_.definition(type))[3];
    auto element = uint_shape(old_element);
    if (!element) return element;
    auto id = new_id();
    if (!id) return id;
    const uint32_t operands[] = {*id, *element, length};
    m_.append(Section::Global, Op::OpTypeArray, operands);
    return *id;
  }

  // Shared: the variable gets the uint shape; its derived pointers, loads, stores and atomics follow.
  Status retype_shared(const UseIndex& uses, uint32_t variable) {
    auto def = *m_.definition(variable);
    const auto vw = std::vector<uint32_t>(m_.words(def).begin(), m_.words(def).end());
    const uint32_t old_pointee = pointer_type(m_, vw[1])->second;
    auto pointee = uint_shape(old_pointee);
    if (!pointee) return pointee.error();
    auto pointer = pointer_to(m_, spv::StorageClass::Workgroup, *pointee);
    if (!pointer) return pointer.error();
    std::vector<uint32_t> operands{*pointer, variable, vw[3]};
    if (vw.size() > 4) {
      // Only a null initializer has a uint twin (VK_KHR_zero_initialize_workgroup_memory).
      auto init = m_.definition(vw[4]);
      if (!init || m_.opcode(*init) != Op::OpConstantNull) {
        return fail("the shared variable " + name_of(m_, variable) +
                    " has an initializer atomicCompSwap cannot retype");
      }
      auto null = new_id();
      if (!null) return null.error();
      const uint32_t null_operands[] = {*pointee, *null};
      m_.append(Section::Global, Op::OpConstantNull, null_operands);
      operands.push_back(*null);
    }
    // After the new types: the variable moves to the end of the global section.
    m_.erase(def);
    m_.append(Section::Global, Op::OpVariable, operands);

    std::vector<std::pair<uint32_t, uint32_t>> pointers{{variable, *pointee}};  // pointer id, its new pointee
    while (!pointers.empty()) {
      const auto [id, new_pointee] = pointers.back();
      pointers.pop_back();
      for (InstructionHandle h : uses.users(id)) {
        if (names_without_using(m_, h) || m_.erased(h)) continue;
        const std::vector<uint32_t> w(m_.words(h).begin(), m_.words(h).end());
        switch (m_.opcode(h)) {
          case Op::OpAccessChain:
          case Op::OpInBoundsAccessChain: {
            if (w[3] != id) break;
            uint32_t element = new_pointee;
            for (size_t i = 4; i < w.size(); ++i) {
              auto array = m_.definition(element);
              if (!array || m_.opcode(*array) != Op::OpTypeArray) {
                return fail(m_.describe(h) + ": indexes the shared variable " + name_of(m_, variable) +
                            " deeper than its arrays");
              }
              element = m_.words(*array)[2];
            }
            auto chain_type = pointer_to(m_, spv::StorageClass::Workgroup, element);
            if (!chain_type) return chain_type.error();
            std::vector<uint32_t> chain(w.begin() + 1, w.end());
            chain[0] = *chain_type;
            m_.replace(h, m_.opcode(h), chain);
            pointers.emplace_back(w[2], element);
            break;
          }
          case Op::OpLoad:
          case Op::OpAtomicLoad: {
            // %r = OpLoad %float %p  ->  %u = OpLoad %uint %p; %r = OpBitcast %float %u
            auto loaded = new_id();
            if (!loaded) return loaded.error();
            std::vector<uint32_t> load(w.begin() + 1, w.end());
            load[0] = uint_;
            load[1] = *loaded;
            m_.insert_before(h, m_.opcode(h), load);
            const uint32_t cast[] = {w[1], w[2], *loaded};
            m_.replace(h, Op::OpBitcast, cast);
            break;
          }
          case Op::OpStore:
          case Op::OpAtomicStore: {
            const size_t value_word = m_.opcode(h) == Op::OpStore ? 2 : 4;
            auto value = bitcast(h, uint_, w[value_word]);
            if (!value) return value.error();
            std::vector<uint32_t> store(w.begin() + 1, w.end());
            store[value_word - 1] = *value;
            m_.replace(h, m_.opcode(h), store);
            break;
          }
          case Op::OpAtomicExchange: {
            auto value = bitcast(h, uint_, w[6]);
            if (!value) return value.error();
            auto exchanged = new_id();
            if (!exchanged) return exchanged.error();
            const uint32_t exchange[] = {uint_, *exchanged, w[3], w[4], w[5], *value};
            m_.insert_before(h, Op::OpAtomicExchange, exchange);
            const uint32_t cast[] = {w[1], w[2], *exchanged};
            m_.replace(h, Op::OpBitcast, cast);
            break;
          }
          default: break;  // the markers: lowered afterwards, with the pointer as it now is
        }
      }
    }
    return {};
  }

  // Buffer: a variable at the same descriptor with `uint words[]` blocks (an array of them for an array of blocks).
  Expected<uint32_t> buffer_view(uint32_t variable, spv::StorageClass storage, const BufferShape& shape) {
    if (auto known = views_.find(variable); known != views_.end()) return known->second;
    auto u = uint_type();
    if (!u) return u;
    auto words = new_id(), block = new_id(), view = new_id();
    if (!words || !block || !view) return fail("the module's id bound is exhausted");
    const uint32_t words_operands[] = {*words, *u};
    m_.append(Section::Global, Op::OpTypeRuntimeArray, words_operands);
    const uint32_t block_operands[] = {*block, *words};
    m_.append(Section::Global, Op::OpTypeStruct, block_operands);
    const uint32_t stride[] = {4};
    m_.add_decoration(*words, spv::Decoration::ArrayStride, stride);
    m_.add_decoration(*block, has_decoration(m_, shape.block, spv::Decoration::BufferBlock)
                                  ? spv::Decoration::BufferBlock
                                  : spv::Decoration::Block);
    const uint32_t member_offset[] = {*block, 0, uint32_t(spv::Decoration::Offset), 0};
    m_.append(Section::Annotation, Op::OpMemberDecorate, member_offset);
    uint32_t pointee = *block;
    if (shape.array != 0) {
      const auto aw = m_.words(*m_.definition(shape.array));
      auto array = new_id();
      if (!array) return array;
      if (m_.opcode(*m_.definition(shape.array)) == Op::OpTypeArray) {
        const uint32_t array_operands[] = {*array, *block, aw[3]};
        m_.append(Section::Global, Op::OpTypeArray, array_operands);
      } else {
        const uint32_t array_operands[] = {*array, *block};
        m_.append(Section::Global, Op::OpTypeRuntimeArray, array_operands);
      }
      pointee = *array;
    }
    auto pointer = pointer_to(m_, storage, pointee);
    if (!pointer) return pointer;
    const uint32_t variable_operands[] = {*pointer, *view, uint32_t(storage)};
    m_.append(Section::Global, Op::OpVariable, variable_operands);
    for (spv::Decoration d : {spv::Decoration::DescriptorSet, spv::Decoration::Binding}) {
      if (auto literal = m_.decoration_literal(variable, d)) {
        const uint32_t value[] = {*literal};
        m_.add_decoration(*view, d, value);
      }
    }
    // Two variables, one memory: neither may be assumed to be the only way to it (SPIR-V 2.18.2). Restrict says the
    // opposite, and spirv-val refuses both on one variable.
    for (InstructionHandle h : m_.instructions(Section::Annotation)) {
      const auto w = m_.words(h);
      if (m_.opcode(h) == Op::OpDecorate && w[1] == variable && w[2] == uint32_t(spv::Decoration::Restrict)) {
        m_.erase(h);
      }
    }
    m_.add_decoration(variable, spv::Decoration::Aliased);
    m_.add_decoration(*view, spv::Decoration::Aliased);
    const std::string name = "bsm_uint_view_of_" + std::to_string(variable);
    std::vector<uint32_t> name_operands{*view};
    for (size_t i = 0; i <= name.size(); i += 4) {
      uint32_t word = 0;
      for (size_t b = 0; b < 4 && i + b < name.size(); ++b) word |= uint32_t(uint8_t(name[i + b])) << (8 * b);
      name_operands.push_back(word);
    }
    m_.append(Section::Debug, Op::OpName, name_operands);
    // SPIR-V 1.4+ lists every global an entry point uses: where the original is listed, the view is too.
    if (interface_lists_all_globals(m_)) {
      for (const Module::EntryPoint& entry : m_.entry_points()) {
        const auto w = m_.words(entry.handle);
        if (std::find(w.begin() + 3, w.end(), variable) == w.end()) continue;
        m_.replace(entry.handle, Op::OpEntryPoint, entry_point_interface_edit(m_, entry.handle, 0, *view));
      }
    }
    views_.emplace(variable, *view);
    return *view;
  }

  // `terms` summed into one uint word index, before `before`.
  Expected<uint32_t> word_index(InstructionHandle before, const std::vector<IndexTerm>& terms) {
    uint32_t sum = 0;
    uint64_t constant = 0;
    for (const IndexTerm& t : terms) {
      if (t.index == 0) {
        constant += t.words;
        continue;
      }
      uint32_t index = t.index;
      if (t.index_signed) {
        auto cast = bitcast(before, uint_, index);
        if (!cast) return cast;
        index = *cast;
      }
      if (t.words != 1) {
        auto factor = m_.constant_u32(uint32_t(t.words));
        auto product = new_id();
        if (!factor || !product) return fail("the module's id bound is exhausted");
        const uint32_t mul[] = {uint_, *product, index, *factor};
        m_.insert_before(before, Op::OpIMul, mul);
        index = *product;
      }
      if (sum == 0) {
        sum = index;
      } else {
        auto added = new_id();
        if (!added) return added;
        const uint32_t add[] = {uint_, *added, sum, index};
        m_.insert_before(before, Op::OpIAdd, add);
        sum = *added;
      }
    }
    if (constant > UINT32_MAX) return fail("a buffer offset beyond 32 bits");
    auto c = m_.constant_u32(uint32_t(constant));
    if (!c) return c;
    if (sum == 0) return *c;
    if (constant == 0) return sum;
    auto added = new_id();
    if (!added) return added;
    const uint32_t add[] = {uint_, *added, sum, *c};
    m_.insert_before(before, Op::OpIAdd, add);
    return *added;
  }

  // The marker -> a compare-and-swap loop on `pointer` (a uint pointer) with float equality (GLSL's `==`, SPIR-V
  // OpFOrdEqual: a NaN equals nothing, -0.0 equals +0.0), which OpAtomicCompareExchange's bit comparison is not:
  //
  //   (first part of the marker's block)    OpBranch %header
  //   %header: %cur = OpAtomicLoad %uint %p Device None
  //            %equal = OpFOrdEqual %bool (bitcast %cur) %compare
  //            OpLoopMerge %merge %retry None
  //            OpBranchConditional %equal %swap %merge       unequal: no swap, mem's content is returned
  //   %swap:   %got = OpAtomicCompareExchange %uint %p Device None None bitcast(data) %cur
  //            OpBranchConditional (%got == %cur) %merge %retry   swapped, or mem changed since the load: again
  //   %retry:  OpBranch %header
  //   %merge:  %old = OpPhi %uint %cur %header %got %swap       (%got is %cur when swapped)
  //            %r = OpBitcast %float %old                    (the marker's result id; the block's rest follows)
  //
  // The exchange happens only while mem still holds the loaded bits, which compared equal, so it is atomic as GLSL
  // 4.60 section 8.11 asks; each retry means another invocation's store changed mem in between.
  Status compare_swap_loop(InstructionHandle marker, uint32_t pointer) {
    const std::vector<uint32_t> w(m_.words(marker).begin(), m_.words(marker).end());
    auto merge = split_block_before(m_, marker);
    if (!merge) return merge.error();
    auto data = bitcast(marker, uint_, w[7]);
    if (!data) return data.error();
    auto scope = m_.constant_u32(kScopeDevice);
    auto semantics = m_.constant_u32(kSemanticsNone);
    auto boolean = m_.type_bool();
    auto header = new_id(), current = new_id(), current_float = new_id(), equal = new_id(), swap = new_id(),
         retry = new_id(), got = new_id(), swapped = new_id(), old = new_id();
    for (const auto* id : {&scope, &semantics, &boolean, &header, &current, &current_float, &equal, &swap, &retry, &got,
                           &swapped, &old}) {
      if (!*id) return fail("the module's id bound is exhausted");
    }
    const uint32_t to_header[] = {*header};
    m_.insert_before(marker, Op::OpBranch, to_header);
    m_.insert_before(marker, Op::OpLabel, to_header);
    const uint32_t load[] = {uint_, *current, pointer, *scope, *semantics};
    m_.insert_before(marker, Op::OpAtomicLoad, load);
    const uint32_t as_float[] = {w[1], *current_float, *current};
    m_.insert_before(marker, Op::OpBitcast, as_float);
    const uint32_t compare[] = {*boolean, *equal, *current_float, w[6]};
    m_.insert_before(marker, Op::OpFOrdEqual, compare);
    const uint32_t loop_merge[] = {*merge, *retry, uint32_t(spv::LoopControlMask::MaskNone)};
    m_.insert_before(marker, Op::OpLoopMerge, loop_merge);
    const uint32_t branch_equal[] = {*equal, *swap, *merge};
    m_.insert_before(marker, Op::OpBranchConditional, branch_equal);

    const uint32_t swap_label[] = {*swap};
    m_.insert_before(marker, Op::OpLabel, swap_label);
    const uint32_t exchange[] = {uint_, *got, pointer, *scope, *semantics, *semantics, *data, *current};
    m_.insert_before(marker, Op::OpAtomicCompareExchange, exchange);
    const uint32_t same[] = {*boolean, *swapped, *got, *current};
    m_.insert_before(marker, Op::OpIEqual, same);
    const uint32_t branch_swapped[] = {*swapped, *merge, *retry};
    m_.insert_before(marker, Op::OpBranchConditional, branch_swapped);

    const uint32_t retry_label[] = {*retry};
    m_.insert_before(marker, Op::OpLabel, retry_label);
    m_.insert_before(marker, Op::OpBranch, to_header);

    const uint32_t merge_label[] = {*merge};
    m_.insert_before(marker, Op::OpLabel, merge_label);
    const uint32_t phi[] = {uint_, *old, *current, *header, *got, *swap};
    m_.insert_before(marker, Op::OpPhi, phi);
    const uint32_t cast[] = {w[1], w[2], *old};
    m_.replace(marker, Op::OpBitcast, cast);
    return {};
  }

  Expected<uint32_t> view_pointer(InstructionHandle marker, const Marker& plan, uint32_t view) {
    auto index = word_index(marker, plan.word_terms);
    if (!index) return index;
    auto element = pointer_to(m_, plan.storage, uint_);
    auto zero = m_.constant_u32(0);
    auto chain = new_id();
    if (!element || !zero || !chain) return fail("the module's id bound is exhausted");
    std::vector<uint32_t> operands{*element, *chain, view};
    if (plan.descriptor_index != 0) operands.push_back(plan.descriptor_index);
    operands.push_back(*zero);
    operands.push_back(*index);
    m_.insert_before(marker, Op::OpAccessChain, operands);
    return *chain;
  }

 private:
  Module& m_;
  uint32_t uint_ = 0;
  std::map<uint32_t, uint32_t> views_;  // buffer variable -> its uint view
};

}  // namespace

Expected<FloatCompareSwapReport> lower_float_compare_swap(Module& module, const FloatCompareSwapOptions&) {
  FloatCompareSwapReport report;
  std::optional<InstructionHandle> import;
  for (InstructionHandle h : module.instructions(Section::ExtInstImport)) {
    if (module.string_operand(h, 2) == kFloatCompareSwapSet) import = h;
  }
  if (!import) return report;
  const uint32_t set = module.words(*import)[1];

  // Plan every marker before the first edit.
  const UseIndex uses(module);
  std::vector<Marker> markers;
  std::vector<uint32_t> shared;  // Workgroup variables to retype, once each
  for (InstructionHandle h : module.instructions(Section::Function)) {
    const auto w = module.words(h);
    if (module.opcode(h) != Op::OpExtInst || w[3] != set) continue;
    if (w[4] != kFloatCompareSwapInstruction || w.size() != 8 || !is_float32(module, w[1])) {
      return fail(module.describe(h) + ": not the float compare-swap marker (float result; pointer, compare, data)");
    }
    // The loop goes into the marker's block, split around it.
    if (Status splittable = can_split_block_before(module, h); !splittable) return splittable.error();
    Marker plan;
    plan.handle = h;
    std::vector<uint32_t> indices;
    if (Status traced = trace_pointer(module, h, w[5], plan.root, indices); !traced) return traced.error();
    const auto root_type = pointer_type(module, result_type(module, plan.root));
    if (!root_type) return fail(where(module, h) + ": its variable has no pointer type");
    plan.storage = spv::StorageClass(root_type->first);
    if (plan.storage == spv::StorageClass::Workgroup) {
      if (!shared_shape_ok(module, root_type->second)) {
        return fail(where(module, h) + ": the shared variable " + name_of(module, plan.root) +
                    " is not a float or an array of floats, the shapes Bismuth retypes to uint for it");
      }
      if (std::find(shared.begin(), shared.end(), plan.root) == shared.end()) {
        if (Status ok = check_shared_uses(module, uses, plan.root, set); !ok) return ok.error();
        shared.push_back(plan.root);
      }
    } else if (plan.storage == spv::StorageClass::StorageBuffer || plan.storage == spv::StorageClass::Uniform) {
      auto shape = buffer_shape(module, root_type->second);
      if (!shape) return fail(where(module, h) + ": the buffer variable's type is not a block");
      std::span<const uint32_t> path(indices);
      if (shape->array != 0) {
        if (path.empty()) return fail(where(module, h) + ": no index into the array of blocks");
        auto index_type = int32_type(module, result_type(module, path[0]), 1);
        if (!index_type) return fail(where(module, h) + ": the block index is not a 32-bit integer");
        plan.descriptor_index = path[0];
        path = path.subspan(1);
      }
      if (Status terms = buffer_word_terms(module, h, shape->block, path, plan.word_terms); !terms) {
        return terms.error();
      }
    } else {
      return fail(where(module, h) + ": mem must be a buffer or shared variable (GLSL 4.60 section 8.11); " +
                  name_of(module, plan.root) + " is neither");
    }
    markers.push_back(std::move(plan));
  }

  Lowering lowering(module);
  if (auto u = lowering.uint_type(); !u) return u.error();
  for (uint32_t variable : shared) {
    if (Status retyped = lowering.retype_shared(uses, variable); !retyped) return retyped.error();
    ++report.shared_retyped;
  }
  std::map<uint32_t, bool> viewed;
  for (const Marker& plan : markers) {
    uint32_t pointer = module.words(plan.handle)[5];
    if (plan.storage != spv::StorageClass::Workgroup) {
      const auto root_type = pointer_type(module, result_type(module, plan.root));
      auto view = lowering.buffer_view(plan.root, plan.storage, *buffer_shape(module, root_type->second));
      if (!view) return view.error();
      if (!viewed[plan.root]) ++report.buffer_views;
      viewed[plan.root] = true;
      auto chain = lowering.view_pointer(plan.handle, plan, *view);
      if (!chain) return chain.error();
      pointer = *chain;
    }
    if (Status exchanged = lowering.compare_swap_loop(plan.handle, pointer); !exchanged) return exchanged.error();
    ++report.lowered;
  }
  // glslang names the set in an OpExtension too; neither is needed once the markers are gone.
  module.erase(*import);
  module.remove_extension(kFloatCompareSwapSet);
  report.changed = true;
  return report;
}

Expected<FloatCompareSwapPatch> lower_float_compare_swap(std::span<const uint32_t> words,
                                                         const FloatCompareSwapOptions& options) {
  auto module = Module::parse(words);
  if (!module) return module.error();
  auto report = lower_float_compare_swap(*module, options);
  if (!report) return report.error();
  return FloatCompareSwapPatch{module->serialize(), *report};
}

}  // namespace bismuth::spirv_patch
