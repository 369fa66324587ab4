// Dispatch (GL 4.6 §19, ARB_compute_variable_group_size): glDispatchCompute, glDispatchComputeIndirect,
// glDispatchComputeGroupSizeARB, glMemoryBarrier(ByRegion). They run the current GLSL program, else the program
// bound to GL_COMPUTE_PROGRAM_NV when that is enabled (NV_compute_program5; asm_program.cpp).
//
// Binding: Vulkan binding i of set 0 is program.resources[i] — the buffer bound to that GL indexed binding point
// (with its glBindBufferRange offset/size) or the program's default uniform block. The hot path allocates
// nothing: the binding array is the context's reused scratch vector, and the pipeline comes from the
// CommandStream's front table keyed by (shader, size, subgroup size) — no hashing on a hit.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdio>
#include <optional>
#include <span>

#include "bismuth/spirv_patch/passes/swizzle_lookups.hpp"
#include "bismuth/translator/glsl_compiler.hpp"
#include "buffers.hpp"
#include "gl_internal.hpp"
#include "gl_ranges.hpp"
#include "parallel_compile.hpp"
#include "shadow_lowering.hpp"
#include "texture_bindings.hpp"

namespace bismuth::gl {
namespace {

// GL's MAX_UNIFORM_BLOCK_SIZE / MAX_SHADER_STORAGE_BLOCK_SIZE, which are also Vulkan's minimum ranges.
constexpr VkDeviceSize kMaxUniformRange = 16384;
constexpr VkDeviceSize kMaxStorageRange = VkDeviceSize(1) << 27;

const char* kind_name(translator::GlResourceKind k) {
  switch (k) {
    case translator::GlResourceKind::ShaderStorageBuffer: return "shader storage";
    case translator::GlResourceKind::UniformBuffer: return "uniform buffer";
    case translator::GlResourceKind::AtomicCounterBuffer: return "atomic counter buffer";
    default: return "default uniform block";
  }
}

// Appends the binding of one GL indexed binding point; false (with a KHR_debug message) when it has no usable
// buffer.
bool push_slot(Context* ctx, const IndexedBinding* slot, const char* kind, uint32_t gl_binding, VkDeviceSize max_range,
               backend::Access access, const char* func) {
  const BufferObject* b = slot ? slot->buffer.get() : nullptr;
  // glBindBufferRange checks its range only against zero and the alignment (GL 4.6 §6.1.1): offset + size may be
  // anything up to 2^64 here, so it is compared without forming the sum.
  if (b == nullptr || !b->buffer || (slot->size != 0 && !range_inside(slot->offset, slot->size, b->size)) ||
      slot->offset >= b->size) {
    // GL leaves this undefined; Bismuth skips the dispatch and says why, never reads an unbound descriptor.
    char text[200];
    std::snprintf(text, sizeof text,
                  "%s: the active %s binding %u has no buffer with storage%s; the dispatch was skipped", func, kind,
                  gl_binding, b != nullptr && b->buffer ? " covering the bound range" : "");
    ctx->debug(GL_DEBUG_SOURCE_API, GL_DEBUG_TYPE_UNDEFINED_BEHAVIOR, 1, GL_DEBUG_SEVERITY_HIGH, text);
    return false;
  }
  const VkDeviceSize offset = static_cast<VkDeviceSize>(slot->offset);
  VkDeviceSize range =
      slot->size != 0 ? static_cast<VkDeviceSize>(slot->size) : static_cast<VkDeviceSize>(b->size) - offset;
  if (range > max_range) range = max_range;
  ctx->bindings_scratch.push_back({b->buffer.get(), offset, range, access});
  return true;
}

// The unit use of element resource `i` of a sampler or image uniform (texture_bindings.hpp).
OpaqueUse opaque_use(Context* ctx, const Executable& exe, size_t i, bool lower_shadow) {
  const translator::GlResource& r = exe.program.resources[i];
  const translator::GlOpaqueInfo& info = *exe.program.uniforms[r.uniform].opaque;
  OpaqueUse use;
  use.kind = r.kind;
  use.target = info.target;
  use.shadow = info.shadow;
  use.sampled = info.sampled_type;
  use.format = info.format;
  use.access = (info.memory & translator::kImageReadonly)    ? backend::Access::Read
               : (info.memory & translator::kImageWriteonly) ? backend::Access::Write
               : (r.kind == translator::GlResourceKind::Image || r.kind == translator::GlResourceKind::ImageBuffer)
                   ? backend::Access::ReadWrite
                   : backend::Access::Read;
  use.unit = exe.opaque_unit(i);
  use.can_lower_shadow = true;
  if (lower_shadow && use.shadow && r.kind == translator::GlResourceKind::Texture) {
    use.shadow_state = &ctx->shadow_states_scratch[i];
  }
  if (lower_shadow && !use.shadow && r.kind == translator::GlResourceKind::Texture) {
    use.swizzle_word = &ctx->swizzle_words_scratch[i];
  }
  return use;
}

// Fills ctx->bindings_scratch (buffers) and ctx->image_bindings_scratch (samplers and images, in resource order);
// false (with a KHR_debug message) when an active resource has nothing usable bound.
// `lower_shadow`: for the module with the shadow comparisons in the shader (shadow_lowering.hpp).
bool gather_bindings(Context* ctx, Executable& exe, const char* func, bool lower_shadow) {
  auto& out = ctx->bindings_scratch;
  out.clear();
  ctx->image_bindings_scratch.clear();
  ctx->shadow_needs_lowering = false;
  ctx->gathered_serial = 0;
  // Read before the bindings: a change made after this makes the next dispatch gather again.
  const uint64_t generation = g_buffer_bindings_generation.load(std::memory_order_relaxed);
  bool opaque = false;
  const auto& resources = exe.program.resources;
  if (lower_shadow) {
    ctx->shadow_states_scratch.assign(resources.size(), ShadowSamplerState{});
    ctx->swizzle_words_scratch.assign(resources.size(), spirv_patch::kSwizzleIdentity);
  }
  for (size_t i = 0; i < resources.size(); ++i) {
    const translator::GlResource& r = resources[i];
    const IndexedBinding* slot = nullptr;
    backend::Access access = backend::Access::ReadWrite;
    VkDeviceSize max_range = kMaxStorageRange;
    auto at = [&](const auto& array) { return r.gl_binding < array.size() ? &array[r.gl_binding] : nullptr; };
    switch (r.kind) {
      case translator::GlResourceKind::ShaderStorageBuffer: slot = at(ctx->ssbo); break;
      case translator::GlResourceKind::AtomicCounterBuffer: slot = at(ctx->acb); break;
      case translator::GlResourceKind::UniformBuffer:
        slot = at(ctx->ubo);
        access = backend::Access::Read;
        max_range = kMaxUniformRange;
        break;
      case translator::GlResourceKind::DefaultUniformBlock:
        out.push_back({exe.uniform_buffer.get(), 0, VK_WHOLE_SIZE, backend::Access::Read});
        continue;
      case translator::GlResourceKind::Texture:
      case translator::GlResourceKind::TextureBuffer:
      case translator::GlResourceKind::Image:
      case translator::GlResourceKind::ImageBuffer:
        opaque = true;
        if (!push_opaque_binding(ctx, opaque_use(ctx, exe, i, lower_shadow), func)) return false;
        continue;
    }
    if (!push_slot(ctx, slot, kind_name(r.kind), r.gl_binding, max_range, access, func)) return false;
  }
  // Buffers only: what was gathered depends on nothing but the indexed bindings and the buffers' stores, which
  // g_buffer_bindings_generation follows (textures, samplers and images have far more state: gathered each time).
  if (!opaque && !lower_shadow) {
    ctx->gathered_serial = exe.serial;
    ctx->gathered_generation = generation;
  }
  return true;
}

// Uploads the parameter vec4s [0, count) of `table` into `buffer` (created on first use) in stream order when
// they changed or the buffer holds fewer; false with the error recorded.
bool upload_parameters(Context* ctx, std::shared_ptr<backend::Buffer>& buffer,
                       const std::vector<std::array<uint32_t, 4>>& table, uint32_t count, bool& dirty,
                       uint32_t& uploaded, const char* func) {
  if (!buffer) {
    auto created = backend::Buffer::create(*ctx->device_state.device, VkDeviceSize(table.size()) * 16);
    if (!created) {
      ctx->backend_error(func, created.error());
      return false;
    }
    buffer = std::move(*created);
    dirty = true;
  }
  if (dirty || count > uploaded) {
    const uint32_t n = std::max(count, dirty ? 0u : uploaded);
    if (Status ok = ctx->stream->upload(*buffer, 0, std::as_bytes(std::span(table.data(), n))); !ok) {
      ctx->backend_error(func, ok.error());
      return false;
    }
    dirty = false;
    uploaded = n;
  }
  return true;
}

// The GL texture target of an assembly texture target (NV_gpu_program4's targets; RECT is read as a 2D image).
uint32_t asm_target(nvasm::TextureTarget target) {
  switch (target) {
    case nvasm::TextureTarget::T1D: return GL_TEXTURE_1D;
    case nvasm::TextureTarget::T3D: return GL_TEXTURE_3D;
    case nvasm::TextureTarget::Cube: return GL_TEXTURE_CUBE_MAP;
    case nvasm::TextureTarget::Rect: return GL_TEXTURE_RECTANGLE;
    case nvasm::TextureTarget::Array1D: return GL_TEXTURE_1D_ARRAY;
    case nvasm::TextureTarget::Array2D: return GL_TEXTURE_2D_ARRAY;
    case nvasm::TextureTarget::ArrayCube: return GL_TEXTURE_CUBE_MAP_ARRAY;
    case nvasm::TextureTarget::Buffer: return GL_TEXTURE_BUFFER;
    case nvasm::TextureTarget::T2DMS: return GL_TEXTURE_2D_MULTISAMPLE;
    case nvasm::TextureTarget::Array2DMS: return GL_TEXTURE_2D_MULTISAMPLE_ARRAY;
    default: return GL_TEXTURE_2D;
  }
}

translator::GlSampledType asm_sampled(nvasm::SampledType type) {
  return type == nvasm::SampledType::Int    ? translator::GlSampledType::Int
         : type == nvasm::SampledType::Uint ? translator::GlSampledType::Uint
                                            : translator::GlSampledType::Float;
}

// The assembly program's bindings: program.storage[k] from GL_SHADER_STORAGE_BUFFER index k, program.counter[b] from
// GL_ATOMIC_COUNTER_BUFFER index b, program.buffer[a]
// from GL_UNIFORM_BUFFER index a, then program.local and program.env (asm_program.cpp).
// `lower_shadow`: for the module with the shadow comparisons in the shader (shadow_lowering.hpp).
bool gather_asm_bindings(Context* ctx, AsmProgramObject& object, const AsmExecutable& exe, const char* func,
                         bool lower_shadow) {
  auto& out = ctx->bindings_scratch;
  out.clear();
  ctx->gathered_serial = 0;  // bindings_scratch no longer holds a GLSL program's bindings
  ctx->shadow_needs_lowering = false;
  if (lower_shadow) {
    ctx->shadow_states_scratch.assign(exe.info.textures.size(), ShadowSamplerState{});
    ctx->swizzle_words_scratch.assign(exe.info.textures.size(), spirv_patch::kSwizzleIdentity);
  }
  for (uint32_t k : exe.storage_gl_binding) {
    const IndexedBinding* slot = k < ctx->ssbo.size() ? &ctx->ssbo[k] : nullptr;
    if (!push_slot(ctx, slot, "program.storage", k, kMaxStorageRange, backend::Access::ReadWrite, func)) return false;
  }
  // program.counter[b]: the range bound to GL_ATOMIC_COUNTER_BUFFER index b (bind_asm_scratch puts the scratch
  // buffer before these).
  for (uint32_t b : exe.counter_gl_binding) {
    const IndexedBinding* slot = b < ctx->acb.size() ? &ctx->acb[b] : nullptr;
    if (!push_slot(ctx, slot, "program.counter (GL_ATOMIC_COUNTER_BUFFER)", b, kMaxStorageRange,
                   backend::Access::ReadWrite, func)) {
      return false;
    }
  }
  for (uint32_t a : exe.parameter_gl_binding) {
    const IndexedBinding* slot = a < ctx->ubo.size() ? &ctx->ubo[a] : nullptr;
    // At most the program's parameter buffer window (the device's maxUniformBufferRange, up to 64 KiB).
    if (!push_slot(ctx, slot, "program.buffer (GL_UNIFORM_BUFFER)", a, exe.info.parameter_buffer_bytes,
                   backend::Access::Read, func)) {
      return false;
    }
  }
  if (exe.local_binding >= 0) {
    const uint32_t count = exe.info.local_parameter_count;
    if (!upload_parameters(ctx, object.local_buffer, object.local, count, object.local_dirty, object.local_uploaded,
                           func)) {
      return false;
    }
    out.push_back({object.local_buffer.get(), 0, VkDeviceSize(count) * 16, backend::Access::Read});
  }
  if (exe.env_binding >= 0) {
    const uint32_t count = exe.info.env_parameter_count;
    if (!upload_parameters(ctx, ctx->env_buffer, ctx->env, count, ctx->env_dirty, ctx->env_uploaded, func))
      return false;
    out.push_back({ctx->env_buffer.get(), 0, VkDeviceSize(count) * 16, backend::Access::Read});
  }
  if (exe.subroutine_binding >= 0) {
    const auto count = static_cast<uint32_t>(exe.info.subroutine_parameters.size());
    if (!upload_parameters(ctx, ctx->asm_subroutine_buffer, ctx->asm_subroutines, count, ctx->asm_subroutine_dirty,
                           ctx->asm_subroutine_uploaded, func)) {
      return false;
    }
    out.push_back({ctx->asm_subroutine_buffer.get(), 0, VkDeviceSize(count) * 16, backend::Access::Read});
  }
  // texture[n] then image[n], by increasing unit as gl_program_layout places them.
  ctx->image_bindings_scratch.clear();
  for (size_t k = 0; k < exe.info.textures.size(); ++k) {
    const nvasm::TextureBinding& t = exe.info.textures[k];
    OpaqueUse use;
    use.kind = t.target == nvasm::TextureTarget::Buffer ? translator::GlResourceKind::TextureBuffer
                                                        : translator::GlResourceKind::Texture;
    use.target = asm_target(t.target);
    use.shadow = t.shadow;
    use.sampled = t.types.empty() ? translator::GlSampledType::Float : asm_sampled(t.types.front());
    use.unit = t.unit;
    use.can_lower_shadow = !exe.spirv.empty();
    if (lower_shadow && t.shadow) use.shadow_state = &ctx->shadow_states_scratch[k];
    if (lower_shadow && !t.shadow && use.kind == translator::GlResourceKind::Texture) {
      use.swizzle_word = &ctx->swizzle_words_scratch[k];
    }
    if (!push_opaque_binding(ctx, use, func)) return false;
  }
  for (const nvasm::ImageBinding& image : exe.info.images) {
    OpaqueUse use;
    use.kind = image.target == nvasm::TextureTarget::Buffer ? translator::GlResourceKind::ImageBuffer
                                                            : translator::GlResourceKind::Image;
    use.target = asm_target(image.target);
    use.sampled = image.types.empty() ? translator::GlSampledType::Float : asm_sampled(image.types.front());
    use.format = image.formats.size() == 1 ? image.formats.front() : 0;
    use.access = image.write || image.atomic ? (image.read || image.atomic ? backend::Access::ReadWrite
                                                                           : backend::Access::Write)
                                             : backend::Access::Read;
    use.unit = image.unit;
    if (!push_opaque_binding(ctx, use, func)) return false;
  }
  return true;
}

// glDispatchComputeIndirect without a CPU wait: a one-invocation pass copies the command into the context's
// counts buffer — or zeros when a count is above GL_MAX_COMPUTE_WORK_GROUP_COUNT (GL leaves that undefined; Vulkan
// must never see it) — and the dispatch reads its counts from there (vkCmdDispatchIndirect). The backend orders
// both: the counts buffer is read as indirect parameters, which the stream orders after the pass that wrote them.
constexpr const char* kIndirectCheckSource = R"(#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0, std430) readonly buffer Command { uint words[]; } command;
layout(set = 0, binding = 1, std430) writeonly buffer Counts { uint counts[3]; } checked;
layout(push_constant) uniform Limits { uint first; uint max_x; uint max_y; uint max_z; } limits;
void main() {
  uvec3 v = uvec3(command.words[limits.first], command.words[limits.first + 1u], command.words[limits.first + 2u]);
  bool ok = v.x <= limits.max_x && v.y <= limits.max_y && v.z <= limits.max_z;
  checked.counts[0] = ok ? v.x : 0u;
  checked.counts[1] = ok ? v.y : 0u;
  checked.counts[2] = ok ? v.z : 0u;
}
)";

// The checked counts buffer with the command at `offset` of `command` copied into it; null with the error
// recorded.
backend::Buffer* check_indirect(Context* ctx, BufferObject& command, VkDeviceSize offset, const char* func) {
  DeviceState& state = ctx->device_state;
  std::shared_ptr<backend::Shader> shader;
  {
    std::lock_guard lock(state.indirect_mutex);
    if (!state.indirect_check) {
      auto spirv = translator::compile_glsl_compute(kIndirectCheckSource);
      if (!spirv) {
        ctx->set_error(GL_OUT_OF_MEMORY, std::string(func) + ": internal: " + spirv.error().message);
        return nullptr;
      }
      backend::ShaderDesc desc;
      desc.spirv = *spirv;
      desc.layout.bindings = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
      desc.layout.push_constant_bytes = 16;
      desc.name = "glDispatchComputeIndirect count check";
      auto created = backend::Shader::create(*state.device, desc);
      if (!created) {
        ctx->backend_error(func, created.error());
        return nullptr;
      }
      state.indirect_check = std::move(*created);
    }
    shader = state.indirect_check;
  }
  if (!ctx->indirect_counts) {
    auto created = backend::Buffer::create(*state.device, 16);
    if (!created) {
      ctx->backend_error(func, created.error());
      return nullptr;
    }
    ctx->indirect_counts = std::move(*created);
  }
  // Storage offsets must be aligned: bind from the aligned offset below and index the words from there.
  const VkDeviceSize alignment = std::max<VkDeviceSize>(4, ctx->caps.ssbo_alignment);
  const VkDeviceSize base = offset / alignment * alignment;
  const VkDeviceSize range = std::min<VkDeviceSize>(command.buffer->size() - base, kMaxStorageRange);
  const std::array<backend::BufferBinding, 2> bindings{
      backend::BufferBinding{command.buffer.get(), base, range, backend::Access::Read},
      backend::BufferBinding{ctx->indirect_counts.get(), 0, 16, backend::Access::Write}};
  const std::array<uint32_t, 4> limits{static_cast<uint32_t>((offset - base) / 4), ctx->caps.max_group_count[0],
                                       ctx->caps.max_group_count[1], ctx->caps.max_group_count[2]};
  backend::DispatchInfo info;
  info.shader = shader.get();
  info.size = {1, 1, 1};
  info.groups = {1, 1, 1};
  info.bindings = bindings;
  info.push_constants = std::as_bytes(std::span(limits));
  if (Status ok = ctx->stream->dispatch(info); !ok) {
    ctx->backend_error(func, ok.error());
    return nullptr;
  }
  return ctx->indirect_counts.get();
}

// What a dispatch runs: the current GLSL program, else the enabled GL_COMPUTE_PROGRAM_NV program.
struct Selected {
  Executable* glsl = nullptr;
  AsmProgramObject* object = nullptr;
  AsmExecutable* assembly = nullptr;
  bool variable() const {
    return glsl ? glsl->program.group_size == translator::GroupSize::Variable
                : assembly->info.group_size_form == nvasm::GroupSizeForm::Variable;
  }
  backend::GroupSize fixed_size() const {
    if (glsl) return {glsl->program.fixed_size[0], glsl->program.fixed_size[1], glsl->program.fixed_size[2]};
    return {assembly->info.group_size[0], assembly->info.group_size[1], assembly->info.group_size[2]};
  }
};

// An indirect dispatch: the group counts at `offset` of `buffer`, read by the GPU. `host_groups`: the same counts
// read on the host, for an assembly program with a TEMP array scratch buffer only (its size depends on them).
struct Indirect {
  backend::Buffer* buffer = nullptr;
  VkDeviceSize offset = 0;
  std::array<uint32_t, 3> host_groups{};
};

// The largest TEMP array scratch buffer a dispatch may use, below the device's maxStorageBufferRange: 1 GiB, past
// which the dispatch is more likely a mistake than a program (NVIDIA's 512 KiB of local memory per thread times two
// thousand invocations).
constexpr VkDeviceSize kMaxAsmScratchBytes = VkDeviceSize(1) << 30;

// The TEMP array scratch buffer of an assembly program (ProgramInfo::scratch_bytes_per_invocation; asm_program.cpp):
// the context's device-local buffer, grown to groups x group invocations x slice bytes when smaller, inserted in
// ctx->bindings_scratch after program.storage. Its contents need no care: the program zeroes its slice first.
// False with GL_OUT_OF_MEMORY (and its KHR_debug message) when the dispatch needs more than the device binds.
bool bind_asm_scratch(Context* ctx, const AsmExecutable& exe, backend::GroupSize size,
                      const std::array<uint32_t, 3>& groups, const char* func) {
  const uint64_t slice = exe.info.scratch_bytes_per_invocation;
  // Group counts are at most 2^31 - 1 and group sizes at most a few thousand invocations: no overflow before the
  // division-free comparison below (slice <= 512 KiB).
  const long double invocations =
      static_cast<long double>(groups[0]) * groups[1] * groups[2] * size.x * size.y * size.z;
  const VkDeviceSize limit = std::min<VkDeviceSize>(ctx->caps.max_storage_buffer_range, kMaxAsmScratchBytes);
  if (invocations * static_cast<long double>(slice) > static_cast<long double>(limit)) {
    char text[400];
    std::snprintf(text, sizeof text,
                  "%s: the assembly program's TEMP arrays take %llu bytes per invocation in a scratch buffer, and "
                  "this dispatch of %.0Lf invocations needs more than the %llu bytes Bismuth binds "
                  "(maxStorageBufferRange or 1 GiB); the dispatch was skipped",
                  func, static_cast<unsigned long long>(slice), invocations, static_cast<unsigned long long>(limit));
    ctx->set_error(GL_OUT_OF_MEMORY, text);
    return false;
  }
  const VkDeviceSize bytes = std::max<VkDeviceSize>(slice, static_cast<VkDeviceSize>(invocations) * slice);
  if (!ctx->asm_scratch || ctx->asm_scratch->size() < bytes) {
    // Recorded dispatches keep the old buffer alive until they complete (backend::Buffer's deferred release).
    auto created = backend::Buffer::create(*ctx->device_state.device, bytes);
    if (!created) {
      ctx->backend_error(func, created.error());
      return false;
    }
    ctx->asm_scratch = std::move(*created);
  }
  auto& out = ctx->bindings_scratch;
  out.insert(out.begin() + static_cast<std::ptrdiff_t>(exe.storage_gl_binding.size()),
             backend::BufferBinding{ctx->asm_scratch.get(), 0, bytes, backend::Access::ReadWrite});
  return true;
}

void record(Context* ctx, const backend::Shader* shader, uint32_t subgroup_size, backend::GroupSize size,
            const std::array<uint32_t, 3>& groups, const Indirect& indirect, const char* func,
            std::span<const backend::SpecValue> spec_values = {}, bool gpu_addresses = false,
            std::span<const std::byte> push_constants = {}) {
  backend::DispatchInfo info;
  // GL_NV_shader_buffer_load: a program that reads or writes GPU addresses may reach any resident buffer.
  if (gpu_addresses) info.address_buffers = resident_bindings(ctx);
  info.shader = shader;
  info.spec_values = spec_values;
  info.push_constants = push_constants;
  info.size = size;
  info.subgroup_size = subgroup_size;
  info.groups = groups;
  info.bindings = ctx->bindings_scratch;
  info.images = ctx->image_bindings_scratch;
  info.indirect = indirect.buffer;
  info.indirect_offset = indirect.offset;
  Status ok = indirect.buffer ? ctx->stream->dispatch_indirect(info) : ctx->stream->dispatch(info);
  if (!ok) ctx->backend_error(func, ok.error());
}

// The module a dispatch runs and its specialization values. A shadow sampler on a texture the device cannot compare
// (a colour-stored depth texture) makes the binding pass ask for the module that compares in the shader
// (shadow_lowering.cpp); the program remembers it, so later dispatches gather once. `gather(lower_shadow)` gathers
// the bindings for one module; false: the dispatch does not happen (errors are set).
struct ShaderChoice {
  const backend::Shader* shader = nullptr;
  std::span<const backend::SpecValue> spec_values;
  std::span<const std::byte> push_constants;  // the lowered shadow bindings' LOD parameters
};

template <class Exe, class Gather>
std::optional<ShaderChoice> choose_shader(Context* ctx, Exe& exe, const char* func, Gather gather) {
  bool lower_shadow = exe.shadow_lowering->wanted.load(std::memory_order_relaxed);
  if (!gather(lower_shadow)) {
    if (lower_shadow || !ctx->shadow_needs_lowering) return std::nullopt;
    exe.shadow_lowering->wanted.store(true, std::memory_order_relaxed);
    lower_shadow = true;
    if (!gather(true)) return std::nullopt;
  }
  if (!lower_shadow) return ShaderChoice{exe.shader.get(), {}};
  const backend::Shader* lowered = shadow_lowered_shader(ctx, exe, func);
  if (lowered == nullptr) return std::nullopt;
  return ShaderChoice{lowered, ctx->spec_values_scratch, std::as_bytes(std::span(ctx->shadow_push_scratch))};
}

void run(Context* ctx, const Selected& selected, backend::GroupSize size, const std::array<uint32_t, 3>& groups,
         const char* func, const Indirect& indirect = {}) {
  // A group count of zero is no error and dispatches nothing (GL 4.6 §19).
  if (groups[0] == 0 || groups[1] == 0 || groups[2] == 0) return;
  if (selected.assembly != nullptr) {
    AsmExecutable& exe = *selected.assembly;
    // As for GLSL programs below: texture[n] with a SHADOW target on a texture the device cannot compare.
    const auto choice = choose_shader(ctx, exe, func, [&](bool lower_shadow) {
      return gather_asm_bindings(ctx, *selected.object, exe, func, lower_shadow);
    });
    if (!choice) return;
    if (exe.info.scratch_bytes_per_invocation > 0 &&
        !bind_asm_scratch(ctx, exe, size, indirect.buffer ? indirect.host_groups : groups, func)) {
      return;
    }
    record(ctx, choice->shader, exe.subgroup_size, size, groups, indirect, func, choice->spec_values,
           exe.info.uses_buffer_device_address, choice->push_constants);
    return;
  }
  Executable& exe = *selected.glsl;
  // The same buffer-only program as the previous dispatch, nothing rebound and no store replaced since: the
  // bindings in ctx->bindings_scratch are what gather_bindings would make again, and a program without samplers
  // never takes the shadow-lowered module.
  ShaderChoice choice{exe.shader.get(), {}, {}};
  if (ctx->gathered_serial != exe.serial ||
      ctx->gathered_generation != g_buffer_bindings_generation.load(std::memory_order_relaxed)) {
    const auto chosen =
        choose_shader(ctx, exe, func, [&](bool lower_shadow) { return gather_bindings(ctx, exe, func, lower_shadow); });
    if (!chosen) return;
    choice = *chosen;
  }
  if (exe.uniform_dirty) [[unlikely]] {
    if (Status ok = ctx->stream->upload(*exe.uniform_buffer, 0, exe.uniform_data); !ok) {
      ctx->backend_error(func, ok.error());
      return;
    }
    exe.uniform_dirty = false;
  }
  record(ctx, choice.shader, exe.subgroup_size, size, groups, indirect, func, choice.spec_values, false,
         choice.push_constants);
}

// Checks shared by every dispatch call: a current GLSL program (it wins, as in NVIDIA's driver), else an enabled
// GL_COMPUTE_PROGRAM_NV with a loaded program. False with the error recorded.
bool active_program(Context* ctx, const char* func, Selected& out) {
  settle_current_programs(ctx);  // a relink of the current program may still run (parallel_compile.hpp)
  // A current program linked from graphics stages has no compute stage (GL 4.6 §19: INVALID_OPERATION "if there is
  // no active program for the compute shader stage"); an enabled GL_COMPUTE_PROGRAM_NV still provides one.
  if (ctx->program && ctx->program->executable && !ctx->program->executable->graphics) {
    out.glsl = ctx->program->executable.get();
    return true;
  }
  // GL 4.6 §7.3: without a current program, the bound program pipeline's compute stage.
  if (!ctx->program && ctx->pipeline && ctx->pipeline->compute && ctx->pipeline->compute->executable) {
    out.glsl = ctx->pipeline->compute->executable.get();
    return true;
  }
  if (ctx->compute_program_enabled) {
    if (!ctx->asm_program || !ctx->asm_program->executable) {
      ctx->set_error(GL_INVALID_OPERATION, std::string(func) +
                                               ": GL_COMPUTE_PROGRAM_NV is enabled and the bound "
                                               "program " +
                                               std::to_string(ctx->asm_program ? ctx->asm_program->name : 0) +
                                               " has no valid program string loaded");
      return false;
    }
    out.object = ctx->asm_program.get();
    out.assembly = ctx->asm_program->executable.get();
    return true;
  }
  ctx->set_error(GL_INVALID_OPERATION, std::string(func) +
                                           ": no active program object for the compute shader stage "
                                           "and GL_COMPUTE_PROGRAM_NV is disabled");
  return false;
}

// glMemoryBarrier's bits as the backend's barrier targets (GL 4.6 §7.13.2): each bit names the accesses after
// the barrier that must see shader writes made before it. The source is always earlier dispatches' shader
// writes; buffer commands (BufferSubData, copies, clears, maps, GetBufferSubData) are ordered with earlier
// dispatches by the stream itself (BarrierModel::Gl), so BUFFER_UPDATE and CLIENT_MAPPED add only precision.
backend::BarrierTargets barrier_targets(GLbitfield bits) {
  using namespace backend;
  if (bits == GL_ALL_BARRIER_BITS) return kBarrierAllTargets;
  BarrierTargets t = 0;
  // "Shader memory accesses ... after the barrier will reflect data written by shaders prior to the barrier."
  if (bits & (GL_SHADER_STORAGE_BARRIER_BIT | GL_ATOMIC_COUNTER_BARRIER_BIT)) t |= kBarrierStorage;
  if (bits & GL_UNIFORM_BARRIER_BIT) t |= kBarrierUniform;
  // "Command data sourced from buffer objects by Draw*Indirect and DispatchComputeIndirect": the GPU reads the
  // parameters, after the shim's count-check pass has read them in a compute shader (dispatch.cpp).
  if (bits & GL_COMMAND_BARRIER_BIT) t |= kBarrierIndirectCommand | kBarrierStorage;
  // "Reads or writes via BufferSubData, CopyBufferSubData, ClearBufferSubData, or GetBufferSubData, or to buffer
  // object memory mapped by MapBuffer or MapBufferRange".
  if (bits & GL_BUFFER_UPDATE_BARRIER_BIT) t |= kBarrierTransfer | kBarrierHost;
  if (bits & (GL_PIXEL_BUFFER_BARRIER_BIT | GL_QUERY_BUFFER_BARRIER_BIT)) t |= kBarrierTransfer;
  // "Access by the client to persistent mapped regions of buffer objects" (after a fence or glFinish).
  if (bits & GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT) t |= kBarrierHost;
  // "Memory accesses using shader image load, store, and atomic built-in functions issued after the barrier will
  // reflect data written by shaders prior to the barrier."
  if (bits & GL_SHADER_IMAGE_ACCESS_BARRIER_BIT) t |= kBarrierImage;
  // NV_shader_buffer_store, SHADER_GLOBAL_ACCESS_BARRIER_BIT_NV: "Memory accesses using shader global loads,
  // stores, and atomics issued after the barrier will reflect data written by shaders prior to the barrier." In
  // Vulkan GPU-address accesses are shader reads and writes, ordered like storage buffers'.
  if (bits & GL_SHADER_GLOBAL_ACCESS_BARRIER_BIT_NV) t |= kBarrierStorage;
  // "Texture fetches from shaders, including fetches from buffer object memory via buffer textures, after the
  // barrier will reflect data written by shaders prior to the barrier."
  if (bits & GL_TEXTURE_FETCH_BARRIER_BIT) t |= kBarrierTextureFetch;
  // "Writes to a texture via Tex(Sub)Image*, CopyTex*, ClearTex*Image, or compressed variants, and reads via
  // GetTexImage after the barrier will not execute until all shader writes initiated prior to the barrier complete."
  if (bits & GL_TEXTURE_UPDATE_BARRIER_BIT) t |= kBarrierTextureUpdate;
  // "Reads and writes via framebuffer object attachments after the barrier will reflect data written by shaders
  // prior to the barrier" (glReadPixels, glClear*, glBlitFramebuffer: transfers here).
  if (bits & GL_FRAMEBUFFER_BARRIER_BIT) t |= kBarrierFramebuffer;
  // Draws are refused: their vertex, element and transform-feedback reads never happen after a barrier.
  return t;
}

// Out of line: the dispatch path carries one comparison per count, not the message building.
[[gnu::cold, gnu::noinline]] bool counts_error(Context* ctx, const std::array<uint32_t, 3>& groups, const char* func) {
  for (int i = 0; i < 3; ++i) {
    if (groups[i] > ctx->caps.max_group_count[i]) {
      ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": num_groups[" + std::to_string(i) + "] = " +
                                           std::to_string(groups[i]) + " is above GL_MAX_COMPUTE_WORK_GROUP_COUNT[" +
                                           std::to_string(i) + "] = " + std::to_string(ctx->caps.max_group_count[i]));
      return false;
    }
  }
  return true;
}

inline bool counts_ok(Context* ctx, const std::array<uint32_t, 3>& groups, const char* func) {
  const auto& max = ctx->caps.max_group_count;
  if ((groups[0] > max[0]) | (groups[1] > max[1]) | (groups[2] > max[2])) [[unlikely]]
    return counts_error(ctx, groups, func);
  return true;
}

// GL 4.6 §19 / ARB_compute_variable_group_size: INVALID_VALUE for a group size of zero or above the variable
// limits; false with the error set. Out of line for the same reason as counts_error.
[[gnu::cold, gnu::noinline]] bool variable_size_error(Context* ctx, const std::array<uint32_t, 3>& size,
                                                      const char* func) {
  for (int i = 0; i < 3; ++i) {
    if (size[i] == 0 || size[i] > ctx->caps.max_variable_group_size[i]) {
      ctx->set_error(GL_INVALID_VALUE,
                     std::string(func) + ": group_size[" + std::to_string(i) + "] = " + std::to_string(size[i]) +
                         " is zero or above GL_MAX_COMPUTE_VARIABLE_GROUP_SIZE_ARB[" + std::to_string(i) +
                         "] = " + std::to_string(ctx->caps.max_variable_group_size[i]));
      return false;
    }
  }
  const uint64_t invocations = uint64_t(size[0]) * size[1] * size[2];
  ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": the group has " + std::to_string(invocations) +
                                       " invocations, above GL_MAX_COMPUTE_VARIABLE_GROUP_INVOCATIONS_ARB = " +
                                       std::to_string(ctx->caps.max_variable_group_invocations));
  return false;
}

inline bool variable_size_ok(Context* ctx, const std::array<uint32_t, 3>& size, const char* func) {
  const auto& max = ctx->caps.max_variable_group_size;
  // size - 1 wraps a zero above every limit: one comparison per dimension.
  const bool bad = (size[0] - 1 >= max[0]) | (size[1] - 1 >= max[1]) | (size[2] - 1 >= max[2]) ||
                   uint64_t(size[0]) * size[1] * size[2] > ctx->caps.max_variable_group_invocations;
  if (bad) [[unlikely]]
    return variable_size_error(ctx, size, func);
  return true;
}

}  // namespace
}  // namespace bismuth::gl

using namespace bismuth;
using namespace bismuth::gl;

extern "C" {

GLAPI void APIENTRY glDispatchCompute(GLuint num_groups_x, GLuint num_groups_y, GLuint num_groups_z) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  Selected exe;
  if (!active_program(ctx, "glDispatchCompute", exe)) return;
  if (exe.variable()) {
    ctx->set_error(GL_INVALID_OPERATION,
                   "glDispatchCompute: the active program has a variable work group size; "
                   "use glDispatchComputeGroupSizeARB");
    return;
  }
  const std::array<uint32_t, 3> groups{num_groups_x, num_groups_y, num_groups_z};
  if (!counts_ok(ctx, groups, "glDispatchCompute")) return;
  run(ctx, exe, exe.fixed_size(), groups, "glDispatchCompute");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glDispatchComputeGroupSizeARB(GLuint num_groups_x, GLuint num_groups_y, GLuint num_groups_z,
                                                  GLuint group_size_x, GLuint group_size_y, GLuint group_size_z) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  constexpr const char* func = "glDispatchComputeGroupSizeARB";
  if (!ctx->caps.variable_group_size) {
    ctx->set_error(
        GL_INVALID_OPERATION,
        std::string(func) + ": GL_ARB_compute_variable_group_size is not supported on " + ctx->caps.device_name);
    return;
  }
  Selected exe;
  if (!active_program(ctx, func, exe)) return;
  if (!exe.variable()) {
    // GL_BISMUTH_num_waves: "INVALID_OPERATION ... if the active program ... declares num_waves".
    const bool waves = exe.glsl && exe.glsl->program.group_size == translator::GroupSize::NumWaves;
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) +
                                             (waves ? ": the active program declares its work group "
                                                      "size in waves (GL_BISMUTH_num_waves); "
                                                    : ": the active program has a fixed work group "
                                                      "size; ") +
                                             "use glDispatchCompute");
    return;
  }
  const std::array<uint32_t, 3> groups{num_groups_x, num_groups_y, num_groups_z};
  if (!counts_ok(ctx, groups, func)) return;
  const std::array<uint32_t, 3> size{group_size_x, group_size_y, group_size_z};
  if (!variable_size_ok(ctx, size, func)) return;
  run(ctx, exe, {size[0], size[1], size[2]}, groups, func);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glDispatchComputeIndirect(GLintptr indirect) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  constexpr const char* func = "glDispatchComputeIndirect";
  if (indirect < 0 || indirect % 4 != 0) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": indirect is negative or not a multiple of four");
    return;
  }
  Selected exe;
  if (!active_program(ctx, func, exe)) return;
  if (exe.variable()) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the active program has a variable work group size");
    return;
  }
  const auto& b = ctx->dispatch_indirect;
  if (!b) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": no buffer is bound to GL_DISPATCH_INDIRECT_BUFFER");
    return;
  }
  // The command is three uints; indirect + 12 is compared without forming the sum, which wraps near INT64_MAX.
  if (!range_inside(indirect, 12, b->size)) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the command at offset " + std::to_string(indirect) +
                                             " reads past the end of the GL_DISPATCH_INDIRECT_BUFFER (" +
                                             std::to_string(b->size) + " bytes)");
    return;
  }
  if (b->mapped && !(b->map_access & GL_MAP_PERSISTENT_BIT)) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the GL_DISPATCH_INDIRECT_BUFFER is mapped");
    return;
  }
  // The GPU reads the counts (vkCmdDispatchIndirect), after a GPU pass that zeroes counts above
  // GL_MAX_COMPUTE_WORK_GROUP_COUNT (undefined in GL 4.6 §19): no CPU wait.
  Indirect command;
  if (exe.assembly && exe.assembly->info.scratch_bytes_per_invocation > 0) {
    // An assembly program with TEMP arrays in a scratch buffer needs the group counts to size it: read them on the
    // host. The stream orders the readback after earlier commands that write the buffer (as glGetBufferSubData),
    // so this waits for them; such programs are rare, and the GPU still dispatches from the checked copy below.
    std::array<uint32_t, 3> counts{};
    if (Status ok = ctx->stream->readback(*b->buffer, static_cast<VkDeviceSize>(indirect),
                                          std::as_writable_bytes(std::span(counts)));
        !ok) {
      ctx->backend_error(func, ok.error());
      return;
    }
    // Counts above GL_MAX_COMPUTE_WORK_GROUP_COUNT dispatch nothing (check_indirect): one slice is enough then.
    bool in_range = true;
    for (int i = 0; i < 3; ++i) in_range = in_range && counts[i] <= ctx->caps.max_group_count[i];
    command.host_groups = in_range ? counts : std::array<uint32_t, 3>{1, 1, 1};
    if (counts[0] == 0 || counts[1] == 0 || counts[2] == 0) command.host_groups = {1, 1, 1};
  }
  command.buffer = check_indirect(ctx, *b, static_cast<VkDeviceSize>(indirect), func);
  if (command.buffer == nullptr) return;
  run(ctx, exe, exe.fixed_size(), {1, 1, 1}, func, command);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glMemoryBarrier(GLbitfield barriers) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  constexpr GLbitfield kAll =
      GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT | GL_ELEMENT_ARRAY_BARRIER_BIT | GL_UNIFORM_BARRIER_BIT |
      GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_COMMAND_BARRIER_BIT |
      GL_PIXEL_BUFFER_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT |
      GL_FRAMEBUFFER_BARRIER_BIT | GL_TRANSFORM_FEEDBACK_BARRIER_BIT | GL_ATOMIC_COUNTER_BARRIER_BIT |
      GL_SHADER_STORAGE_BARRIER_BIT | GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT | GL_QUERY_BUFFER_BARRIER_BIT;
  // OpenGL ES 3.2 §7.11.2 has no QUERY_BUFFER_BARRIER_BIT (CLIENT_MAPPED_BUFFER_BARRIER_BIT comes with
  // EXT_buffer_storage, which ES contexts have: context_version.cpp).
  constexpr GLbitfield kDesktopOnly = GL_QUERY_BUFFER_BARRIER_BIT;
  GLbitfield valid = ctx->version.es ? kAll & ~kDesktopOnly : kAll;
  // NV_shader_buffer_store's SHADER_GLOBAL_ACCESS_BARRIER_BIT_NV, where the extension is listed.
  if (!ctx->version.es && ctx->caps.compile_target.buffer_device_address) {
    valid |= GL_SHADER_GLOBAL_ACCESS_BARRIER_BIT_NV;
  }
  if (barriers != GL_ALL_BARRIER_BITS && (barriers & ~valid) != 0) {
    ctx->set_error(GL_INVALID_VALUE, "glMemoryBarrier: barriers has bits that are not barrier bits of this API");
    return;
  }
  if (Status ok = ctx->stream->memory_barrier(barrier_targets(barriers)); !ok) {
    ctx->backend_error("glMemoryBarrier", ok.error());
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glMemoryBarrierByRegion(GLbitfield barriers) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  constexpr GLbitfield kAllowed = GL_ATOMIC_COUNTER_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT |
                                  GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT |
                                  GL_TEXTURE_FETCH_BARRIER_BIT | GL_UNIFORM_BARRIER_BIT;
  if (barriers != GL_ALL_BARRIER_BITS && (barriers & ~kAllowed) != 0) {
    ctx->set_error(GL_INVALID_VALUE, "glMemoryBarrierByRegion: barriers has bits MemoryBarrierByRegion does not take");
    return;
  }
  // One compute "region" covers everything: the same barrier as glMemoryBarrier's.
  if (Status ok = ctx->stream->memory_barrier(barrier_targets(barriers)); !ok) {
    ctx->backend_error("glMemoryBarrierByRegion", ok.error());
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

}  // extern "C"
