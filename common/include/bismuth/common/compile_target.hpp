// What a compile needs to know about the device the program will run on: the few device facts that change the
// SPIR-V Bismuth emits. The GL shim reads them from its device (backend::compile_target); `bismuth compile` reads
// them from the device named by --device, or assumes the defaults below, so both give the driver the same words.
#pragma once

#include <cstdint>

namespace bismuth {

struct CompileTarget {
  // The driver computes GLSL.std.450 Fma as a multiply and an add (llvmpipe) and has shaderFloat64: GL's fused
  // multiply-adds and NV MAD.F32 are computed in double precision instead.
  bool fma_through_double = false;
  // 32-lane subgroups can be had in compute (the only size, or pinned by subgroup size control): NV thread-group
  // programs load.
  bool subgroup_size_32 = true;
  bool int64_buffer_atomics = false;  // shaderBufferInt64Atomics
  bool storage_buffer_8bit = false;   // storageBuffer8BitAccess
  bool storage_buffer_16bit = false;  // storageBuffer16BitAccess
};

}  // namespace bismuth
