// GL program binaries: the writer and the defensive reader of the format program_binary_format.hpp describes.
// Integers are little-endian; a string or word array is a u32 count followed by its bytes or words.
#include "program_binary_format.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <type_traits>

#include "bismuth/spirv_patch/validate.hpp"
#include "build_identity.hpp"
#include "byte_codec.hpp"
#include "uniforms.hpp"
#include "variable_size.hpp"

namespace bismuth::gl {

namespace {

// A variant without a uniform parameters binding (format version 4): it reads push constants.
constexpr uint32_t kNoParametersBinding = UINT32_MAX;

constexpr char kMagic[8] = {'B', 'I', 'S', 'M', 'P', 'R', 'G', 'B'};
// Limits a loaded program must keep (a linked one always does): GL_MAX_UNIFORM_LOCATIONS-sized location ranges
// with room for arrays, and a default uniform block of at most 1 MiB.
constexpr uint64_t kMaxUniformLocation = 1u << 16;
constexpr uint64_t kMaxDefaultBlockBytes = 1u << 20;

// Each record's fields in format order, one list for writing (const records, Writer) and reading (Reader). The
// minimum bytes of a record bound the counts a reader accepts (Reader::count).
struct OpaqueFields {
  template <class IO, class O>
  void operator()(IO& io, O& o) const {
    if constexpr (std::is_const_v<O>) {
      io(static_cast<uint32_t>(o.kind));
      io(static_cast<uint32_t>(o.sampled_type));
    } else {
      uint32_t kind = 0, sampled = 0;
      io(kind);
      io(sampled);
      // Out-of-range values are caught by check_executable (kind) or clamped to a valid sampled type.
      o.kind = static_cast<translator::GlResourceKind>(kind);
      o.sampled_type = static_cast<translator::GlSampledType>(std::min<uint32_t>(sampled, 2));
    }
    io(o.target);
    io(o.shadow);
    io(o.format);
    io(o.memory);
    io(o.declared_binding);
    io(o.resource);
  }
};

struct UniformFields {
  static constexpr size_t kMinBytes = 33;
  template <class IO, class U>
  void operator()(IO& io, U& u) const {
    io(u.name);
    io(u.gl_type);
    io(u.array_size);
    io(u.offset);
    io(u.array_stride);
    io(u.matrix_stride);
    io(u.location);
    io(u.stages);
    // Samplers and images: a presence byte, then their GlOpaqueInfo (format version 3).
    bool opaque = u.opaque.has_value();
    io(opaque);
    if (!opaque) return;
    if constexpr (std::is_const_v<U>) {
      OpaqueFields{}(io, *u.opaque);
    } else {
      OpaqueFields{}(io, u.opaque.emplace());
    }
  }
};

struct MemberFields {
  static constexpr size_t kMinBytes = 41;
  template <class IO, class M>
  void operator()(IO& io, M& m) const {
    io(m.name);
    io(m.gl_type);
    io(m.array_size);
    io(m.offset);
    io(m.block);
    io(m.array_stride);
    io(m.matrix_stride);
    io(m.row_major);
    io(m.top_level_array_size);
    io(m.top_level_array_stride);
    io(m.stages);
  }
};

struct BindingFields {
  static constexpr size_t kMinBytes = 20;
  template <class IO, class B>
  void operator()(IO& io, B& b) const {
    io(b.name);
    io(b.gl_binding);
    io(b.vk_binding);
    io(b.min_size);
    io(b.stages);
  }
};

struct AtomicCounterFields {
  static constexpr size_t kMinBytes = 20;
  template <class IO, class C>
  void operator()(IO& io, C& c) const {
    io(c.name);
    io(c.gl_binding);
    io(c.offset);
    io(c.array_size);
    io(c.stages);
  }
};

struct NumWavesFields {
  template <class IO, class N>
  void operator()(IO& io, N& n) const {
    io(n.num_waves);
    io(n.wave_size_min);
    io(n.wave_size_max);
    io(n.wave_size_preferred);
  }
};

template <class T, class Fields>
void write_list(Writer& w, const std::vector<T>& list, Fields fields) {
  w.u32(static_cast<uint32_t>(list.size()));
  for (const T& x : list) fields(w, x);
}

template <class T, class Fields>
std::vector<T> read_list(Reader& r, Fields fields) {
  const uint32_t n = r.count(Fields::kMinBytes);
  std::vector<T> out;
  out.reserve(n);
  for (uint32_t i = 0; i < n && !r.failed(); ++i) fields(r, out.emplace_back());
  return out;
}

uint32_t max_gl_binding(translator::GlResourceKind kind) {
  switch (kind) {
    case translator::GlResourceKind::ShaderStorageBuffer: return GlBindingMap::kMaxShaderStorageBufferBindings;
    case translator::GlResourceKind::UniformBuffer: return GlBindingMap::kMaxUniformBufferBindings;
    case translator::GlResourceKind::AtomicCounterBuffer: return GlBindingMap::kMaxAtomicCounterBufferBindings;
    case translator::GlResourceKind::DefaultUniformBlock: return 1;
    // Opaque kinds: gl_binding is the element of the uniform (checked against the uniform in check_executable).
    case translator::GlResourceKind::Texture:
    case translator::GlResourceKind::TextureBuffer: return translator::GlTextureLimits::kComputeTextureImageUnits;
    case translator::GlResourceKind::Image:
    case translator::GlResourceKind::ImageBuffer: return translator::GlTextureLimits::kComputeImageUniforms;
  }
  return 0;
}

// Whether `words` declares an entry point named `name` (OpEntryPoint, opcode 15: model, id, name literal).
bool has_entry_point(const std::vector<uint32_t>& words, const std::string& name) {
  size_t i = 5;
  while (i < words.size()) {
    const uint32_t count = words[i] >> 16, opcode = words[i] & 0xFFFF;
    if (count == 0 || count > words.size() - i) return false;
    if (opcode == 15 && count > 3) {
      const auto* text = reinterpret_cast<const char*>(&words[i + 3]);
      const size_t max = (count - 3) * 4;
      const size_t len = strnlen(text, max);
      if (len < max && name == std::string_view(text, len)) return true;
    }
    i += count;
  }
  return false;
}

Status check_spirv(const std::vector<uint32_t>& words, const std::string& entry, const char* what,
                   SpirvCheck spirv_check) {
  if (words.size() < 5 || words[0] != 0x07230203u) return fail(std::string(what) + " is not a SPIR-V module");
  if (spirv_check == SpirvCheck::Validate) {
    if (Status valid = spirv_patch::validate(words, spirv_patch::TargetEnv::Vulkan1_1); !valid)
      return fail(std::string(what) + " does not pass spirv-val: " + valid.error().message);
  }
  if (!has_entry_point(words, entry)) return fail(std::string(what) + " has no entry point \"" + entry + "\"");
  return {};
}

bool power_of_two(uint32_t v) {
  return v != 0 && (v & (v - 1)) == 0;
}

// The checks that make a parsed executable safe to instantiate and query: every index in range, every size within
// the limits the executable is used under, the group size and subgroup facts ones the device takes.
Status check_executable(const Executable& exe, const Caps& caps, const backend::DeviceInfo& device,
                        SpirvCheck spirv_check) {
  const translator::GlLinkedProgram& p = exe.program;
  if (Status s = check_spirv(p.spirv, exe.entry_point, "the program's SPIR-V", spirv_check); !s) return s;
  if (exe.runtime_variant) {
    if (Status s =
            check_spirv(exe.runtime_variant->spirv, exe.entry_point, "the runtime-group-size variant", spirv_check);
        !s)
      return s;
    if (exe.runtime_variant->push_constant_offset % 4 != 0 ||
        uint64_t(exe.runtime_variant->push_constant_offset) + 12 > device.max_push_constants_size)
      return fail("the runtime-group-size variant's push constants do not fit the device");
    const auto& literals = exe.runtime_variant->literal_values;
    if (!literals.empty() &&
        (exe.runtime_variant->literal_offset % 4 != 0 ||
         exe.runtime_variant->literal_offset < uint64_t(exe.runtime_variant->push_constant_offset) + 12 ||
         uint64_t(exe.runtime_variant->literal_offset) + 4 * uint64_t(literals.size()) >
             device.max_push_constants_size))
      return fail("the runtime-group-size variant's literals do not fit the device's push constants");
    if (const auto& v = *exe.runtime_variant;
        v.parameters_binding && (v.parameters_bytes < uint64_t(v.push_constant_offset) + 12 ||
                                 v.parameters_bytes > device.max_uniform_buffer_range))
      return fail("the runtime-group-size variant's uniform parameters do not fit the device");
  }
  // One descriptor per GL binding point at most (and the default uniform block).
  constexpr size_t kMaxDescriptors =
      GlBindingMap::kMaxShaderStorageBufferBindings + GlBindingMap::kMaxUniformBufferBindings +
      GlBindingMap::kMaxAtomicCounterBufferBindings + 1 + translator::GlTextureLimits::kComputeTextureImageUnits +
      translator::GlTextureLimits::kComputeImageUniforms;
  if (p.resources.size() > kMaxDescriptors) return fail("the program has more descriptors than GL binding points");
  for (const translator::GlResource& r : p.resources) {
    if (static_cast<uint32_t>(r.kind) > static_cast<uint32_t>(translator::GlResourceKind::ImageBuffer) ||
        r.gl_binding >= max_gl_binding(r.kind))
      return fail("a resource has an unknown kind or binding");
    if (translator::is_opaque(r.kind)) {
      // The resource is element gl_binding of a sampler or image uniform that names it back.
      if (r.uniform >= p.uniforms.size() || !p.uniforms[r.uniform].opaque ||
          p.uniforms[r.uniform].opaque->kind != r.kind ||
          uint64_t(p.uniforms[r.uniform].opaque->resource) + r.gl_binding >= p.resources.size() ||
          &p.resources[p.uniforms[r.uniform].opaque->resource + r.gl_binding] != &r)
        return fail("a sampler or image resource does not match its uniform");
    }
  }
  for (const auto& u : p.uniforms) {
    if (!u.opaque) continue;
    if (!translator::is_opaque(u.opaque->kind) || uint64_t(u.opaque->resource) + u.array_size > p.resources.size() ||
        p.resources[u.opaque->resource].kind != u.opaque->kind)
      return fail("a sampler or image uniform names no resource of its kind");
    // Its initial units (the binding qualifier's) are units that exist, as the compile made sure.
    const bool image = u.opaque->kind == translator::GlResourceKind::Image ||
                       u.opaque->kind == translator::GlResourceKind::ImageBuffer;
    const uint32_t units = image ? translator::GlTextureLimits::kImageUnits
                                 : translator::GlTextureLimits::kCombinedTextureImageUnits;
    if (u.opaque->declared_binding >= 0 && uint64_t(u.opaque->declared_binding) + u.array_size > units)
      return fail("a sampler or image uniform's binding is past the last unit");
  }
  if (!p.descriptor_counts.empty()) {
    uint64_t total = 0;
    for (uint32_t c : p.descriptor_counts) {
      if (c == 0) return fail("a descriptor count is zero");
      total += c;
    }
    if (total != p.resources.size()) return fail("the descriptor counts do not cover the resources");
  }
  auto check_bindings = [&](const std::vector<translator::GlBufferBinding>& list, uint32_t max_gl) {
    return std::all_of(list.begin(), list.end(), [&](const translator::GlBufferBinding& b) {
      return b.vk_binding < p.resources.size() && b.gl_binding < max_gl;
    });
  };
  if (!check_bindings(p.storage_blocks, GlBindingMap::kMaxShaderStorageBufferBindings) ||
      !check_bindings(p.uniform_blocks, GlBindingMap::kMaxUniformBufferBindings) ||
      !check_bindings(p.atomic_counter_buffers, GlBindingMap::kMaxAtomicCounterBufferBindings))
    return fail("a block's binding is out of range");
  for (const auto& m : p.uniform_block_members) {
    if (m.block >= p.uniform_blocks.size()) return fail("a uniform block member names no block");
  }
  for (const auto& m : p.buffer_variables) {
    if (m.block >= p.storage_blocks.size()) return fail("a buffer variable names no block");
  }
  for (const auto& c : p.atomic_counters) {
    if (c.gl_binding >= GlBindingMap::kMaxAtomicCounterBufferBindings)
      return fail("an atomic counter's binding is out of range");
  }
  if (p.default_uniform_block_size > kMaxDefaultBlockBytes) return fail("the default uniform block is too large");
  for (const auto& u : p.uniforms) {
    const uint64_t elements = std::max<uint32_t>(1, u.array_size);
    if (u.location < 0 || uint64_t(u.location) + elements > kMaxUniformLocation)
      return fail("a uniform's location is out of range");
    // Every byte glUniform* may write lies inside the block (instantiate sizes the block to default_uniform_block_size
    // or more).
    if (uniform_storage_end(u) > p.default_uniform_block_size)
      return fail("a uniform's storage lies outside the default uniform block");
  }
  switch (p.group_size) {
    case translator::GroupSize::Fixed:
    case translator::GroupSize::NumWaves: {
      uint64_t invocations = 1;
      for (int i = 0; i < 3; ++i) {
        if (p.fixed_size[i] == 0 || p.fixed_size[i] > caps.max_group_size[i])
          return fail("the work group size does not fit the device");
        invocations *= p.fixed_size[i];
      }
      if (invocations > caps.max_group_invocations) return fail("the work group size does not fit the device");
      if (p.group_size == translator::GroupSize::NumWaves &&
          (!p.num_waves || p.num_waves->num_waves == 0 || exe.wave_size == 0 ||
           uint64_t(p.num_waves->num_waves) * exe.wave_size != p.fixed_size[0]))
        return fail("the num_waves declaration does not match the work group size");
      break;
    }
    case translator::GroupSize::Variable: break;
    default: return fail("the program has no work group size");
  }
  if (p.group_size != translator::GroupSize::NumWaves && (p.num_waves || exe.wave_size != 0))
    return fail("a wave size is given for a program without num_waves");
  if (exe.subgroup_size != 0 && (!power_of_two(exe.subgroup_size) || exe.subgroup_size < device.min_subgroup_size ||
                                 exe.subgroup_size > device.max_subgroup_size || !device.subgroup_size_control))
    return fail("the required subgroup size is not one the device has");
  if ((exe.stage_flags &
       ~VkPipelineShaderStageCreateFlags(VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT)) != 0)
    return fail("unknown shader stage flags");
  return {};
}

}  // namespace

BinaryFingerprint binary_fingerprint(const Context& ctx) {
  return binary_fingerprint(ctx.device_state);
}

namespace {

BinaryFingerprint compute_binary_fingerprint(const DeviceState& state, unsigned variant_settings) {
  BinaryFingerprint f;
  const backend::Device& device = *state.device;
  const backend::DeviceInfo& info = device.info();
  f.driver_version = info.driver_version;
  // VkPhysicalDeviceIDProperties is Vulkan 1.1's: asked only where the backend could ask for 1.1 properties (it
  // read a subgroup size, which it reads only when the instance and the device are both 1.1 or later).
  if (info.api_version >= VK_API_VERSION_1_1 && info.subgroup_size != 0 &&
      device.vki().vkGetPhysicalDeviceProperties2 != nullptr) {
    VkPhysicalDeviceIDProperties id{};
    id.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES;
    VkPhysicalDeviceProperties2 properties{};
    properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    properties.pNext = &id;
    device.vki().vkGetPhysicalDeviceProperties2(device.physical_device(), &properties);
    std::copy(std::begin(id.deviceUUID), std::end(id.deviceUUID), f.device_uuid.begin());
    std::copy(std::begin(id.driverUUID), std::end(id.driverUUID), f.driver_uuid.begin());
  }
  const std::string& version = build_identity();
  f.bismuth_version = hash_bytes<16>(backend::hash128(version.data(), version.size()));
  // Everything else the executable was derived from: the SPIR-V pipeline's target, the device facts behind the
  // committed subgroup and wave sizes, and the runtime-group-size setting.
  const Caps& c = state.caps;
  const CompileTarget& t = c.compile_target;
  const ShaderExtensionSupport& e = t.extensions;
  Writer w;
  w.bytes(info.pipeline_cache_uuid.data(), info.pipeline_cache_uuid.size());
  for (uint32_t v : {info.vendor_id,
                     info.device_id,
                     info.api_version,
                     info.min_subgroup_size,
                     info.max_subgroup_size,
                     info.subgroup_size,
                     info.max_compute_workgroup_subgroups,
                     uint32_t(info.subgroup_size_control),
                     uint32_t(t.fma_through_double),
                     uint32_t(t.subgroup_size_32),
                     uint32_t(t.int64_buffer_atomics),
                     uint32_t(t.storage_buffer_8bit),
                     uint32_t(t.storage_buffer_16bit),
                     uint32_t(t.buffer_device_address),
                     uint32_t(t.min_lod),
                     uint32_t(t.image_float32_atomics),
                     uint32_t(t.image_float32_atomic_add),
                     uint32_t(t.buffer_float32_atomic_add),
                     uint32_t(t.buffer_float64_atomic_add),
                     uint32_t(e.subgroup_clock),
                     uint32_t(e.device_clock),
                     uint32_t(e.float32_atomic_add),
                     uint32_t(e.float32_atomic_min_max),
                     uint32_t(e.compute_derivatives),
                     e.subgroup_features,
                     uint32_t(e.int64_buffer_atomics),
                     uint32_t(e.int64_shared_atomics),
                     uint32_t(e.image_read_without_format),
                     uint32_t(e.image_write_without_format),
                     c.ballot_subgroup_size,
                     uint32_t(c.ballot_vote),
                     c.max_shared_memory,
                     variant_settings})
    w.u32(v);
  f.target = hash_bytes<16>(backend::hash128(w.out().data(), w.out().size()));
  return f;
}

}  // namespace

BinaryFingerprint binary_fingerprint(const DeviceState& state) {
  const unsigned settings = variant_settings();
  std::call_once(state.fingerprint_once[settings], [&] {
    state.fingerprint[settings] =
        std::make_shared<const BinaryFingerprint>(compute_binary_fingerprint(state, settings));
  });
  return *state.fingerprint[settings];
}

std::vector<std::byte> serialize_program_binary(const Executable& exe, bool linked_separable,
                                                const BinaryFingerprint& fingerprint) {
  const translator::GlLinkedProgram& p = exe.program;
  Writer body;
  body.str(exe.entry_point);
  body.words(p.spirv);
  body.u8(exe.runtime_variant ? 1 : 0);
  if (exe.runtime_variant) {
    body.words(exe.runtime_variant->spirv);
    body.u32(exe.runtime_variant->push_constant_offset);
    body.u8(exe.runtime_variant->exact_only ? 1 : 0);
    body.u32(exe.runtime_variant->literal_offset);
    body.words(exe.runtime_variant->literal_values);
    body.u32(exe.runtime_variant->parameters_binding.value_or(kNoParametersBinding));
    body.u32(exe.runtime_variant->parameters_bytes);
  }
  body.u32(exe.stage_flags);
  body.u32(exe.subgroup_size);
  body.u32(exe.wave_size);
  body.u32(static_cast<uint32_t>(p.group_size));
  for (uint32_t v : p.fixed_size) body.u32(v);
  for (uint32_t v : p.size_spec_ids) body.u32(v);
  body.u8(p.num_waves ? 1 : 0);
  if (p.num_waves) NumWavesFields{}(body, *p.num_waves);
  write_list(body, p.resources, [](Writer& w, const translator::GlResource& r) {
    w.u32(static_cast<uint32_t>(r.kind));
    w.u32(r.gl_binding);
    w.u32(r.uniform);
  });
  body.words(p.descriptor_counts);
  body.u32(p.default_uniform_block_size);
  write_list(body, p.uniforms, UniformFields{});
  write_list(body, p.uniform_block_members, MemberFields{});
  write_list(body, p.buffer_variables, MemberFields{});
  write_list(body, p.storage_blocks, BindingFields{});
  write_list(body, p.uniform_blocks, BindingFields{});
  write_list(body, p.atomic_counter_buffers, BindingFields{});
  write_list(body, p.atomic_counters, AtomicCounterFields{});
  body.u64(p.shared_memory_bytes);
  body.str(p.info_log);
  body.u8(linked_separable ? 1 : 0);

  Writer out;
  out.bytes(kMagic, sizeof kMagic);
  out.u32(ProgramBinaryHeader::kFormatVersionValue);
  out.bytes(fingerprint.device_uuid.data(), 16);
  out.bytes(fingerprint.driver_uuid.data(), 16);
  out.u32(fingerprint.driver_version);
  out.bytes(fingerprint.bismuth_version.data(), 16);
  out.bytes(fingerprint.target.data(), 16);
  out.u64(body.out().size());
  const auto hash = hash_bytes<16>(backend::hash128(body.out().data(), body.out().size()));
  out.bytes(hash.data(), hash.size());
  out.bytes(body.out().data(), body.out().size());
  return std::move(out.out());
}

Expected<LoadedProgramBinary> parse_program_binary(std::span<const std::byte> bytes, const BinaryFingerprint& expected,
                                                   const Caps& caps, const backend::DeviceInfo& device,
                                                   SpirvCheck spirv_check) {
  if (bytes.size() < ProgramBinaryHeader::kSize) return fail("the program binary is truncated (no complete header)");
  Reader header(bytes.first(ProgramBinaryHeader::kSize));
  char magic[8];
  header.take(magic, 8);
  if (std::memcmp(magic, kMagic, 8) != 0) return fail("the data is not a Bismuth program binary (bad magic)");
  if (header.u32() != ProgramBinaryHeader::kFormatVersionValue)
    return fail("the program binary has another format version than this Bismuth reads");
  BinaryFingerprint found;
  header.take(found.device_uuid.data(), 16);
  header.take(found.driver_uuid.data(), 16);
  found.driver_version = header.u32();
  header.take(found.bismuth_version.data(), 16);
  header.take(found.target.data(), 16);
  if (found.device_uuid != expected.device_uuid) return fail("the program binary was made on another device");
  if (found.driver_uuid != expected.driver_uuid || found.driver_version != expected.driver_version)
    return fail("the program binary was made with another driver or driver version");
  if (found.bismuth_version != expected.bismuth_version)
    return fail("the program binary was made by another Bismuth version");
  if (found.target != expected.target)
    return fail("the program binary was made for other device settings (compile target, subgroup facts or limits)");
  const uint64_t payload_bytes = header.u64();
  std::array<uint8_t, 16> hash{};
  header.take(hash.data(), 16);
  if (payload_bytes != bytes.size() - ProgramBinaryHeader::kSize)
    return fail("the program binary's length is not the length it was made with (truncated or extended)");
  const std::span<const std::byte> payload = bytes.subspan(ProgramBinaryHeader::kSize);
  if (hash != hash_bytes<16>(backend::hash128(payload.data(), payload.size())))
    return fail("the program binary is corrupted (its checksum does not match)");

  Reader r(payload);
  LoadedProgramBinary loaded;
  loaded.exe = std::make_shared<Executable>();
  Executable& exe = *loaded.exe;
  translator::GlLinkedProgram& p = exe.program;
  exe.entry_point = r.str();
  p.entry_point = exe.entry_point;
  p.spirv = r.words();
  if (r.u8() != 0) {
    Executable::RuntimeVariant variant;
    variant.spirv = r.words();
    variant.push_constant_offset = r.u32();
    variant.exact_only = r.u8() != 0;
    variant.literal_offset = r.u32();
    variant.literal_values = r.words();
    if (const uint32_t binding = r.u32(); binding != kNoParametersBinding) variant.parameters_binding = binding;
    variant.parameters_bytes = r.u32();
    exe.runtime_variant = std::move(variant);
  }
  exe.stage_flags = r.u32();
  exe.subgroup_size = r.u32();
  exe.wave_size = r.u32();
  const uint32_t group_size = r.u32();
  if (group_size > static_cast<uint32_t>(translator::GroupSize::NumWaves))
    return fail("the program binary is corrupted (group size kind)");
  p.group_size = static_cast<translator::GroupSize>(group_size);
  for (uint32_t& v : p.fixed_size) v = r.u32();
  for (uint32_t& v : p.size_spec_ids) v = r.u32();
  if (r.u8() != 0) NumWavesFields{}(r, p.num_waves.emplace());
  const uint32_t resources = r.count(12);
  for (uint32_t i = 0; i < resources && !r.failed(); ++i) {
    const uint32_t kind = r.u32();
    const uint32_t binding = r.u32();
    const uint32_t uniform = r.u32();
    if (kind > static_cast<uint32_t>(translator::GlResourceKind::ImageBuffer))
      return fail("the program binary is corrupted (resource kind)");
    p.resources.push_back({static_cast<translator::GlResourceKind>(kind), binding, uniform});
  }
  p.descriptor_counts = r.words();
  p.default_uniform_block_size = r.u32();
  p.uniforms = read_list<translator::GlUniform>(r, UniformFields{});
  p.uniform_block_members = read_list<translator::GlBlockMember>(r, MemberFields{});
  p.buffer_variables = read_list<translator::GlBlockMember>(r, MemberFields{});
  p.storage_blocks = read_list<translator::GlBufferBinding>(r, BindingFields{});
  p.uniform_blocks = read_list<translator::GlBufferBinding>(r, BindingFields{});
  p.atomic_counter_buffers = read_list<translator::GlBufferBinding>(r, BindingFields{});
  p.atomic_counters = read_list<translator::GlAtomicCounter>(r, AtomicCounterFields{});
  p.shared_memory_bytes = r.u64();
  p.info_log = r.str();
  loaded.linked_separable = r.u8() != 0;
  if (r.failed()) return fail("the program binary is corrupted (a length or count runs past its end)");
  if (!r.at_end()) return fail("the program binary is corrupted (bytes after its end)");
  if (p.shared_memory_bytes > caps.max_shared_memory) return fail("the program's shared memory exceeds the device's");
  if (Status s = check_executable(exe, caps, device, spirv_check); !s)
    return fail("the program binary is invalid: " + s.error().message);
  return loaded;
}

}  // namespace bismuth::gl
