#include "device_requirements.hpp"

#include "bismuth/spirv_patch/module.hpp"

namespace bismuth::gl {

namespace {

using spirv_patch::InstructionHandle;
using spirv_patch::Module;
using spirv_patch::Section;

bool is_atomic(spv::Op op) {
  switch (op) {
    case spv::Op::OpAtomicLoad:
    case spv::Op::OpAtomicStore:
    case spv::Op::OpAtomicExchange:
    case spv::Op::OpAtomicCompareExchange:
    case spv::Op::OpAtomicCompareExchangeWeak:
    case spv::Op::OpAtomicIIncrement:
    case spv::Op::OpAtomicIDecrement:
    case spv::Op::OpAtomicIAdd:
    case spv::Op::OpAtomicISub:
    case spv::Op::OpAtomicSMin:
    case spv::Op::OpAtomicUMin:
    case spv::Op::OpAtomicSMax:
    case spv::Op::OpAtomicUMax:
    case spv::Op::OpAtomicAnd:
    case spv::Op::OpAtomicOr:
    case spv::Op::OpAtomicXor: return true;
    default: return false;
  }
}

// The pointer operand of an atomic instruction: word 1 of OpAtomicStore, word 3 of the others.
uint32_t atomic_pointer(spv::Op op, std::span<const uint32_t> w) {
  if (op == spv::Op::OpAtomicStore) return w.size() > 1 ? w[1] : 0;
  return w.size() > 3 ? w[3] : 0;
}

}  // namespace

std::string missing_device_feature(std::span<const uint32_t> words, const backend::DeviceFeatures& features) {
  if (features.int64_buffer_atomics && features.int64_shared_atomics) return {};
  auto parsed = Module::parse(words);
  if (!parsed) return {};  // the pipeline validated it; nothing to say here
  const Module& m = *parsed;
  bool buffer = false, shared = false;
  for (InstructionHandle h : m.instructions(Section::Function)) {
    const spv::Op op = m.opcode(h);
    if (!is_atomic(op)) continue;
    // The pointer's type (its defining instruction's result type): storage class and pointee.
    auto pointer = m.definition(atomic_pointer(op, m.words(h)));
    if (!pointer || m.words(*pointer).size() < 2) continue;
    auto pointer_type = m.definition(m.words(*pointer)[1]);
    if (!pointer_type || m.opcode(*pointer_type) != spv::Op::OpTypePointer) continue;
    auto pointee = m.definition(m.words(*pointer_type)[3]);
    if (!pointee || m.opcode(*pointee) != spv::Op::OpTypeInt || m.words(*pointee)[2] != 64) continue;
    const auto storage = static_cast<spv::StorageClass>(m.words(*pointer_type)[2]);
    buffer |= storage == spv::StorageClass::StorageBuffer || storage == spv::StorageClass::Uniform ||
              storage == spv::StorageClass::PhysicalStorageBuffer;
    shared |= storage == spv::StorageClass::Workgroup;
  }
  if (buffer && !features.int64_buffer_atomics) {
    return "64-bit integer atomic operations on buffer variables need the Vulkan feature shaderBufferInt64Atomics, "
           "which this device lacks";
  }
  if (shared && !features.int64_shared_atomics) {
    return "64-bit integer atomic operations on shared variables need the Vulkan feature shaderSharedInt64Atomics, "
           "which this device lacks";
  }
  return {};
}

}  // namespace bismuth::gl
