// LOAD, STORE and ATOM on GPU addresses (NV_shader_buffer_load, NV_shader_buffer_store): Vulkan buffer device
// addresses, accessed through PhysicalStorageBuffer64 pointers (OpConvertUToPtr).
//
// The memory code (codegen_memory.cpp) works on a 32-bit byte address and 32-bit word indices. A GPU-address access
// keeps that shape: the address splits into a 32-byte aligned base (global_base_, u64) and the low five bits, which
// byte_address returns. Word k of the access is then at global_base_ + 4 * k: every storage modifier's access is at
// most 32 bytes (F64X4) and aligned to its size (NV_shader_buffer_load: a misaligned address is undefined), so it
// never crosses the aligned 32-byte block, and the narrow formats find their byte in the word as they do in buffers.
#include "codegen.hpp"

namespace bismuth::nvasm::detail {

uint32_t Codegen::global_byte_address(const MemoryRef& m) {
  uses_pointers_ = true;
  uses_int64_ = true;
  // NV_shader_buffer_load: the address operand is an unsigned integer scalar; a LONG TEMP gives 64 bits, a 32-bit
  // operand zero-extends (load_operand's U64 conversion).
  const uint32_t u64 = t_u64();
  const uint32_t address = component(load_operand(m.address, DataType::U64), 0);
  global_base_ =
      b_.op(Op::OpBitwiseAnd, u64, {address, c_scalar(DataType::U64, 0.0, static_cast<int64_t>(~uint64_t{31}), false)});
  const uint32_t low = b_.op(Op::OpUConvert, t_u32(), {address});
  return b_.op(Op::OpBitwiseAnd, t_u32(), {low, c_u32(31)});
}

// A pointer to a `type` (u32 or u64) at byte `byte_offset` (u32, < 32) past the current access's base.
uint32_t Codegen::global_pointer(uint32_t byte_offset, uint32_t type) {
  const uint32_t u64 = t_u64();
  const uint32_t at = b_.op(Op::OpIAdd, u64, {global_base_, b_.op(Op::OpUConvert, u64, {byte_offset})});
  return b_.op(Op::OpConvertUToPtr, t_ptr(spv::StorageClass::PhysicalStorageBuffer, type), {at});
}

}  // namespace bismuth::nvasm::detail
