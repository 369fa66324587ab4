// The !!NVcp5.0 assembler: NVIDIA assembly compute programs (NV_compute_program5 on NV_gpu_program5, with
// NV_shader_storage_buffer_object, NV_shader_thread_group, NV_shader_thread_shuffle, NV_gpu_program_fp64 and
// ARB_compute_variable_group_size) to validated Vulkan 1.1 SPIR-V.
//
// glProgramStringARB(GL_COMPUTE_PROGRAM_NV, ...) calls assemble(); on failure the Error's message is what
// GL_PROGRAM_ERROR_STRING_ARB reports ("line L, column C: error: ...") and Error::code is the byte offset of the
// error in the source (GL_PROGRAM_ERROR_POSITION_ARB). No exception escapes; any input yields a program or an Error.
//
// Resource interface of the emitted module (descriptor set 0 for everything):
//   program.storage[i]  -> storage buffer at binding options.storage_bindings[i] (identity when not given)
//   program.local[n]    -> uniform buffer at binding kLocalParameterBinding (73): `uvec4 local[count]`, std140,
//                          one vec4 per index (16 bytes), count = highest index used + 1, raw 32-bit words
//   program.env[n]      -> uniform buffer at binding kEnvParameterBinding (74), same layout
//   program.subroutine[n] -> uniform buffer at binding kSubroutineParameterBinding (76), same layout, the SUBROUTINENUM
//                          CALI switches on in .x (ProgramInfo::subroutine_parameters)
//   program.buffer[a]   -> uniform buffer at binding options.parameter_buffer_bindings[a] (kParameterBufferBindingBase
//                          + a when not given): `uvec4 data[info.parameter_buffer_bytes / 16]`, std140; CBUFFER,
//                          BUFFER and BUFFER4 variables read it (NV_parameter_buffer_object / _object2)
//   texture[n]          -> combined image sampler at binding options.texture_bindings[n] (kTextureBindingBase + n
//                          when not given); a BUFFER target: a uniform texel buffer there
//   image[n]            -> storage image at binding options.image_bindings[n] (kImageBindingBase + n); a BUFFER
//                          target: a storage texel buffer there
//   program.counter[b]  -> storage buffer at binding options.counter_bindings[b] (kCounterBindingBase + b when not
//                          given): `uint counters[]`, COUNTER variables' 32-bit counters (NV_shader_atomic_counters)
//   SHARED_MEMORY n     -> one workgroup array of ceil(n / 4) 32-bit words
//   large TEMP arrays   -> storage buffer at binding options.scratch_binding (kScratchBinding when not given): each
//                          invocation's slice of info.scratch_bytes_per_invocation bytes at (linear global invocation
//                          index) x slice size, when the TEMP arrays take more than options.scratch_threshold_bytes
//   variable group size -> WorkgroupSize built-in made of three specialization constants with SpecIds
//                          kGroupSizeSpecIds (0x7B00..0x7B02, the GLSL front's convention)
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bismuth/common/expected.hpp"

namespace bismuth::nvasm {

inline constexpr uint32_t kLocalParameterBinding = 73;
inline constexpr uint32_t kEnvParameterBinding = 74;
// program.subroutine[n] (ARB_shader_subroutine's NV_gpu_program5 interaction): a uniform buffer `uvec4 sub[count]`,
// the SUBROUTINENUM in .x of element n (the program.local layout).
inline constexpr uint32_t kSubroutineParameterBinding = 76;  // 75 is kScratchBinding
// NV_gpu_program4's MAX_PROGRAM_CALL_DEPTH_NV as Bismuth reports it: the call stack entries a recursive program may
// use (docs/nvasm.md, "Subroutines and recursion").
inline constexpr uint32_t kMaxCallDepth = 32;
// MAX_PROGRAM_SUBROUTINE_PARAMETERS_NV and MAX_PROGRAM_SUBROUTINE_NUM_NV: what NVIDIA's driver 580 reports (1024 and
// 1024, tests/data/nv_reference; ARB_shader_subroutine's minimums are 1024 and 256).
inline constexpr uint32_t kMaxSubroutineParameters = 1024;
inline constexpr uint32_t kMaxSubroutineNum = 1024;
// program.buffer[a] (a < kMaxParameterBuffers) -> binding kParameterBufferBindingBase + a by default: the GLSL front's
// uniform-buffer range (32..63).
inline constexpr uint32_t kParameterBufferBindingBase = 32;
inline constexpr uint32_t kMaxParameterBuffers = 32;
// The bytes of a parameter buffer a program can read (its window): the declared uniform block, reads clamped into
// it. kParameterBufferBytes, 16 KiB, is Vulkan's guaranteed maxUniformBufferRange and the window unless
// AssembleOptions::parameter_buffer_bytes says the device binds more; kMaxParameterBufferBytes, 64 KiB, is NVIDIA's
// constant buffer size (NV_parameter_buffer_object's MAX_PROGRAM_PARAMETER_BUFFER_SIZE_NV, 16384 words).
inline constexpr uint32_t kParameterBufferBytes = 16384;
inline constexpr uint32_t kMaxParameterBufferBytes = 65536;
// program.counter[b] (b < kMaxCounterBuffers; NV_shader_atomic_counters) -> binding kCounterBindingBase + b by default:
// the GLSL front's atomic counter buffer range (64..71), GL's MAX_ATOMIC_COUNTER_BUFFER_BINDINGS in the GL shim.
inline constexpr uint32_t kCounterBindingBase = 64;
inline constexpr uint32_t kMaxCounterBuffers = 8;
inline constexpr std::array<uint32_t, 3> kGroupSizeSpecIds = {0x7B00, 0x7B01, 0x7B02};
// texture[n] and image[n] units: GL's MAX_COMPUTE_TEXTURE_IMAGE_UNITS and MAX_IMAGE_UNITS, the values of
// translator::GlTextureLimits::kComputeTextureImageUnits and ::kImageUnits (the GL shim's unit arrays).
inline constexpr uint32_t kMaxTextureUnits = 32;
inline constexpr uint32_t kMaxImageUnits = 8;
// Default bindings of texture[n] and image[n]: past the GLSL front's 0..72 and the assembler's 73, 74.
inline constexpr uint32_t kTextureBindingBase = 80;
inline constexpr uint32_t kImageBindingBase = 112;
// TEMP arrays of a program whose TEMP arrays take more than this many bytes per invocation live in a scratch storage
// buffer instead of Private memory (docs/nvasm.md, "TEMP arrays"): 4 KiB, 256 vec4s. Past it a Private array costs
// more than it gives: NVIDIA keeps such arrays in local memory (device memory behind the same caches as a storage
// buffer) and its Vulkan driver fails pipeline creation (VK_ERROR_UNKNOWN) from about 5000 vec4s on, and lavapipe's
// LLVM compile time grows by about 6 ms per element (a 32000-element array took 214 s).
inline constexpr uint32_t kScratchThresholdBytes = 4096;
inline constexpr uint32_t kScratchBinding = 75;
// The thread-group instructions (NV_shader_thread_group / NV_shader_thread_shuffle) assume 32-thread warps.
inline constexpr uint32_t kWarpSize = 32;

struct AssembleOptions {
  // program.storage[i] -> Vulkan binding (set 0). Indices past the end map to themselves.
  std::vector<uint32_t> storage_bindings;
  // program.buffer[a] -> Vulkan binding (set 0). Indices past the end map to kParameterBufferBindingBase + a.
  std::vector<uint32_t> parameter_buffer_bindings;
  // program.counter[b] -> Vulkan binding (set 0). Bindings past the end map to kCounterBindingBase + b.
  std::vector<uint32_t> counter_bindings;
  // True when the caller can run the pipeline with a subgroup size of exactly 32 (the device's subgroup size is 32,
  // or subgroup size control can pin 32 for compute). Programs using thread-group instructions or values fail to
  // load when this is false: they would give wrong answers on any other warp width.
  bool subgroup_size_32_available = false;
  // Compute MAD.F32 as a double-precision multiply-add rounded to float. NVIDIA's MAD.F32 is fused; Vulkan allows
  // Fma to be split into a multiply and an add (lavapipe does), which changes the last bits. Needs shaderFloat64.
  bool exact_float_mad = false;
  // The device has shaderBufferInt64Atomics: ATOMB .U64 / .S64 (NV_shader_atomic_int64) load; otherwise they are a
  // load error that names the feature.
  bool int64_buffer_atomics = false;
  // The device has shaderSharedInt64Atomics: ATOMS .U64 / .S64 (and .F64, NV_shader_atomic_float64) load; shared
  // memory is then an array of 64-bit words (docs/nvasm.md, "Memory"). Otherwise they are a load error.
  bool int64_shared_atomics = false;
  // The device has storageBuffer8BitAccess / storageBuffer16BitAccess: U8/S8 (U16/S16) stores to storage buffers are
  // plain byte (half-word) stores on a narrow view of the buffer. Otherwise, and always for shared memory, a
  // compare-and-swap loop on the containing 32-bit word. Both leave neighbouring bytes untouched.
  bool storage_buffer_8bit = false;
  bool storage_buffer_16bit = false;
  // texture[n] / image[n] -> Vulkan binding (set 0). Units past the end map to kTextureBindingBase + n /
  // kImageBindingBase + n.
  std::vector<uint32_t> texture_bindings;
  std::vector<uint32_t> image_bindings;
  // The device has shaderStorageImageReadWithoutFormat / shaderStorageImageWriteWithoutFormat: LOADIM / STOREIM
  // without an image format modifier (the image unit's format, EXT_shader_image_load_formatted) load. Otherwise
  // they are a load error that names the feature.
  bool storage_image_read_without_format = false;
  bool storage_image_write_without_format = false;
  // The device has shaderResourceResidency (sparse residency): .SPARSE lookups (EXT_sparse_texture2) load.
  bool sparse_residency = false;
  // The device has bufferDeviceAddress (Vulkan 1.2, VK_KHR_buffer_device_address) and shaderInt64: LOAD, STORE and
  // ATOM on 64-bit GPU addresses (NV_shader_buffer_load / NV_shader_buffer_store) load, as PhysicalStorageBuffer64
  // accesses. Otherwise they are a load error that names the feature.
  bool buffer_device_address = false;
  // The device has shaderResourceMinLod: TXD.LODCLAMP (ARB_sparse_texture_clamp) loads, as a lookup with the MinLod
  // image operand. Otherwise it is a load error that names the feature.
  bool min_lod = false;
  // The device's VK_EXT_shader_atomic_float features. NV_shader_atomic_float on images: ATOMIM.EXCH.F32 loads with
  // image_float32_atomics (shaderImageFloat32Atomics), ATOMIM.ADD.F32 with image_float32_atomic_add
  // (shaderImageFloat32AtomicAdd); otherwise they are load errors that name the feature. On storage buffers
  // ATOMB.ADD.F32 (.F64) is OpAtomicFAddEXT with buffer_float32_atomic_add (buffer_float64_atomic_add), a
  // compare-and-swap loop without (the same sums: one correctly rounded addition per atomic either way).
  bool image_float32_atomics = false;
  bool image_float32_atomic_add = false;
  bool buffer_float32_atomic_add = false;
  bool buffer_float64_atomic_add = false;
  // The device's maxUniformBufferRange: the parameter buffer window is this, rounded down to 16 bytes and kept in
  // [kParameterBufferBytes, kMaxParameterBufferBytes] (parameter_buffer_window()).
  uint32_t parameter_buffer_bytes = kParameterBufferBytes;
  // TEMP arrays move to the scratch storage buffer (binding scratch_binding) when the program's TEMP arrays take more
  // than this many bytes per invocation in all (0: always, UINT32_MAX: never). The caller binds a buffer of at least
  // (invocations of the dispatch) x info.scratch_bytes_per_invocation bytes there.
  uint32_t scratch_threshold_bytes = kScratchThresholdBytes;
  uint32_t scratch_binding = kScratchBinding;
  // Run spvtools::Optimizer's performance passes over the straightforward translation.
  bool optimize = true;
  // Validate the result with spirv-val (Vulkan 1.1) before returning it; a failure is an internal error. Turn off
  // only where the caller validates itself (the benchmark measures the assembler without SPIRV-Tools).
  bool validate = true;
};

enum class GroupSizeForm {
  Fixed,     // GROUP_SIZE x y z: LocalSize execution mode
  Variable,  // OPTION ARB_compute_variable_group_size: specialization constants kGroupSizeSpecIds
};

struct StorageBinding {
  uint32_t program_storage = 0;  // the index in program.storage[]
  uint32_t binding = 0;          // Vulkan binding in set 0
};

struct ParameterBufferBinding {
  uint32_t program_buffer = 0;  // the index in program.buffer[]
  uint32_t binding = 0;         // Vulkan binding in set 0 (a uniform buffer)
};

struct CounterBufferBinding {
  uint32_t program_counter = 0;  // b of program.counter[b]: the GL atomic counter buffer binding point
  uint32_t binding = 0;          // Vulkan binding in set 0 (a storage buffer of 32-bit counters)
};

// Texture and image targets as the pipeline sees them (RECT is a 2D image read with unnormalized coordinates, which
// the module computes itself: the sampler is the unit's ordinary one).
enum class TextureTarget : uint8_t {
  T1D, T2D, T3D, Cube, Rect, Array1D, Array2D, ArrayCube, Buffer, T2DMS, Array2DMS,
};
enum class SampledType : uint8_t { Float, Int, Uint };

struct TextureBinding {
  uint32_t unit = 0;  // texture[unit]: the GL texture image unit
  TextureTarget target = TextureTarget::T2D;
  bool shadow = false;  // SHADOW* target: the sampler compares (GL_TEXTURE_COMPARE_MODE)
  std::vector<SampledType> types;  // the result types lookups use (one image variable each on the binding)
  uint32_t binding = 0;  // Vulkan binding in set 0: combined image sampler, or uniform texel buffer for Buffer
};

struct ImageBinding {
  uint32_t unit = 0;  // image[unit]: the GL image unit (glBindImageTexture)
  TextureTarget target = TextureTarget::T2D;
  // GL internal formats the instructions name (GL_RGBA8, ...; GL_R32UI / GL_R32I for ATOMIM), 0: none named (the
  // unit's format).
  std::vector<uint32_t> formats;
  std::vector<SampledType> types;
  bool read = false, write = false, atomic = false;
  uint32_t binding = 0;  // Vulkan binding in set 0: storage image, or storage texel buffer for Buffer
};

// What the runtime needs to build the pipeline layout and pipelines for an assembled program.
struct ProgramInfo {
  GroupSizeForm group_size_form = GroupSizeForm::Fixed;
  std::array<uint32_t, 3> group_size{1, 1, 1};  // Fixed only
  std::array<uint32_t, 3> group_size_spec_ids = kGroupSizeSpecIds;  // Variable only
  std::vector<StorageBinding> storage_buffers;  // by program.storage index, only those the program declares
  std::vector<ParameterBufferBinding> parameter_buffers;  // by program.buffer index, only those declared
  std::vector<CounterBufferBinding> counter_buffers;      // by program.counter index, only those declared
  std::vector<TextureBinding> textures;  // by unit, only those the instructions use
  std::vector<ImageBinding> images;      // by unit, only those the instructions use
  uint32_t local_parameter_count = 0;  // 0: no program.local uniform buffer; else vec4s at kLocalParameterBinding
  uint32_t env_parameter_count = 0;    // 0: no program.env uniform buffer; else vec4s at kEnvParameterBinding
  // program.subroutine[n]: per index, the SUBROUTINENUMs its SUBROUTINETYPE accepts, in increasing order (empty: no
  // SUBROUTINE variable binds n). Non-empty: a uniform buffer of size() vec4s at kSubroutineParameterBinding.
  std::vector<std::vector<uint32_t>> subroutine_parameters;
  uint32_t shared_memory_bytes = 0;
  // > 0: the TEMP arrays live in a storage buffer at scratch_binding; invocation i (the linear global invocation
  // index: ((group.z * groups.y + group.y) * groups.x + group.x) * group invocations + local index) uses bytes
  // [i * scratch_bytes_per_invocation, (i + 1) * scratch_bytes_per_invocation). A multiple of 32.
  uint32_t scratch_bytes_per_invocation = 0;
  uint32_t scratch_binding = kScratchBinding;
  // The size of each program.buffer uniform block (the window): bind at most this many bytes of a parameter buffer.
  uint32_t parameter_buffer_bytes = kParameterBufferBytes;
  // 32 when the program uses thread-group instructions or values: pin it (VK_EXT_subgroup_size_control,
  // requiredSubgroupSize = 32; full subgroups when the group's x size is a multiple of 32) or do not run it.
  std::optional<uint32_t> required_subgroup_size;
  bool uses_int64 = false;    // enable shaderInt64
  bool uses_float64 = false;  // enable shaderFloat64
  bool uses_int64_atomics = false;  // enable shaderBufferInt64Atomics (64-bit ATOMB)
  bool uses_int64_shared_atomics = false;  // enable shaderSharedInt64Atomics (64-bit ATOMS)
  bool uses_storage_buffer_8bit = false;   // enable storageBuffer8BitAccess (U8/S8 stores)
  bool uses_storage_buffer_16bit = false;  // enable storageBuffer16BitAccess (U16/S16 stores)
  bool uses_sparse_residency = false;      // enable shaderResourceResidency (.SPARSE)
  bool uses_buffer_device_address = false; // enable bufferDeviceAddress (LOAD, STORE, ATOM on GPU addresses)
  bool uses_storage_image_read_without_format = false;   // enable shaderStorageImageReadWithoutFormat
  bool uses_storage_image_write_without_format = false;  // enable shaderStorageImageWriteWithoutFormat
  bool uses_storage_image_extended_formats = false;      // enable shaderStorageImageExtendedFormats
  bool uses_storage_image_multisample = false;           // enable shaderStorageImageMultisample
  bool uses_image_cube_array = false;                    // enable imageCubeArray (ARRAYCUBE targets)
  bool uses_image_gather_extended = false;               // enable shaderImageGatherExtended (TXGO)
  bool uses_min_lod = false;                             // enable shaderResourceMinLod (TXD.LODCLAMP)
  bool uses_image_float32_atomics = false;               // enable shaderImageFloat32Atomics (ATOMIM.EXCH.F32)
  bool uses_image_float32_atomic_add = false;            // enable shaderImageFloat32AtomicAdd (ATOMIM.ADD.F32)
  bool uses_buffer_float32_atomic_add = false;           // enable shaderBufferFloat32AtomicAdd (native ATOMB.ADD.F32)
  bool uses_buffer_float64_atomic_add = false;           // enable shaderBufferFloat64AtomicAdd (native ATOMB.ADD.F64)
  // Subgroup operations the module uses (VkPhysicalDeviceSubgroupProperties::supportedOperations for compute):
  bool uses_subgroup_basic = false;    // VK_SUBGROUP_FEATURE_BASIC_BIT
  bool uses_subgroup_ballot = false;   // VK_SUBGROUP_FEATURE_BALLOT_BIT (TGBALLOT, thread masks)
  bool uses_subgroup_vote = false;     // VK_SUBGROUP_FEATURE_VOTE_BIT (TGALL, TGANY, TGEQ)
  bool uses_subgroup_shuffle = false;  // VK_SUBGROUP_FEATURE_SHUFFLE_BIT (SHF*)
  std::vector<std::string> options;  // the OPTION lines, in order
};

// The parameter buffer window `options` give: parameter_buffer_bytes rounded down to 16 bytes, at least
// kParameterBufferBytes and at most kMaxParameterBufferBytes.
inline uint32_t parameter_buffer_window(const AssembleOptions& options) {
  const uint32_t bytes = options.parameter_buffer_bytes & ~15u;
  return bytes < kParameterBufferBytes ? kParameterBufferBytes
                                       : (bytes > kMaxParameterBufferBytes ? kMaxParameterBufferBytes : bytes);
}

struct Program {
  std::vector<uint32_t> spirv;  // validated for Vulkan 1.1 (SPIR-V 1.3), entry point "main"
  ProgramInfo info;
};

struct SourcePosition {
  uint32_t line = 1;    // 1-based
  uint32_t column = 1;  // 1-based, in bytes
};
SourcePosition position_of(std::string_view source, size_t offset);

// Assembles a !!NVcp5.0 program. On failure: Error{"line L, column C: error: ...", code = byte offset}.
Expected<Program> assemble(std::string_view source, const AssembleOptions& options = {});

}  // namespace bismuth::nvasm
