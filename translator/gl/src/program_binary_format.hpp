// The bytes of a GL program binary (GL_PROGRAM_BINARY_FORMAT_BISMUTH, glGetProgramBinary / glProgramBinary): a
// linked compute program's executable as the driver got it (final SPIR-V, runtime-group-size variant, entry point,
// committed wave size) and every reflection field introspection answers from, so that a load rebuilds the program
// without the GLSL front. The layout is in docs/gl_shim.md, "Program binaries".
//
// Reading is defensive: every length, count, index and size is checked against the bytes left and the limits the
// executable is used under, the SPIR-V goes through spirv-val again, and the header's fingerprint must match the
// device, driver, Bismuth version and compile target of the loading context. Any mismatch is an error whose message
// becomes the program's info log; nothing here has undefined behaviour on any input.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gl_internal.hpp"

namespace bismuth::gl {

// What a binary must have been made on to load: the Vulkan device and driver (VkPhysicalDeviceIDProperties
// deviceUUID/driverUUID, VkPhysicalDeviceProperties::driverVersion), the Bismuth version, and a hash of everything
// else the SPIR-V and the executable were derived from (CompileTarget, the device's subgroup facts, limits, the
// runtime-group-size setting).
struct BinaryFingerprint {
  std::array<uint8_t, 16> device_uuid{};
  std::array<uint8_t, 16> driver_uuid{};
  uint32_t driver_version = 0;
  std::array<uint8_t, 16> bismuth_version{};  // XXH3-128 of BISMUTH_GL_VERSION
  std::array<uint8_t, 16> target{};           // XXH3-128 of the compile target and device facts
};

BinaryFingerprint binary_fingerprint(const Context& ctx);
BinaryFingerprint binary_fingerprint(const DeviceState& state);  // the same, for a link off the context's thread

// Offsets of the header fields (docs/gl_shim.md, "Program binaries").
struct ProgramBinaryHeader {
  static constexpr size_t kMagic = 0;                 // 8 bytes "BISMPRGB"
  static constexpr size_t kFormatVersion = 8;         // u32
  static constexpr size_t kDeviceUuid = 12;           // 16 bytes
  static constexpr size_t kDriverUuid = 28;           // 16 bytes
  static constexpr size_t kDriverVersion = 44;        // u32
  static constexpr size_t kBismuthVersion = 48;       // 16 bytes
  static constexpr size_t kTarget = 64;               // 16 bytes
  static constexpr size_t kPayloadBytes = 80;         // u64
  static constexpr size_t kPayloadHash = 88;          // 16 bytes: XXH3-128 of the payload
  static constexpr size_t kSize = 104;                // the payload follows
  // 2: the variant's hoisted literals; 3: sampler and image uniforms (GlOpaqueInfo, GlResource::uniform)
  static constexpr uint32_t kFormatVersionValue = 4;
};

// The executable of a successfully linked GLSL / ARB_gl_spirv compute program as binary bytes.
std::vector<std::byte> serialize_program_binary(const Executable& exe, bool linked_separable,
                                                const BinaryFingerprint& fingerprint);

// A binary read back: `exe` has its program, entry point, stage flags, runtime variant, subgroup and wave sizes
// set; the backend shader, uniform storage and locations are still to be made (program_link.hpp, instantiate).
struct LoadedProgramBinary {
  std::shared_ptr<Executable> exe;
  bool linked_separable = false;
};

// Whether a load runs spirv-val on the binary's SPIR-V. Binaries from the application always are validated; the
// program cache's own records, which only this build wrote and whose payload hash matched, skip it unless
// BISMUTH_VALIDATION asks (spirv-val costs more than the rest of a load).
enum class SpirvCheck { Validate, Skip };

// Parses and checks `bytes`. The error message says why the binary cannot be loaded (for the info log).
Expected<LoadedProgramBinary> parse_program_binary(std::span<const std::byte> bytes, const BinaryFingerprint& expected,
                                                   const Caps& caps, const backend::DeviceInfo& device,
                                                   SpirvCheck spirv_check = SpirvCheck::Validate);

}  // namespace bismuth::gl
