// libbismuth-gl internals: the objects behind the GL and EGL entry points.
//
//   DeviceState  one Vulkan device (created by Bismuth or adopted), its pipeline cache and the GL limits derived
//                from it; shared by every context created on it.
//   ShareGroup   GL objects (shaders, programs, buffers, syncs) shared by contexts created with a share context.
//   Context      GL context state: current program, indexed binding points, errors, KHR_debug, queries, and its
//                own CommandStream (a context is current in one thread at a time, like a CommandStream).
#pragma once

#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>
// The assembly-program entry points (ARB_vertex_program, NV_gpu_program4, NV_compute_program5) are not core:
// glext.h declares them (and glcorearb.h's declarations agree with its own).
#include <GL/glext.h>

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "bismuth/backend/buffer.hpp"
#include "bismuth/backend/command_stream.hpp"
#include "bismuth/backend/device.hpp"
#include "bismuth/backend/instance.hpp"
#include "bismuth/backend/pipeline_cache.hpp"
#include "bismuth/backend/shader.hpp"
#include "bismuth/common/compile_target.hpp"
#include "bismuth/gl/glext_bismuth.h"
#include "bismuth/nvasm/assembler.hpp"
#include "bismuth/spirv_patch/passes/shadow_samplers.hpp"
#include "bismuth/translator/gl_program.hpp"
#include "bismuth/translator/graphics_program.hpp"
#include "pixel_store.hpp"
#include "textures.hpp"
#include "variable_size.hpp"

// Tokens of GL_ARB_compute_variable_group_size (glcorearb.h names them too; kept here for clarity).
#ifndef GL_MAX_COMPUTE_VARIABLE_GROUP_INVOCATIONS_ARB
#define GL_MAX_COMPUTE_VARIABLE_GROUP_INVOCATIONS_ARB 0x9344
#define GL_MAX_COMPUTE_VARIABLE_GROUP_SIZE_ARB 0x9345
#endif

namespace bismuth::gl {

using translator::GlBindingMap;

// GL_KHR_parallel_shader_compile (parallel_compile.hpp, compiler_threads.hpp).
class CompilerThreads;
std::shared_ptr<CompilerThreads> make_compiler_threads();
struct PendingCompile;
struct PendingLink;

// What the device supports, as GL reports it.
struct Caps {
  std::string device_name;
  std::string renderer;  // GL_RENDERER
  std::string version;   // GL_VERSION
  std::vector<std::string> extensions;
  std::vector<std::string> spirv_extensions;  // GL_SPIR_V_EXTENSIONS (gl_spirv.cpp)
  std::array<uint32_t, 3> max_group_count{};
  std::array<uint32_t, 3> max_group_size{};
  uint32_t max_group_invocations = 0;
  std::array<uint32_t, 3> max_variable_group_size{};
  uint32_t max_variable_group_invocations = 0;
  uint32_t max_shared_memory = 0;
  uint32_t ssbo_alignment = 1;
  uint32_t max_storage_buffer_range = 1u << 27;  // maxStorageBufferRange (assembly programs' TEMP array scratch)
  uint32_t ubo_alignment = 1;
  uint32_t subgroup_size = 0;
  bool variable_group_size = false;
  bool ballot_vote = false;  // GL_ARB_shader_ballot / GL_ARB_shader_group_vote
  // The required subgroup size for ballot/vote programs (0: the device's fixed size is already <= 64).
  uint32_t ballot_subgroup_size = 0;
  bool int64 = false;
  bool float64 = false;
  bool float_atomic_add = false;
  // NV thread-group programs (32-lane warps): whether the device can run compute with 32-lane subgroups, and the
  // required subgroup size to ask for (0: the device's only size is 32).
  bool subgroup32 = false;
  uint32_t subgroup32_required = 0;
  bool thread_group_ops = false;    // ballot + vote in compute (NV_shader_thread_group)
  bool thread_shuffle_ops = false;  // shuffle in compute (NV_shader_thread_shuffle)
  // GL_KHR_shader_subgroup and its state (VkPhysicalDeviceSubgroupProperties in GL's bits).
  bool khr_shader_subgroup = false;
  GLbitfield subgroup_stages = 0;    // SUBGROUP_SUPPORTED_STAGES_KHR
  GLbitfield subgroup_features = 0;  // SUBGROUP_SUPPORTED_FEATURES_KHR
  bool subgroup_quad_all_stages = false;
  // The device facts the programs' SPIR-V depends on (backend::compile_target), read once per device; its
  // `extensions` are the device-gated GLSL extensions the front accepts.
  CompileTarget compile_target;
  bool has_extension(const char* name) const;
};

struct BinaryFingerprint;  // program_binary_format.hpp

class DeviceState {
 public:
  ~DeviceState();
  std::shared_ptr<backend::Instance> instance_ref;  // null when adopted; outlives the device
  std::unique_ptr<backend::Device> device;
  std::unique_ptr<backend::PipelineCache> cache;
  Caps caps;
  // binary_fingerprint(*this) (program_binary_format.cpp), made once per BISMUTH_RUNTIME_GROUP_SIZE and
  // BISMUTH_SHARED_VARIANTS setting (variant_settings()): every compile and link asks for it (program cache keys), and
  // it is a driver query and a hash of the device facts.
  mutable std::once_flag fingerprint_once[8];
  mutable std::shared_ptr<const BinaryFingerprint> fingerprint[8];
  // glDispatchComputeIndirect's count check on the GPU (dispatch.cpp), created on first use.
  std::mutex indirect_mutex;
  std::shared_ptr<backend::Shader> indirect_check;
  // glGenerateMipmap's box-filter compute shaders (texture_mipmaps.cpp), per shape (1D array, 2D array, 3D),
  // created on first use under indirect_mutex.
  std::array<std::shared_ptr<backend::Shader>, 3> mipmap_shaders;
  // Background compiles and links (compiler_threads.hpp); stopped first in the destructor: jobs use the device.
  std::shared_ptr<CompilerThreads> compiler_threads = make_compiler_threads();
};

struct BufferObject {
  GLuint name = 0;
  bool has_store = false;  // glBufferData/glBufferStorage happened (or glCreateBuffers: an empty store)
  std::shared_ptr<backend::Buffer> buffer;  // null while size == 0
  GLsizeiptr size = 0;
  GLenum usage = GL_STATIC_DRAW;
  bool immutable = false;
  GLbitfield storage_flags = 0;
  // Mapping: a host copy of the mapped range, written back on unmap / flush (works for device-local buffers), or
  // for persistent maps the buffer's own host-coherent memory (map_direct).
  bool mapped = false;
  GLbitfield map_access = 0;
  GLintptr map_offset = 0;
  GLsizeiptr map_length = 0;
  std::vector<std::byte> map_copy;
  // Persistent maps of persistent storage: the pointer is the buffer's host-coherent memory (no copy).
  bool map_direct = false;
  std::string label;  // KHR_debug glObjectLabel (debug_annotations.cpp)
};

struct ShaderObject {
  GLuint name = 0;
  GLenum type = GL_COMPUTE_SHADER;
  std::string source;
  std::shared_ptr<const translator::GlShader> compiled;
  // What the last successful compile of a compute shader's GLSL/HLSL compiled (glShaderSource may replace `source`
  // afterwards; GL links what was compiled): the program cache's key of it, and the source and options the front
  // compiles when a compile record answered glCompileShader (compiled is null then) and a link needs the front after
  // all (program_cache.hpp).
  struct CompiledSource {
    backend::Hash128 key;
    std::string source;
    translator::GlCompileOptions options;
  };
  std::shared_ptr<const CompiledSource> compiled_source;
  // Vertex, tessellation, geometry and fragment shaders (graphics_program.cpp): compiled and linked, never run.
  std::shared_ptr<const translator::GlGraphicsShader> graphics;
  bool compile_status = false;
  std::string info_log;
  bool delete_pending = false;
  uint32_t attachments = 0;
  // ARB_gl_spirv: a SPIR-V module from glShaderBinary, usable after glSpecializeShader.
  bool spirv_binary = false;
  std::vector<uint32_t> spirv;
  std::string spirv_entry;  // set by glSpecializeShader
  bool specialized = false;
  std::string label;  // KHR_debug glObjectLabel
  // glShaderSourceHLSLBISMUTH: the source is HLSL with this entry point (GL_SHADER_SOURCE_HLSL_BISMUTH).
  bool hlsl = false;
  std::string hlsl_entry;
  // A compile running on a compiler thread (parallel_compile.hpp); read and written under the share group's mutex.
  std::shared_ptr<PendingCompile> pending;
};

// The executable of one successful link: what glUseProgram installs and dispatch uses.
struct Location {
  // A location no uniform has (a gap between the explicit locations of a SPIR-V program's uniforms).
  static constexpr uint32_t kUnused = UINT32_MAX;
  uint32_t uniform = 0;  // index into program.uniforms
  uint32_t element = 0;  // array element
};

// What a lowered shadow binding reads at a dispatch: its state word (spirv_patch kShadowState*) and its LOD and wrap
// parameters (kShadowLod*: TEXTURE_LOD_BIAS, MAX_TEXTURE_LOD_BIAS, TEXTURE_MIN_LOD, TEXTURE_MAX_LOD, TEXTURE_WRAP_S,
// TEXTURE_WRAP_T, the border depth, unused).
struct ShadowSamplerState {
  uint32_t word = 0;
  std::array<float, spirv_patch::kShadowLodCount> lod = {0.0f, 0.0f, -1000.0f, 1000.0f, 0.0f, 0.0f, 0.0f, 0.0f};
  friend bool operator==(const ShadowSamplerState&, const ShadowSamplerState&) = default;
};

// The executable's module with its shadow samplers' depth comparison done in the shader (spirv_patch
// lower_shadow_samplers), for devices that cannot compare the colour formats depth textures are stored in
// (shadow_lowering.cpp). Made on the first dispatch that needs it, shared by the contexts that run the program.
struct ShadowLowering {
  std::mutex mutex;
  std::atomic<bool> wanted{false};  // a dispatch needed it: later dispatches gather their bindings for it at once
  bool made = false;                // under `mutex`: shader or error is set
  std::shared_ptr<backend::Shader> shader;
  std::vector<uint32_t> spirv;
  std::string error;  // why the lowering failed (the dispatches are skipped with it)
  // Per lowered binding: the Vulkan binding, its state word's SpecId and its first resource index; its LOD
  // parameters' SpecIds where they are spec constants (lod_push_bytes 0).
  struct Binding {
    uint32_t binding = 0, spec_id = 0, first_resource = 0, resources = 1;
    std::array<uint32_t, spirv_patch::kShadowLodCount> lod_spec_ids{};
  };
  std::vector<Binding> bindings;
  // Plain samplers whose lookups the module swizzles (spirv_patch swizzle_lookups; devices without
  // VK_EXT_border_color_swizzle): the Vulkan binding, its swizzle word's SpecId, its first resource (lod_spec_ids
  // unused).
  std::vector<Binding> swizzle_bindings;
  std::string swizzle_error;     // why the module has no swizzles (a dispatch that needs one is skipped with it)
  uint32_t lod_push_bytes = 0;   // > 0: the LOD parameters are push constants, two vec4 per binding in binding order
  bool lod_specialized = false;  // they are spec constants
};

struct Executable {
  translator::GlLinkedProgram program;
  // Set for a program linked from graphics stages (no compute shader, no Vulkan shader): it can be queried and made
  // current, never dispatched (graphics_program.cpp).
  std::shared_ptr<const translator::GlGraphicsProgram> graphics;
  std::shared_ptr<backend::Shader> shader;
  std::unique_ptr<PrewarmTicket> prewarm;  // variable-size programs: drops queued prewarm compiles with the program
  uint32_t subgroup_size = 0;  // required subgroup size (ballot programs, num_waves programs); 0 = any
  uint32_t wave_size = 0;      // GL_BISMUTH_num_waves: the committed wave size (GL_COMPUTE_WAVE_SIZE_BISMUTH)
  // What the backend shader is made from besides `program` (GLSL / ARB_gl_spirv programs): the entry point, the
  // stage flags the wave-size commit chose and the runtime-group-size variant. Kept so that a program binary
  // (program_binary_format.hpp) can rebuild the shader without the front.
  std::string entry_point = "main";
  VkPipelineShaderStageCreateFlags stage_flags = 0;
  struct RuntimeVariant {
    std::vector<uint32_t> spirv;
    uint32_t push_constant_offset = 0;
    bool exact_only = true;
    // The literals the variant reads from push constants (spirv_patch literals_to_push_constants) and where.
    uint32_t literal_offset = 0;
    std::vector<uint32_t> literal_values;
    // Where the variant reads size and literals from a uniform buffer (spirv_patch push_constants_to_uniform_block):
    // its binding in set 0 and the buffer's bytes (the offsets above are then offsets in it).
    std::optional<uint32_t> parameters_binding;
    uint32_t parameters_bytes = 0;
  };
  std::optional<RuntimeVariant> runtime_variant;
  // Modules spirv-val checked while this executable was linked from source (BISMUTH_VALIDATION=1; a debug context
  // is told, parallel_compile.cpp).
  uint32_t spirv_validations = 0;
  std::vector<Location> locations;
  std::unordered_map<std::string, GLint> location_by_name;
  // The default uniform block: CPU copy written by glUniform*, uploaded in stream order when dirty.
  std::vector<std::byte> uniform_data;
  std::shared_ptr<backend::Buffer> uniform_buffer;
  bool uniform_dirty = false;
  // The values of sampler and image uniforms (GL 4.6 §7.6): the texture or image unit each element reads, indexed
  // like program.resources (entries of other resources are unused). Set at link from `layout(binding = N)` (or 0),
  // changed by glUniform1i(v) / glProgramUniform1i(v) without any recompile; dispatch reads them.
  std::vector<uint32_t> opaque_units;
  // The unit descriptor `resource` (a Texture, TextureBuffer, Image or ImageBuffer resource) reads.
  uint32_t opaque_unit(size_t resource) const { return resource < opaque_units.size() ? opaque_units[resource] : 0; }
  std::shared_ptr<ShadowLowering> shadow_lowering = std::make_shared<ShadowLowering>();
  // Unique per executable for the life of the process (an address may be reused after a relink): what a context's
  // gathered dispatch bindings are keyed by (dispatch.cpp).
  const uint64_t serial = next_serial();

 private:
  static uint64_t next_serial() {
    static std::atomic<uint64_t> counter{0};
    return counter.fetch_add(1, std::memory_order_relaxed) + 1;
  }
};

struct ProgramObject {
  GLuint name = 0;
  std::vector<std::shared_ptr<ShaderObject>> attached;
  bool link_status = false;
  bool validate_status = false;
  std::string info_log;
  bool delete_pending = false;
  uint32_t uses = 0;  // contexts that have it current
  std::shared_ptr<Executable> executable;  // the last successful link
  std::string label;                       // KHR_debug glObjectLabel
  // glProgramParameteri (program_pipelines.cpp): PROGRAM_SEPARABLE as set, and as it was at the last successful
  // link (what glUseProgramStages checks); PROGRAM_BINARY_RETRIEVABLE_HINT.
  bool separable = false;
  bool linked_separable = false;
  bool binary_retrievable_hint = false;
  GLenum wave_size_hint = GL_DONT_CARE;  // GL_COMPUTE_WAVE_SIZE_HINT_BISMUTH, applied at the next link
  // glTransformFeedbackVaryings (transform_feedback.cpp): used by the next link (GL 4.6 §11.1.2.1).
  std::vector<std::string> transform_feedback_varyings;
  bool transform_feedback_interleaved = true;  // GL_INTERLEAVED_ATTRIBS; false: GL_SEPARATE_ATTRIBS
  // A link running on a compiler thread (parallel_compile.hpp); read and written under the share group's mutex.
  std::shared_ptr<PendingLink> pending;
  // Whether `pending` is set, readable without the lock: a dispatch settles its program on every call, and almost
  // always finds nothing to wait for (parallel_compile.cpp). Written under the lock with `pending`.
  std::atomic<bool> has_pending{false};
};

// A program pipeline object (GL 4.6 §7.4, OpenGL ES 3.1 §7.4; program_pipelines.cpp): a container object of one
// context. Programs here have a compute stage only, so the compute stage is the pipeline's only program.
struct ProgramPipelineObject {
  GLuint name = 0;
  bool created = false;  // bound once (or made by glCreateProgramPipelines / glUseProgramStages)
  std::shared_ptr<ProgramObject> compute;  // COMPUTE_SHADER stage
  std::shared_ptr<ProgramObject> active;   // glActiveShaderProgram: the target of glUniform*
  bool validate_status = false;
  std::string info_log;
  std::string label;  // KHR_debug glObjectLabel
};

// ARB_vertex_program-style assembly programs (GL_COMPUTE_PROGRAM_NV): the limits this shim reports.
inline constexpr uint32_t kMaxProgramLocalParameters = 1024;  // 16 KiB: Vulkan's guaranteed uniform range
// GL_MAX_PROGRAM_PARAMETER_BUFFER_BINDINGS_NV: program.buffer[a] reads GL_UNIFORM_BUFFER binding a below it.
inline constexpr uint32_t kMaxProgramParameterBufferBindings = 32;
static_assert(kMaxProgramParameterBufferBindings <= GlBindingMap::kMaxUniformBufferBindings);
inline constexpr uint32_t kMaxProgramEnvParameters = 1024;
// GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS (transform_feedback.cpp; nothing is captured, the names are only
// checked at link).
inline constexpr GLsizei kMaxTransformFeedbackSeparateAttribs =
    static_cast<GLsizei>(translator::GlTransformFeedbackLimits::kSeparateAttribs);

// One successful glProgramStringARB load: what dispatch needs.
struct AsmExecutable {
  nvasm::ProgramInfo info;
  std::shared_ptr<backend::Shader> shader;
  std::unique_ptr<PrewarmTicket> prewarm;   // variable-size programs: drops queued prewarm compiles with the program
  uint32_t subgroup_size = 0;               // required subgroup size (thread-group programs); 0 = any
  std::vector<uint32_t> storage_gl_binding;  // Vulkan binding i (i < size) -> GL_SHADER_STORAGE_BUFFER index
  // program.counter[b] (COUNTER, NV_shader_atomic_counters) in this order after program.storage and the scratch
  // buffer: GL_ATOMIC_COUNTER_BUFFER index b.
  std::vector<uint32_t> counter_gl_binding;
  // Vulkan binding storage_gl_binding.size() + i -> GL_UNIFORM_BUFFER index (program.buffer[a], a parameter buffer)
  std::vector<uint32_t> parameter_gl_binding;
  int local_binding = -1;                   // Vulkan binding of program.local, -1 when unused
  int env_binding = -1;                     // Vulkan binding of program.env, -1 when unused
  int subroutine_binding = -1;              // Vulkan binding of program.subroutine, -1 when unused
  // glGetProgramivARB counts (from the source's statements).
  GLint instructions = 0, temporaries = 0, parameters = 0, attribs = 0;
  // What the shadow lowering (shadow_lowering.cpp) makes its module from: the pipeline's words and the shader
  // description they were created with (its `spirv` and runtime variant unset), and its state.
  std::vector<uint32_t> spirv;
  backend::ShaderDesc desc;
  std::shared_ptr<ShadowLowering> shadow_lowering = std::make_shared<ShadowLowering>();
};

struct AsmProgramObject {
  GLuint name = 0;
  GLenum target = 0;  // 0 until first bound
  std::string source;  // the last successfully loaded string
  std::shared_ptr<AsmExecutable> executable;
  // program.local: raw 32-bit words, uploaded to `local_buffer` in stream order when dirty.
  std::vector<std::array<uint32_t, 4>> local = std::vector<std::array<uint32_t, 4>>(kMaxProgramLocalParameters);
  std::shared_ptr<backend::Buffer> local_buffer;
  bool local_dirty = true;
  uint32_t local_uploaded = 0;  // vec4s of `local` the buffer holds (valid while !local_dirty)
};

// Program subroutine parameters back to their defaults (asm_subroutines.cpp): at glProgramStringARB and
// glBindProgramARB, as ARB_shader_subroutine's NV_gpu_program5 interaction says.
struct Context;
void reset_asm_subroutines(Context* ctx);

struct SyncObject {
  uint64_t value = 0;  // timeline value that signals it
  std::shared_ptr<DeviceState> device;
  std::string label;  // KHR_debug glObjectPtrLabel
};

struct QueryObject {
  GLuint name = 0;
  GLenum target = 0;  // 0 until first begun
  bool active = false;
  backend::TimestampQuery begin, end;  // TIME_ELAPSED: GPU timestamps written at Begin and End
  uint64_t timeline = 0;                            // TIMESTAMP: signalled when the preceding work is done
  bool has_result = false;
  uint64_t result = 0;
  std::string label;  // KHR_debug glObjectLabel
};

// Objects shared between contexts created with a share context (GL 4.6 §5.1).
struct FramebufferObject;   // framebuffers.hpp
struct RenderbufferObject;  // framebuffers.hpp

class ShareGroup {
 public:
  explicit ShareGroup(std::shared_ptr<DeviceState> device) : device_state(std::move(device)) {}
  std::shared_ptr<DeviceState> device_state;
  std::mutex mutex;
  GLuint next_name = 1;  // shaders and programs share one namespace (GL 4.6 §7.1)
  std::unordered_map<GLuint, std::shared_ptr<ShaderObject>> shaders;
  std::unordered_map<GLuint, std::shared_ptr<ProgramObject>> programs;
  GLuint next_buffer = 1;
  std::unordered_set<GLuint> buffer_names;  // generated names (objects are created on first bind)
  std::unordered_map<GLuint, std::shared_ptr<BufferObject>> buffers;
  std::unordered_map<const void*, std::shared_ptr<SyncObject>> syncs;
  // Assembly program objects (their own namespace, ARB_vertex_program); name 0 is each context's default.
  GLuint next_asm_program = 1;
  std::unordered_set<GLuint> asm_program_names;  // generated by glGenProgramsARB, not yet bound
  std::unordered_map<GLuint, std::shared_ptr<AsmProgramObject>> asm_programs;
  // Textures and samplers (textures.hpp): a texture name is generated (glGenTextures) before its object exists
  // (first bind); glCreateTextures / glGenSamplers / glCreateSamplers make the object at once.
  GLuint next_texture = 1;
  std::unordered_set<GLuint> texture_names;
  std::unordered_map<GLuint, std::shared_ptr<TextureObject>> textures;
  GLuint next_sampler = 1;
  std::unordered_map<GLuint, std::shared_ptr<SamplerObject>> samplers;
  // Renderbuffers (framebuffers.hpp, renderbuffer_objects.cpp): generated names map to null until first bound.
  GLuint next_renderbuffer = 1;
  std::unordered_map<GLuint, std::shared_ptr<RenderbufferObject>> renderbuffers;
};

struct IndexedBinding {
  std::shared_ptr<BufferObject> buffer;
  GLintptr offset = 0;
  GLsizeiptr size = 0;  // 0: the whole buffer (glBindBufferBase)
};

// Raised (process-wide: buffer objects are shared between contexts) whenever an indexed buffer binding changes or a
// buffer object gets a new data store: a dispatch whose program binds only buffers reuses the bindings it gathered
// while the value is unchanged (dispatch.cpp). Relaxed: a change in another context reaches this one only through
// the application's own synchronisation, which also orders this counter.
inline std::atomic<uint64_t> g_buffer_bindings_generation{1};
inline void note_buffer_bindings_changed() {
  g_buffer_bindings_generation.fetch_add(1, std::memory_order_relaxed);
}

struct DebugMessage {
  GLenum source, type, severity;
  GLuint id;
  std::string text;
};

// KHR_debug's limits (GL_MAX_DEBUG_MESSAGE_LENGTH, GL_MAX_DEBUG_LOGGED_MESSAGES, GL_MAX_LABEL_LENGTH,
// GL_MAX_DEBUG_GROUP_STACK_DEPTH): the GL 4.6 / ES 3.2 minimums or more.
inline constexpr GLsizei kMaxDebugMessageLength = 1024;
inline constexpr size_t kMaxDebugLoggedMessages = 64;
inline constexpr GLsizei kMaxLabelLength = 256;
inline constexpr size_t kMaxDebugGroupStackDepth = 64;

// A KHR_debug debug group (glPushDebugGroup): what its pop repeats, and the message controls of the group it was
// pushed onto, which its pop restores (GL 4.6 §20.6).
struct DebugGroup {
  GLenum source;
  GLuint id;
  std::string message;
  std::unordered_set<uint64_t> parent_disabled;
  std::unordered_set<uint64_t> parent_disabled_ids;
};

// The client API and version a context implements (EGL 1.5 §3.7.1.1): desktop GL 4.6, or OpenGL ES 3.1 / 3.2
// (context_version.hpp). Fixed at creation.
struct ContextVersion {
  bool es = false;
  int major = 4;
  int minor = 6;
};

class Context {
 public:
  Context(std::shared_ptr<ShareGroup> group, std::unique_ptr<backend::CommandStream> stream, bool debug_context);
  ~Context();

  std::shared_ptr<ShareGroup> share;
  DeviceState& device_state;
  std::unique_ptr<backend::CommandStream> stream;
  const Caps& caps;
  bool debug_context = false;
  int profile_mask = GL_CONTEXT_CORE_PROFILE_BIT;
  ContextVersion version;
  std::string version_string;       // GL_VERSION
  std::string glsl_version_string;  // GL_SHADING_LANGUAGE_VERSION
  // The extensions of the context's API (context_version.hpp): glGetStringi(GL_EXTENSIONS, i), and for OpenGL ES
  // glGetString(GL_EXTENSIONS) (the names joined by spaces).
  std::vector<std::string> extensions;
  std::string extensions_string;
  // Lifecycle (context.cpp): kCurrent while current in a thread, kDestroyPending once destroyed while current
  // (it is deleted when released, EGL 1.5 §3.7.1.5). One word, so that a release and a destroy in two threads
  // decide together which of them deletes the context.
  static constexpr uint32_t kCurrent = 1, kDestroyPending = 2;
  std::atomic<uint32_t> lifecycle{0};
  // GL calls in flight on this context (ApiCall): the exit stop waits for them (process_exit.hpp).
  std::atomic<uint32_t> api_calls{0};

  // ---- errors and KHR_debug ----
  GLenum error = GL_NO_ERROR;
  GLDEBUGPROC debug_callback = nullptr;
  const void* debug_user = nullptr;
  bool debug_output = true;
  bool debug_synchronous = false;
  std::vector<DebugMessage> debug_log;  // when no callback is installed (glGetDebugMessageLog)
  // (source, type, severity) disabled by glDebugMessageControl, as a set of keys.
  std::unordered_set<uint64_t> debug_disabled;
  std::unordered_set<uint64_t> debug_disabled_ids;
  std::vector<DebugGroup> debug_groups;  // pushed groups; GL_DEBUG_GROUP_STACK_DEPTH is their count + 1

  // KHR_parallel_shader_compile's MAX_SHADER_COMPILER_THREADS_KHR (a hint; initial value 0xFFFFFFFF).
  GLuint max_shader_compiler_threads = 0xFFFFFFFFu;

  // Records `code` (first error wins until glGetError) and a KHR_debug message naming the call.
  void set_error(GLenum code, const std::string& message);
  void debug(GLenum source, GLenum type, GLuint id, GLenum severity, const std::string& message);

  // ---- bindings ----
  std::shared_ptr<ProgramObject> program;  // glUseProgram
  // Program pipelines (container objects, which contexts do not share: GL 4.6 chapter 5) and the bound one; a
  // current program wins over it (GL 4.6 §7.3).
  std::map<GLuint, std::shared_ptr<ProgramPipelineObject>> pipelines;
  GLuint next_pipeline = 1;
  std::shared_ptr<ProgramPipelineObject> pipeline;
  std::shared_ptr<BufferObject> array_buffer, copy_read, copy_write, dispatch_indirect, ssbo_generic, ubo_generic,
      acb_generic, pixel_pack, pixel_unpack, query_buffer, element_array, draw_indirect, texture_buffer, transform_feedback;
  std::array<IndexedBinding, GlBindingMap::kMaxShaderStorageBufferBindings> ssbo{};
  std::array<IndexedBinding, GlBindingMap::kMaxUniformBufferBindings> ubo{};
  std::array<IndexedBinding, GlBindingMap::kMaxAtomicCounterBufferBindings> acb{};
  std::shared_ptr<BufferObject>* target_slot(GLenum target);

  // ---- textures (textures.hpp) ----
  // Texture units (MAX_COMBINED_TEXTURE_IMAGE_UNITS), glActiveTexture's unit, image units (MAX_IMAGE_UNITS), and
  // each target's default texture (name 0, GL 4.6 §8.1), created on first use (texture_objects.cpp).
  std::array<TextureUnit, translator::GlTextureLimits::kCombinedTextureImageUnits> texture_units{};
  GLuint active_texture = 0;  // index into texture_units
  // TEXTURE_CUBE_MAP_SEAMLESS (GL 4.6 §8.13.1; initially FALSE; desktop GL only, OpenGL ES cube maps are
  // always seamless). Off: cube and cube-array samplers filter each face on its own (texture_bindings.cpp).
  bool cube_map_seamless = false;
  std::array<ImageUnit, translator::GlTextureLimits::kImageUnits> image_units{};
  std::array<std::shared_ptr<TextureObject>, TextureUnit::kTargets> default_textures{};
  PixelStore pack, unpack;  // glPixelStorei (pixel_store.cpp)

  // Framebuffer objects (framebuffers.hpp): per context (GL 4.6 §5.1.3). A null binding is the default
  // framebuffer, which a surfaceless context does not have. framebuffers holds generated names too (null until
  // first bound: GL 4.6 §9.2.1).
  std::map<GLuint, std::shared_ptr<FramebufferObject>> framebuffers;
  GLuint next_framebuffer = 1;
  std::shared_ptr<FramebufferObject> draw_framebuffer, read_framebuffer;
  std::array<float, 4> clear_color{};                // glClearColor (COLOR_CLEAR_VALUE)
  double clear_depth = 1.0;                          // glClearDepth(f) (DEPTH_CLEAR_VALUE), clamped when clearing
  GLint clear_stencil = 0;                           // glClearStencil (STENCIL_CLEAR_VALUE), masked when clearing
  std::shared_ptr<RenderbufferObject> renderbuffer;  // RENDERBUFFER_BINDING

  // ---- assembly programs (GL_COMPUTE_PROGRAM_NV) ----
  bool compute_program_enabled = false;
  std::shared_ptr<AsmProgramObject> default_asm_program;  // name 0
  std::shared_ptr<AsmProgramObject> asm_program;          // bound to GL_COMPUTE_PROGRAM_NV (never null)
  std::vector<std::array<uint32_t, 4>> env = std::vector<std::array<uint32_t, 4>>(kMaxProgramEnvParameters);
  std::shared_ptr<backend::Buffer> env_buffer;
  bool env_dirty = true;
  uint32_t env_uploaded = 0;
  // Program subroutine parameters (ARB_shader_subroutine's NV_gpu_program5 interaction): context state, one
  // SUBROUTINENUM per program.subroutine index in .x, uploaded like program.env.
  std::vector<std::array<uint32_t, 4>> asm_subroutines =
      std::vector<std::array<uint32_t, 4>>(nvasm::kMaxSubroutineParameters);
  std::shared_ptr<backend::Buffer> asm_subroutine_buffer;
  bool asm_subroutine_dirty = true;
  uint32_t asm_subroutine_uploaded = 0;
  GLint program_error_position = -1;  // GL_PROGRAM_ERROR_POSITION_ARB
  std::string program_error_string;   // GL_PROGRAM_ERROR_STRING_ARB

  // ---- queries ----
  std::map<GLuint, std::shared_ptr<QueryObject>> queries;
  GLuint next_query = 1;
  std::shared_ptr<QueryObject> active_time_elapsed;

  // glDispatchComputeIndirect: the checked counts the GPU dispatches from (dispatch.cpp).
  std::shared_ptr<backend::Buffer> indirect_counts;
  // Large TEMP arrays of assembly programs (docs/gl_shim.md, "Assembly programs"): grown on demand, never shrunk.
  std::shared_ptr<backend::Buffer> asm_scratch;

  // ---- GL_NV_shader_buffer_load residency (buffer_residency.cpp) ----
  // The buffers made resident in this context, by name, with the data store they had then (a re-specified or
  // deleted buffer is no longer resident) and the access asked for (GL_READ_ONLY or GL_READ_WRITE).
  struct ResidentBuffer {
    std::weak_ptr<BufferObject> object;
    std::weak_ptr<backend::Buffer> store;
    GLenum access = GL_READ_ONLY;
  };
  std::unordered_map<GLuint, ResidentBuffer> resident_buffers;
  std::vector<backend::BufferBinding> resident_scratch;

  // ---- dispatch scratch (reused: no allocation per dispatch) ----
  std::vector<backend::BufferBinding> bindings_scratch;
  // bindings_scratch holds the bindings of the buffer-only GLSL executable with this serial (0: none), gathered at
  // this g_buffer_bindings_generation: its next dispatch skips the gather (dispatch.cpp).
  uint64_t gathered_serial = 0;
  uint64_t gathered_generation = 0;
  // The samplers and images of the dispatch being recorded (texture_bindings.hpp), and the 1-texel images that
  // stand for incomplete textures and invalid image units, by view type, format and use.
  std::vector<backend::ImageBinding> image_bindings_scratch;
  // Shadow samplers compared in the shader (shadow_lowering.cpp): each Texture resource's state word, indexed like
  // program.resources; set by a dispatch that needs the lowering; and the state words as specialization values.
  std::vector<ShadowSamplerState> shadow_states_scratch;
  std::vector<uint32_t> swizzle_words_scratch;  // the lowered module's swizzle words (spirv_patch swizzle_lookups)
  bool shadow_needs_lowering = false;
  std::vector<backend::SpecValue> spec_values_scratch;
  std::vector<float> shadow_push_scratch;  // the lowered bindings' LOD parameters as push constants
  std::unordered_map<uint64_t, std::shared_ptr<backend::Image>> placeholder_images;

  // Reports a backend error: GL_OUT_OF_MEMORY for out-of-memory, otherwise a KHR_debug error message (and
  // GL_CONTEXT_LOST semantics are approximated by GL_OUT_OF_MEMORY after a device loss, as GL has no other code
  // for it outside robustness contexts).
  void backend_error(const char* call, const Error& error);
};

// The context current in this thread (null when none).
Context* current_context();

// An enum as GL messages print it: "0x8D41".
std::string hex(GLenum e);

// Process exit (bismuth/backend/process_exit.hpp). Every GL entry point counts itself in its context while it
// runs (ApiCall, through BISMUTH_GL_BEGIN), every EGL and bismuth* entry point in one process-wide count
// (EglCall), so that the exit stop can wait for the calls in flight before it stops Bismuth's threads and the
// driver is torn down. A call that begins after the exit stop started parks its thread until the process ends —
// unless it runs on the exiting thread itself (an application's exit handler may still use GL).
extern std::atomic<bool> g_api_exit_begun;
inline bool api_exit_begun() noexcept { return g_api_exit_begun.load(std::memory_order_seq_cst); }

class ApiCall {
 public:
  explicit ApiCall(Context& ctx) : ctx_(ctx) {
    // A full barrier between counting the call and reading the exit flag (the exit stop sets the flag, then reads
    // the counts): one of the two sides sees the other. The count has one writer, the context's current thread.
    ctx.api_calls.fetch_add(1, std::memory_order_seq_cst);
    if (api_exit_begun()) [[unlikely]] on_exit_begun();
  }
  ~ApiCall() {
    ctx_.api_calls.store(ctx_.api_calls.load(std::memory_order_relaxed) - 1, std::memory_order_release);
  }
  ApiCall(const ApiCall&) = delete;
  ApiCall& operator=(const ApiCall&) = delete;

 private:
  void on_exit_begun() noexcept;  // parks unless this thread runs the exit stop
  Context& ctx_;
};

class EglCall {
 public:
  EglCall();
  ~EglCall();
  EglCall(const EglCall&) = delete;
  EglCall& operator=(const EglCall&) = delete;
};

}  // namespace bismuth::gl

// Entry-point bodies: no exception crosses a GL entry point; an allocation failure becomes GL_OUT_OF_MEMORY.
#define BISMUTH_GL_BEGIN(ret)                                     \
  ::bismuth::gl::Context* ctx = ::bismuth::gl::current_context(); \
  if (ctx == nullptr) return ret;                                 \
  ::bismuth::gl::ApiCall bismuth_api_call_(*ctx);                 \
  try {
#define BISMUTH_GL_END(ret)                                                     \
  }                                                                             \
  catch (...) {                                                                 \
    ctx->set_error(GL_OUT_OF_MEMORY, std::string(__func__) + ": out of memory"); \
  }                                                                             \
  return ret;
#define BISMUTH_NOTHING
