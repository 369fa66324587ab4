// assemble(): any byte string loads or fails with a positioned message; a loaded program's SPIR-V validates
// (assemble() validates before returning) and says what it needs.
#include <cstdlib>
#include <string>
#include <string_view>

#include "bismuth/nvasm/assembler.hpp"
#include "fuzz_target.hpp"

BISMUTH_FUZZ_TARGET(nvasm_assemble) {
  const std::string_view source(reinterpret_cast<const char*>(data), size);
  for (bool subgroup_32 : {false, true}) {
    bismuth::nvasm::AssembleOptions options;
    options.subgroup_size_32_available = subgroup_32;
    options.int64_buffer_atomics = subgroup_32;  // the second pass also emits NV_shader_atomic_int64
    options.int64_shared_atomics = subgroup_32;  // (64-bit ATOMS: shared memory of 64-bit words)
    // ... and formatless image loads and stores, and sparse lookups.
    options.storage_image_read_without_format = subgroup_32;
    options.storage_image_write_without_format = subgroup_32;
    options.sparse_residency = subgroup_32;
    options.buffer_device_address = subgroup_32;  // LOAD / STORE / ATOM on GPU addresses; the first pass: errors
    options.parameter_buffer_bytes = subgroup_32 ? 65536 : 0;  // NVIDIA's 64 KiB window, and the 16 KiB floor
    options.optimize = false;  // the optimizer is SPIRV-Tools' own code; the parser and emitter are under test
    auto program = bismuth::nvasm::assemble(source, options);
    if (!program) {
      const auto& e = program.error();
      if (e.message.rfind("line ", 0) != 0 || e.message.find(": error: ") == std::string::npos) std::abort();
      if (e.code < 0 || static_cast<size_t>(e.code) > size) std::abort();
      if (e.message.find("internal error") != std::string::npos) std::abort();
      continue;
    }
    if (program->spirv.empty()) std::abort();
    if (!subgroup_32 && program->info.required_subgroup_size) std::abort();
  }
  return 0;
}
