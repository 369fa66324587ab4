// TEMP arrays in a scratch storage buffer (docs/nvasm.md, "TEMP arrays"). When a program's TEMP arrays take more
// than AssembleOptions::scratch_threshold_bytes per invocation, every TEMP array lives in the invocation's slice of
// one storage buffer at binding options.scratch_binding instead of a Private variable: NVIDIA's Vulkan driver fails
// pipeline creation for Private arrays of about 5000 vec4s, and lavapipe's compile time grows with their size.
//
// The slice of invocation i is bytes [i * S, (i + 1) * S) with S = info.scratch_bytes_per_invocation and i the linear
// global invocation index over the whole dispatch; the arrays follow one another in declaration order, each at a
// 32-byte aligned offset, so that a LONG array (u64vec4 elements, 32 bytes) and an ordinary one (uvec4, 16 bytes)
// are both whole elements of their view of the buffer. Indexing keeps the Private arrays' rule (a relative index
// clamped into the array), so an invocation never touches another's slice.
#include "codegen.hpp"

namespace bismuth::nvasm::detail {

bool Codegen::temps_in_scratch() const {
  uint64_t bytes = 0;
  for (const Temp& t : p_.temps) bytes += uint64_t(t.count) * (t.is_long ? 32 : 16);
  return bytes > 0 && bytes > options_.scratch_threshold_bytes;
}

void Codegen::declare_scratch() {
  uint32_t offset = 0;
  for (uint32_t k = 0; k < p_.temps.size(); ++k) {
    const Temp& t = p_.temps[k];
    if (!t.count) continue;
    scratch_offsets_[k] = offset;
    // At most 512 KiB in all (declarations.cpp), so no overflow.
    offset += (t.count * (t.is_long ? 32u : 16u) + 31u) & ~31u;
  }
  scratch_bytes_ = offset;
  info_.scratch_bytes_per_invocation = scratch_bytes_;
  info_.scratch_binding = options_.scratch_binding;
  scratch_base_var_ = variable(t_ptr(spv::StorageClass::Private, t_u32()), spv::StorageClass::Private);
}

// The scratch buffer as a runtime array of uvec4 (wide: u64vec4): two block variables on one binding, as the
// storage buffers' 8/16/64-bit views are.
uint32_t Codegen::scratch_view(bool wide) {
  uint32_t& var = scratch_views_[wide ? 1 : 0];
  if (var) return var;
  const uint32_t rt = b_.global(Op::OpTypeRuntimeArray, {raw_vec(wide)}, false);
  const uint32_t block = b_.global(Op::OpTypeStruct, {rt}, false);
  decorate(rt, spv::Decoration::ArrayStride, {wide ? 32u : 16u});
  decorate(block, spv::Decoration::Block);
  member_decorate(block, 0, spv::Decoration::Offset, {0});
  var = variable(t_ptr(spv::StorageClass::StorageBuffer, block), spv::StorageClass::StorageBuffer);
  decorate(var, spv::Decoration::DescriptorSet, {0});
  decorate(var, spv::Decoration::Binding, {options_.scratch_binding});
  return var;
}

// At the start of main: the invocation's index, then its arrays zeroed (registers start at zero, as the Private
// arrays' initializers make them).
void Codegen::scratch_prologue() {
  if (!scratch_base_var_) return;
  auto load3 = [&](spv::BuiltIn bi) { return b_.op(Op::OpLoad, t_uvec3(), {builtin_var(bi, t_uvec3())}); };
  auto part = [&](uint32_t v, uint32_t c) { return b_.op(Op::OpCompositeExtract, t_u32(), {v, c}); };
  const uint32_t group = load3(spv::BuiltIn::WorkgroupId);
  const uint32_t groups = load3(spv::BuiltIn::NumWorkgroups);
  auto mul = [&](uint32_t a, uint32_t b) { return b_.op(Op::OpIMul, t_u32(), {a, b}); };
  auto add = [&](uint32_t a, uint32_t b) { return b_.op(Op::OpIAdd, t_u32(), {a, b}); };
  // ((group.z * groups.y + group.y) * groups.x + group.x) * (size.x * size.y * size.z) + local index
  const uint32_t linear_group =
      add(mul(add(mul(part(group, 2), part(groups, 1)), part(group, 1)), part(groups, 0)), part(group, 0));
  const uint32_t size = mul(mul(part(group_size_, 0), part(group_size_, 1)), part(group_size_, 2));
  const uint32_t local = b_.op(Op::OpLoad, t_u32(), {builtin_var(spv::BuiltIn::LocalInvocationIndex, t_u32())});
  b_.inst(Op::OpStore, {scratch_base_var_, add(mul(linear_group, size), local)});
  for (const auto& [temp, offset] : scratch_offsets_) {
    const Temp& t = p_.temps[temp];
    zero_fill_with(t.count, raw_vec(t.is_long), [&, temp = temp](uint32_t n) { return scratch_pointer(temp, n); });
  }
}

// Element `index` (u32, already clamped) of TEMP array `temp` in this invocation's slice.
uint32_t Codegen::scratch_pointer(uint32_t temp, uint32_t index) {
  const bool wide = p_.temps[temp].is_long;
  const uint32_t unit = wide ? 32 : 16;
  const uint32_t invocation = b_.op(Op::OpLoad, t_u32(), {scratch_base_var_});
  // Whole units: the slice size and the array offsets are multiples of 32. The product fits 32 bits wherever the
  // buffer does (the caller binds at most maxStorageBufferRange, a 32-bit size).
  const uint32_t slice = b_.op(Op::OpIMul, t_u32(), {invocation, c_u32(scratch_bytes_ / unit)});
  const uint32_t first = b_.op(Op::OpIAdd, t_u32(), {slice, c_u32(scratch_offsets_.at(temp) / unit)});
  const uint32_t element = b_.op(Op::OpIAdd, t_u32(), {first, index});
  return b_.op(Op::OpAccessChain, t_ptr(spv::StorageClass::StorageBuffer, raw_vec(wide)),
               {scratch_view(wide), c_u32(0), element});
}

}  // namespace bismuth::nvasm::detail
