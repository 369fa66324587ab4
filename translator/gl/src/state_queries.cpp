// Strings, limits and state through every Get variant (GL 4.6 §22, tables 23.x), glEnable/glDisable for the
// debug-output state and GL_COMPUTE_PROGRAM_NV (assembly programs).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iterator>

#include "compressed_formats.hpp"
#include "gl_internal.hpp"
#include "texture_access.hpp"
#include "texture_multisample.hpp"

namespace bismuth::gl {
namespace {

struct Values {
  int count = 0;
  int64_t v[32] = {};  // up to 4 for most state; COMPRESSED_TEXTURE_FORMATS lists every compressed format
  bool is_boolean = false;
  bool is_color = false;  // v unused: floating-point color components in `color` (COLOR_CLEAR_VALUE)
  std::array<float, 4> color{};
  void set(int64_t a) { count = 1, v[0] = a; }
  void set_bool(bool b) { set(b ? 1 : 0), is_boolean = true; }
};

GLint name_of(const std::shared_ptr<BufferObject>& b) {
  return b ? static_cast<GLint>(b->name) : 0;
}

int64_t timestamp_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// The versions glGetStringi(GL_SHADING_LANGUAGE_VERSION, i) lists in a desktop context (GL 4.6 §22.2): the GLSL
// versions the front compiles compute shaders of, and GLSL ES 3.10 (ARB_ES3_1_compatibility, core since GL 4.5).
constexpr const char* kDesktopGlslVersions[] = {"460 core", "450 core", "430 core", "310 es"};

// State that exists in desktop GL only: an OpenGL ES context answers INVALID_ENUM for it (OpenGL ES 3.2's state
// tables do not have it).
bool desktop_only_state(GLenum pname) {
  switch (pname) {
    case GL_CONTEXT_PROFILE_MASK:
    case GL_NUM_SHADING_LANGUAGE_VERSIONS:
    case GL_NUM_SPIR_V_EXTENSIONS:
    case GL_QUERY_BUFFER_BINDING:
    case GL_TIMESTAMP:
    case GL_MAX_COMPUTE_VARIABLE_GROUP_INVOCATIONS_ARB:
    case GL_MAX_TRANSFORM_FEEDBACK_BUFFERS:  // ARB_transform_feedback3's, not in ES 3.2's tables
    case GL_PROGRAM_ERROR_POSITION_ARB:
    case GL_TEXTURE_CUBE_MAP_SEAMLESS:  // OpenGL ES 3.x cube maps are always seamless
    case GL_COMPUTE_PROGRAM_NV: return true;
    default: return false;
  }
}

// Texture, sampler, image-unit and pixel-store state (texture_queries.cpp).
bool texture_state(Context* ctx, GLenum pname, Values& out) {
  TextureStateValues t;
  if (!get_texture_state(ctx, pname, t)) return false;
  out.count = t.count;
  for (int i = 0; i < t.count; ++i) out.v[i] = t.v[i];
  out.is_boolean = t.is_boolean;
  return true;
}

// Non-indexed state. False: not a state this shim knows (INVALID_ENUM).
bool get_state(Context* ctx, GLenum pname, Values& out) {
  const Caps& c = ctx->caps;
  if (ctx->version.es && desktop_only_state(pname)) return false;
  switch (pname) {
    // KHR_parallel_shader_compile: a Z+ hint, initial value 0xFFFFFFFF. GetInteger64v returns it; GetIntegerv the
    // nearest GLint, 2147483647 (GL 4.6 §2.2.2: a value too large for the type returns the nearest representable
    // one; Mesa answers the same).
    case GL_MAX_SHADER_COMPILER_THREADS_KHR:
      out.set(static_cast<int64_t>(ctx->max_shader_compiler_threads));
      return true;
    case GL_COLOR_CLEAR_VALUE:  // glClearColor (framebuffer_clears.cpp)
      out.count = 4, out.is_color = true, out.color = ctx->clear_color;
      return true;
    case GL_STENCIL_CLEAR_VALUE: out.set(ctx->clear_stencil); return true;  // glClearStencil
    // glClearDepth; §2.2.2: an integer query converts "a depth buffer clear value" by table 18.2's INT entry, as it
    // does color components.
    case GL_DEPTH_CLEAR_VALUE:
      out.count = 1, out.is_color = true, out.color[0] = static_cast<float>(ctx->clear_depth);
      return true;
    case GL_MAJOR_VERSION: out.set(ctx->version.major); return true;
    case GL_MINOR_VERSION: out.set(ctx->version.minor); return true;
    case GL_NUM_EXTENSIONS: out.set(static_cast<int64_t>(ctx->extensions.size())); return true;
    case GL_NUM_SHADING_LANGUAGE_VERSIONS: out.set(static_cast<int64_t>(std::size(kDesktopGlslVersions))); return true;
    case GL_CONTEXT_FLAGS: out.set(ctx->debug_context ? GL_CONTEXT_FLAG_DEBUG_BIT : 0); return true;
    case GL_CONTEXT_PROFILE_MASK: out.set(ctx->profile_mask); return true;
    case GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS: out.set(c.max_group_invocations); return true;
    case GL_MAX_COMPUTE_VARIABLE_GROUP_INVOCATIONS_ARB:
      if (!c.variable_group_size) return false;
      out.set(c.max_variable_group_invocations);
      return true;
    case GL_MAX_COMPUTE_SHARED_MEMORY_SIZE: out.set(c.max_shared_memory); return true;
    case GL_MAX_VERTEX_UNIFORM_BLOCKS:
    case GL_MAX_TESS_CONTROL_UNIFORM_BLOCKS:
    case GL_MAX_TESS_EVALUATION_UNIFORM_BLOCKS:
    case GL_MAX_GEOMETRY_UNIFORM_BLOCKS:
    case GL_MAX_FRAGMENT_UNIFORM_BLOCKS:
    case GL_MAX_COMPUTE_UNIFORM_BLOCKS: out.set(translator::GlStageBlockLimits::kUniformBlocks); return true;
    case GL_MAX_VERTEX_SHADER_STORAGE_BLOCKS:
    case GL_MAX_TESS_CONTROL_SHADER_STORAGE_BLOCKS:
    case GL_MAX_TESS_EVALUATION_SHADER_STORAGE_BLOCKS:
    case GL_MAX_GEOMETRY_SHADER_STORAGE_BLOCKS:
    case GL_MAX_FRAGMENT_SHADER_STORAGE_BLOCKS:
      out.set(translator::GlStageBlockLimits::kShaderStorageBlocks);
      return true;
    // Uniform blocks of all stages of a program together: GL 4.6's minimum 70 (ES 3.2: 60). A program here has one
    // stage, whose MAX_COMPUTE_UNIFORM_BLOCKS is the bound a program meets first.
    case GL_MAX_COMBINED_UNIFORM_BLOCKS: out.set(translator::GlStageBlockLimits::kCombinedUniformBlocks); return true;
    // Default-block uniforms and stage inputs and outputs (GL 4.6 Tables 23.57-23.62; translator::GlStageLimits,
    // which the graphics link checks and glslang's gl_Max* constants equal). The ..._VECTORS are the components
    // divided by four (GL 4.6 §7.6, §11.1.2.1).
    case GL_MAX_VERTEX_UNIFORM_COMPONENTS:
    case GL_MAX_TESS_CONTROL_UNIFORM_COMPONENTS:
    case GL_MAX_TESS_EVALUATION_UNIFORM_COMPONENTS:
    case GL_MAX_GEOMETRY_UNIFORM_COMPONENTS:
    case GL_MAX_FRAGMENT_UNIFORM_COMPONENTS:
    case GL_MAX_COMPUTE_UNIFORM_COMPONENTS: out.set(translator::GlStageLimits::kUniformComponents); return true;
    case GL_MAX_VERTEX_UNIFORM_VECTORS:
    case GL_MAX_FRAGMENT_UNIFORM_VECTORS: out.set(translator::GlStageLimits::kUniformComponents / 4); return true;
    case GL_MAX_COMBINED_VERTEX_UNIFORM_COMPONENTS:
    case GL_MAX_COMBINED_TESS_CONTROL_UNIFORM_COMPONENTS:
    case GL_MAX_COMBINED_TESS_EVALUATION_UNIFORM_COMPONENTS:
    case GL_MAX_COMBINED_GEOMETRY_UNIFORM_COMPONENTS:
    case GL_MAX_COMBINED_FRAGMENT_UNIFORM_COMPONENTS:
    case GL_MAX_COMBINED_COMPUTE_UNIFORM_COMPONENTS:
      out.set(translator::GlStageLimits::kCombinedUniformComponents);
      return true;
    case GL_MAX_VERTEX_ATTRIBS: out.set(translator::GlStageLimits::kVertexAttribs); return true;
    case GL_MAX_VERTEX_OUTPUT_COMPONENTS: out.set(translator::GlStageLimits::kVertexOutputComponents); return true;
    case GL_MAX_TESS_CONTROL_INPUT_COMPONENTS:
      out.set(translator::GlStageLimits::kTessControlInputComponents);
      return true;
    case GL_MAX_TESS_CONTROL_OUTPUT_COMPONENTS:
      out.set(translator::GlStageLimits::kTessControlOutputComponents);
      return true;
    case GL_MAX_TESS_PATCH_COMPONENTS: out.set(translator::GlStageLimits::kTessPatchComponents); return true;
    case GL_MAX_TESS_CONTROL_TOTAL_OUTPUT_COMPONENTS:
      out.set(translator::GlStageLimits::kTessControlTotalOutputComponents);
      return true;
    case GL_MAX_TESS_EVALUATION_INPUT_COMPONENTS:
      out.set(translator::GlStageLimits::kTessEvaluationInputComponents);
      return true;
    case GL_MAX_TESS_EVALUATION_OUTPUT_COMPONENTS:
      out.set(translator::GlStageLimits::kTessEvaluationOutputComponents);
      return true;
    case GL_MAX_GEOMETRY_INPUT_COMPONENTS: out.set(translator::GlStageLimits::kGeometryInputComponents); return true;
    case GL_MAX_GEOMETRY_OUTPUT_COMPONENTS: out.set(translator::GlStageLimits::kGeometryOutputComponents); return true;
    case GL_MAX_GEOMETRY_OUTPUT_VERTICES: out.set(translator::GlStageLimits::kGeometryOutputVertices); return true;
    case GL_MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS:
      out.set(translator::GlStageLimits::kGeometryTotalOutputComponents);
      return true;
    case GL_MAX_FRAGMENT_INPUT_COMPONENTS: out.set(translator::GlStageLimits::kFragmentInputComponents); return true;
    case GL_MAX_VARYING_COMPONENTS: out.set(translator::GlStageLimits::kVaryingComponents); return true;
    case GL_MAX_VARYING_VECTORS: out.set(translator::GlStageLimits::kVaryingComponents / 4); return true;
    // Every stage has compute's atomic counters (GL 4.6 Table 23.57; the graphics stages compile against them).
    case GL_MAX_VERTEX_ATOMIC_COUNTER_BUFFERS:
    case GL_MAX_TESS_CONTROL_ATOMIC_COUNTER_BUFFERS:
    case GL_MAX_TESS_EVALUATION_ATOMIC_COUNTER_BUFFERS:
    case GL_MAX_GEOMETRY_ATOMIC_COUNTER_BUFFERS:
    case GL_MAX_FRAGMENT_ATOMIC_COUNTER_BUFFERS:
    case GL_MAX_COMPUTE_ATOMIC_COUNTER_BUFFERS:
      out.set(translator::GlAtomicCounterLimits::kPerStageBuffers);
      return true;
    case GL_MAX_COMBINED_ATOMIC_COUNTER_BUFFERS:
      out.set(translator::GlAtomicCounterLimits::kCombinedBuffers);
      return true;
    case GL_MAX_VERTEX_ATOMIC_COUNTERS:
    case GL_MAX_TESS_CONTROL_ATOMIC_COUNTERS:
    case GL_MAX_TESS_EVALUATION_ATOMIC_COUNTERS:
    case GL_MAX_GEOMETRY_ATOMIC_COUNTERS:
    case GL_MAX_FRAGMENT_ATOMIC_COUNTERS:
    case GL_MAX_COMPUTE_ATOMIC_COUNTERS: out.set(translator::GlAtomicCounterLimits::kPerStageCounters); return true;
    case GL_MAX_COMBINED_ATOMIC_COUNTERS: out.set(translator::GlAtomicCounterLimits::kCombinedCounters); return true;
    case GL_MAX_ATOMIC_COUNTER_BUFFER_SIZE: out.set(32768); return true;
    // GL 4.6 Table 23.73 (translator::GlTransformFeedbackLimits: checked at link).
    case GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS:
      out.set(translator::GlTransformFeedbackLimits::kInterleavedComponents);
      return true;
    case GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS:
      out.set(translator::GlTransformFeedbackLimits::kSeparateComponents);
      return true;
    case GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS:
      out.set(translator::GlTransformFeedbackLimits::kSeparateAttribs);
      return true;
    case GL_MAX_TRANSFORM_FEEDBACK_BUFFERS: out.set(translator::GlTransformFeedbackLimits::kBuffers); return true;
    case GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS:
    case GL_MAX_COMBINED_SHADER_STORAGE_BLOCKS: out.set(16); return true;
    // Storage blocks, images and fragment outputs together (GL 4.6 / ES 3.2 §7.8): at least the 16 storage blocks
    // and 8 image uniforms a compute stage may use at once. GL_MAX_COMBINED_IMAGE_UNITS_AND_FRAGMENT_OUTPUTS is the
    // same enum (0x8F39, its ARB_shader_image_load_store name).
    case GL_MAX_COMBINED_SHADER_OUTPUT_RESOURCES:
      out.set(16 + translator::GlTextureLimits::kComputeImageUniforms);
      return true;
    // Texture and image units (GL 4.6 Tables 23.57 / 23.64, translator::GlTextureLimits; glslang's gl_Max* constants
    // and the link's checks use the same numbers). Every stage gets compute's.
    case GL_MAX_TEXTURE_IMAGE_UNITS:
    case GL_MAX_VERTEX_TEXTURE_IMAGE_UNITS:
    case GL_MAX_GEOMETRY_TEXTURE_IMAGE_UNITS:
    case GL_MAX_TESS_CONTROL_TEXTURE_IMAGE_UNITS:
    case GL_MAX_TESS_EVALUATION_TEXTURE_IMAGE_UNITS:
    case GL_MAX_COMPUTE_TEXTURE_IMAGE_UNITS:
      out.set(translator::GlTextureLimits::kComputeTextureImageUnits);
      return true;
    case GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS:
      out.set(translator::GlTextureLimits::kCombinedTextureImageUnits);
      return true;
    case GL_MAX_IMAGE_UNITS: out.set(translator::GlTextureLimits::kImageUnits); return true;
    case GL_MAX_VERTEX_IMAGE_UNIFORMS:
    case GL_MAX_TESS_CONTROL_IMAGE_UNIFORMS:
    case GL_MAX_TESS_EVALUATION_IMAGE_UNIFORMS:
    case GL_MAX_GEOMETRY_IMAGE_UNIFORMS:
    case GL_MAX_FRAGMENT_IMAGE_UNIFORMS:
    case GL_MAX_COMPUTE_IMAGE_UNIFORMS: out.set(translator::GlTextureLimits::kComputeImageUniforms); return true;
    case GL_MAX_COMBINED_IMAGE_UNIFORMS: out.set(translator::GlTextureLimits::kCombinedImageUniforms); return true;
    // GL 4.6 Table 23.64 (minimum 0): the device's storageImageSampleCounts with shaderStorageImageMultisample
    // (texture_multisample.hpp), else 0.
    case GL_MAX_IMAGE_SAMPLES: out.set(multisample_limits(*ctx->device_state.device).image); return true;
    case GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS: out.set(GlBindingMap::kMaxShaderStorageBufferBindings); return true;
    case GL_MAX_UNIFORM_BUFFER_BINDINGS: out.set(GlBindingMap::kMaxUniformBufferBindings); return true;
    case GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS: out.set(GlBindingMap::kMaxAtomicCounterBufferBindings); return true;
    case GL_MAX_SHADER_STORAGE_BLOCK_SIZE: out.set(int64_t(1) << 27); return true;
    case GL_MAX_UNIFORM_BLOCK_SIZE: out.set(translator::GlStageBlockLimits::kUniformBlockSize); return true;
    case GL_MAX_UNIFORM_LOCATIONS: out.set(1024); return true;
    case GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT: out.set(c.ssbo_alignment); return true;
    case GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT: out.set(c.ubo_alignment); return true;
    case GL_CURRENT_PROGRAM: out.set(ctx->program ? ctx->program->name : 0); return true;
    case GL_PROGRAM_PIPELINE_BINDING: out.set(ctx->pipeline ? ctx->pipeline->name : 0); return true;
    case GL_ARRAY_BUFFER_BINDING: out.set(name_of(ctx->array_buffer)); return true;
    case GL_COPY_READ_BUFFER_BINDING: out.set(name_of(ctx->copy_read)); return true;
    case GL_COPY_WRITE_BUFFER_BINDING: out.set(name_of(ctx->copy_write)); return true;
    case GL_DISPATCH_INDIRECT_BUFFER_BINDING: out.set(name_of(ctx->dispatch_indirect)); return true;
    case GL_SHADER_STORAGE_BUFFER_BINDING: out.set(name_of(ctx->ssbo_generic)); return true;
    case GL_UNIFORM_BUFFER_BINDING: out.set(name_of(ctx->ubo_generic)); return true;
    case GL_ATOMIC_COUNTER_BUFFER_BINDING: out.set(name_of(ctx->acb_generic)); return true;
    case GL_PIXEL_PACK_BUFFER_BINDING: out.set(name_of(ctx->pixel_pack)); return true;
    case GL_PIXEL_UNPACK_BUFFER_BINDING: out.set(name_of(ctx->pixel_unpack)); return true;
    case GL_QUERY_BUFFER_BINDING: out.set(name_of(ctx->query_buffer)); return true;
    case GL_TIMESTAMP: out.set(timestamp_ns()); return true;
    case GL_MAX_DEBUG_MESSAGE_LENGTH: out.set(kMaxDebugMessageLength); return true;
    case GL_MAX_DEBUG_LOGGED_MESSAGES: out.set(static_cast<int64_t>(kMaxDebugLoggedMessages)); return true;
    case GL_DEBUG_LOGGED_MESSAGES: out.set(static_cast<int64_t>(ctx->debug_log.size())); return true;
    case GL_DEBUG_NEXT_LOGGED_MESSAGE_LENGTH:
      out.set(ctx->debug_log.empty() ? 0 : static_cast<int64_t>(ctx->debug_log.front().text.size()) + 1);
      return true;
    case GL_MAX_LABEL_LENGTH: out.set(kMaxLabelLength); return true;
    case GL_MAX_DEBUG_GROUP_STACK_DEPTH: out.set(static_cast<int64_t>(kMaxDebugGroupStackDepth)); return true;
    case GL_DEBUG_GROUP_STACK_DEPTH: out.set(static_cast<int64_t>(ctx->debug_groups.size()) + 1); return true;
    case GL_DEBUG_OUTPUT: out.set_bool(ctx->debug_output); return true;
    case GL_DEBUG_OUTPUT_SYNCHRONOUS: out.set_bool(ctx->debug_synchronous); return true;
    case GL_TEXTURE_CUBE_MAP_SEAMLESS: out.set_bool(ctx->cube_map_seamless); return true;
    // SPIR-V shader binaries are GL 4.6's (ARB_gl_spirv); OpenGL ES has no binary format Bismuth takes.
    case GL_NUM_SHADER_BINARY_FORMATS: out.set(ctx->version.es ? 0 : 1); return true;
    case GL_SHADER_BINARY_FORMATS:
      if (!ctx->version.es) out.set(GL_SHADER_BINARY_FORMAT_SPIR_V);
      return true;
    // GL 4.6 table 23.53: NUM_COMPRESSED_TEXTURE_FORMATS and the "enumerated compressed texture formats"
    // (compressed_formats.hpp), the specific formats CompressedTexImage* takes.
    // OpenGL ES 3.2 §8.7: the ETC2 / EAC formats only (table 8.19), S3TC and RGTC being extensions there.
    case GL_NUM_COMPRESSED_TEXTURE_FORMATS:
    case GL_COMPRESSED_TEXTURE_FORMATS: {
      int n = 0;
      for (const CompressedFormat& f : compressed_formats()) {
        if (!compressed_format_available(f, ctx->version.es)) continue;
        out.v[n++] = f.internalformat;
      }
      if (pname == GL_NUM_COMPRESSED_TEXTURE_FORMATS) {
        out.set(n);
      } else {
        out.count = n;
      }
      return true;
    }
    // One program binary format, Bismuth's own (program_binary.cpp), in GL 4.6 and OpenGL ES 3.x alike.
    case GL_NUM_PROGRAM_BINARY_FORMATS: out.set(1); return true;
    case GL_PROGRAM_BINARY_FORMATS: out.set(GL_PROGRAM_BINARY_FORMAT_BISMUTH); return true;
    case GL_NUM_SPIR_V_EXTENSIONS: out.set(static_cast<int64_t>(c.spirv_extensions.size())); return true;
    case GL_SHADER_COMPILER: out.set_bool(true); return true;
    case GL_RESET_NOTIFICATION_STRATEGY: out.set(GL_NO_RESET_NOTIFICATION); return true;
    // GL_KHR_shader_subgroup's implementation-dependent state (its "New State" table): without the extension the
    // pnames are unknown, INVALID_ENUM.
    case GL_SUBGROUP_SIZE_KHR:
      if (!c.khr_shader_subgroup) return false;
      out.set(c.subgroup_size);
      return true;
    case GL_SUBGROUP_SUPPORTED_STAGES_KHR:
      if (!c.khr_shader_subgroup) return false;
      out.set(c.subgroup_stages);
      return true;
    case GL_SUBGROUP_SUPPORTED_FEATURES_KHR:
      if (!c.khr_shader_subgroup) return false;
      out.set(c.subgroup_features);
      return true;
    case GL_SUBGROUP_QUAD_ALL_STAGES_KHR:
      if (!c.khr_shader_subgroup) return false;
      out.set_bool(c.subgroup_quad_all_stages);
      return true;
    // Assembly programs (ARB_vertex_program / NV_compute_program5).
    case GL_PROGRAM_ERROR_POSITION_ARB:
      if (!c.has_extension("GL_NV_compute_program5")) return false;
      out.set(ctx->program_error_position);
      return true;
    case GL_COMPUTE_PROGRAM_NV:
      if (!c.has_extension("GL_NV_compute_program5")) return false;
      out.set_bool(ctx->compute_program_enabled);
      return true;
    default: return texture_state(ctx, pname, out);  // textures, samplers, image units, pixel store (textures.hpp)
  }
}

enum class Indexed { Ok, BadEnum, BadIndex };

Indexed get_indexed(Context* ctx, GLenum pname, GLuint index, Values& out) {
  const Caps& c = ctx->caps;
  auto binding = [&](auto& array, int what) {
    if (index >= array.size()) return Indexed::BadIndex;
    const IndexedBinding& b = array[index];
    if (what == 0) out.set(name_of(b.buffer));
    if (what == 1) out.set(b.buffer ? b.offset : 0);
    if (what == 2) out.set(b.buffer ? b.size : 0);
    return Indexed::Ok;
  };
  switch (pname) {
    case GL_MAX_COMPUTE_WORK_GROUP_COUNT:
      if (index >= 3) return Indexed::BadIndex;
      out.set(c.max_group_count[index]);
      return Indexed::Ok;
    case GL_MAX_COMPUTE_WORK_GROUP_SIZE:  // == GL_MAX_COMPUTE_FIXED_GROUP_SIZE_ARB
      if (index >= 3) return Indexed::BadIndex;
      out.set(c.max_group_size[index]);
      return Indexed::Ok;
    case GL_MAX_COMPUTE_VARIABLE_GROUP_SIZE_ARB:  // ARB_compute_variable_group_size: desktop GL only
      if (!c.variable_group_size || ctx->version.es) return Indexed::BadEnum;
      if (index >= 3) return Indexed::BadIndex;
      out.set(c.max_variable_group_size[index]);
      return Indexed::Ok;
    case GL_SHADER_STORAGE_BUFFER_BINDING: return binding(ctx->ssbo, 0);
    case GL_SHADER_STORAGE_BUFFER_START: return binding(ctx->ssbo, 1);
    case GL_SHADER_STORAGE_BUFFER_SIZE: return binding(ctx->ssbo, 2);
    case GL_UNIFORM_BUFFER_BINDING: return binding(ctx->ubo, 0);
    case GL_UNIFORM_BUFFER_START: return binding(ctx->ubo, 1);
    case GL_UNIFORM_BUFFER_SIZE: return binding(ctx->ubo, 2);
    case GL_ATOMIC_COUNTER_BUFFER_BINDING: return binding(ctx->acb, 0);
    case GL_ATOMIC_COUNTER_BUFFER_START: return binding(ctx->acb, 1);
    case GL_ATOMIC_COUNTER_BUFFER_SIZE: return binding(ctx->acb, 2);
    default: {
      // Image units and per-unit texture and sampler bindings (texture_queries.cpp).
      TextureStateValues t;
      const TextureIndexed r = get_texture_indexed_state(ctx, pname, index, t);
      if (r != TextureIndexed::Ok) return r == TextureIndexed::BadIndex ? Indexed::BadIndex : Indexed::BadEnum;
      out.count = t.count;
      for (int i = 0; i < t.count; ++i) out.v[i] = t.v[i];
      out.is_boolean = t.is_boolean;
      return Indexed::Ok;
    }
  }
}

template <class T>
T convert(const Values& v, int i) {
  if (v.is_color) {
    const float c = v.color[static_cast<size_t>(i)];
    if constexpr (std::is_same_v<T, GLboolean>) {
      return c != 0.0f ? GL_TRUE : GL_FALSE;
    } else if constexpr (std::is_integral_v<T>) {
      // GL 4.6 §2.2.2: an RGBA color component returned as an integer is converted "according to the INT entry of
      // table 18.2", ((2^32 - 1) c - 1) / 2; "a value not in [-1, 1] converts to an undefined value" (clamped here).
      const double x = std::clamp(static_cast<double>(c), -1.0, 1.0);
      return static_cast<T>(std::llround((4294967295.0 * x - 1.0) / 2.0));
    } else {
      return static_cast<T>(c);
    }
  }
  if constexpr (std::is_same_v<T, GLboolean>) {
    return v.v[i] != 0 ? GL_TRUE : GL_FALSE;
  } else if constexpr (std::is_same_v<T, GLint>) {
    // GL 4.6 §2.2.2: integer state that does not fit is clamped.
    return static_cast<GLint>(std::clamp<int64_t>(v.v[i], INT32_MIN, INT32_MAX));
  } else {
    return static_cast<T>(v.v[i]);
  }
}

template <class T>
void get(const char* func, GLenum pname, T* data) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  Values v;
  if (!get_state(ctx, pname, v)) {
    ctx->set_error(
        GL_INVALID_ENUM, std::string(func) + ": unknown or indexed-only pname 0x" + [&] {
          char b[16];
          std::snprintf(b, sizeof b, "%04X", pname);
          return std::string(b);
        }());
    return;
  }
  if (data == nullptr) return;
  for (int i = 0; i < v.count; ++i) data[i] = convert<T>(v, i);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

template <class T>
void get_indexed_value(const char* func, GLenum pname, GLuint index, T* data) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  Values v;
  switch (get_indexed(ctx, pname, index, v)) {
    case Indexed::BadEnum: {
      char b[16];
      std::snprintf(b, sizeof b, "%04X", pname);
      ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": pname 0x" + b + " is not indexed state");
      return;
    }
    case Indexed::BadIndex:
      ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": index " + std::to_string(index) + " is out of range");
      return;
    case Indexed::Ok: break;
  }
  if (data == nullptr) return;
  for (int i = 0; i < v.count; ++i) data[i] = convert<T>(v, i);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

}  // namespace
}  // namespace bismuth::gl

using namespace bismuth::gl;

extern "C" {

GLAPI const GLubyte* APIENTRY glGetString(GLenum name) {
  BISMUTH_GL_BEGIN(nullptr)
  const char* s = nullptr;
  switch (name) {
    case GL_VENDOR: s = "Bismuth"; break;
    case GL_RENDERER: s = ctx->caps.renderer.c_str(); break;
    case GL_VERSION: s = ctx->version_string.c_str(); break;
    case GL_SHADING_LANGUAGE_VERSION: s = ctx->glsl_version_string.c_str(); break;
    // OpenGL ES 3.2 §20.2 keeps GetString(EXTENSIONS) (the names separated by spaces); GL 4.6 core removed it.
    case GL_EXTENSIONS:
      if (!ctx->version.es) {
        ctx->set_error(GL_INVALID_ENUM, "glGetString: GL_EXTENSIONS is glGetStringi's in a core context");
        return nullptr;
      }
      s = ctx->extensions_string.c_str();
      break;
    case GL_PROGRAM_ERROR_STRING_ARB: s = ctx->program_error_string.c_str(); break;
    default: ctx->set_error(GL_INVALID_ENUM, "glGetString: invalid name " + hex(name)); return nullptr;
  }
  return reinterpret_cast<const GLubyte*>(s);
  BISMUTH_GL_END(nullptr)
}

GLAPI const GLubyte* APIENTRY glGetStringi(GLenum name, GLuint index) {
  BISMUTH_GL_BEGIN(nullptr)
  if (name == GL_EXTENSIONS) {
    if (index >= ctx->extensions.size()) {
      ctx->set_error(GL_INVALID_VALUE, "glGetStringi: index is not below GL_NUM_EXTENSIONS");
      return nullptr;
    }
    return reinterpret_cast<const GLubyte*>(ctx->extensions[index].c_str());
  }
  // GL 4.6 §22.2: "SPIR_V_EXTENSIONS ... the SPIR-V extensions supported", indices below NUM_SPIR_V_EXTENSIONS.
  if (name == GL_SPIR_V_EXTENSIONS && !ctx->version.es) {
    if (index >= ctx->caps.spirv_extensions.size()) {
      ctx->set_error(GL_INVALID_VALUE, "glGetStringi: index is not below GL_NUM_SPIR_V_EXTENSIONS");
      return nullptr;
    }
    return reinterpret_cast<const GLubyte*>(ctx->caps.spirv_extensions[index].c_str());
  }
  // OpenGL ES 3.2 §20.2: GetStringi takes EXTENSIONS only.
  if (name == GL_SHADING_LANGUAGE_VERSION && !ctx->version.es) {
    const auto& versions = kDesktopGlslVersions;
    if (index >= std::size(versions)) {
      ctx->set_error(GL_INVALID_VALUE, "glGetStringi: index is out of range");
      return nullptr;
    }
    return reinterpret_cast<const GLubyte*>(versions[index]);
  }
  ctx->set_error(GL_INVALID_ENUM, "glGetStringi: invalid name " + hex(name));
  return nullptr;
  BISMUTH_GL_END(nullptr)
}

// GetShaderPrecisionFormat (GL 4.6 and OpenGL ES 3.2, the shader queries of chapter 7): the range
// (log2 of the magnitudes) and precision (bits) of each precision qualifier. highp is IEEE 754 binary32 and 32-bit
// two's complement. An OpenGL ES shader's mediump and lowp become SPIR-V RelaxedPrecision, which Vulkan lets a
// device run with as little as range (-2^14, 2^14) and a 10-bit mantissa, and 16-bit integers; desktop GLSL ignores
// precision qualifiers (GLSL 4.60 §4.7), so a desktop context answers highp for all three.
GLAPI void APIENTRY glGetShaderPrecisionFormat(GLenum shadertype, GLenum precisiontype, GLint* range,
                                               GLint* precision) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (shadertype != GL_VERTEX_SHADER && shadertype != GL_FRAGMENT_SHADER) {
    ctx->set_error(GL_INVALID_ENUM, "glGetShaderPrecisionFormat: shadertype " + hex(shadertype) +
                                        " is not GL_VERTEX_SHADER or GL_FRAGMENT_SHADER");
    return;
  }
  struct Format {
    GLint min, max, bits;
  };
  constexpr Format kHighFloat{127, 127, 23}, kRelaxedFloat{14, 14, 10}, kHighInt{31, 30, 0}, kRelaxedInt{15, 14, 0};
  const bool relaxed = ctx->version.es;
  Format f{};
  switch (precisiontype) {
    case GL_HIGH_FLOAT: f = kHighFloat; break;
    case GL_MEDIUM_FLOAT:
    case GL_LOW_FLOAT: f = relaxed ? kRelaxedFloat : kHighFloat; break;
    case GL_HIGH_INT: f = kHighInt; break;
    case GL_MEDIUM_INT:
    case GL_LOW_INT: f = relaxed ? kRelaxedInt : kHighInt; break;
    default:
      ctx->set_error(GL_INVALID_ENUM, "glGetShaderPrecisionFormat: precisiontype " + hex(precisiontype) +
                                          " is not one of GL_{LOW,MEDIUM,HIGH}_{FLOAT,INT}");
      return;
  }
  if (range) range[0] = f.min, range[1] = f.max;
  if (precision) *precision = f.bits;
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

// GL 4.6 §2.3.2 / OpenGL ES 3.2 §2.3.2: with RESET_NOTIFICATION_STRATEGY NO_RESET_NOTIFICATION (the only one
// Bismuth's contexts have) "the implementation will never deliver notification of reset events, and
// GetGraphicsResetStatus will always return NO_ERROR".
GLAPI GLenum APIENTRY glGetGraphicsResetStatus(void) {
  BISMUTH_GL_BEGIN(GL_NO_ERROR)
  return GL_NO_ERROR;
  BISMUTH_GL_END(GL_NO_ERROR)
}

GLAPI void APIENTRY glGetIntegerv(GLenum pname, GLint* data) {
  get("glGetIntegerv", pname, data);
}
GLAPI void APIENTRY glGetInteger64v(GLenum pname, GLint64* data) {
  get("glGetInteger64v", pname, data);
}
GLAPI void APIENTRY glGetBooleanv(GLenum pname, GLboolean* data) {
  get("glGetBooleanv", pname, data);
}
GLAPI void APIENTRY glGetFloatv(GLenum pname, GLfloat* data) {
  get("glGetFloatv", pname, data);
}
GLAPI void APIENTRY glGetDoublev(GLenum pname, GLdouble* data) {
  get("glGetDoublev", pname, data);
}
GLAPI void APIENTRY glGetIntegeri_v(GLenum target, GLuint index, GLint* data) {
  get_indexed_value("glGetIntegeri_v", target, index, data);
}
GLAPI void APIENTRY glGetInteger64i_v(GLenum target, GLuint index, GLint64* data) {
  get_indexed_value("glGetInteger64i_v", target, index, data);
}
GLAPI void APIENTRY glGetBooleani_v(GLenum target, GLuint index, GLboolean* data) {
  get_indexed_value("glGetBooleani_v", target, index, data);
}
GLAPI void APIENTRY glGetFloati_v(GLenum target, GLuint index, GLfloat* data) {
  get_indexed_value("glGetFloati_v", target, index, data);
}
GLAPI void APIENTRY glGetDoublei_v(GLenum target, GLuint index, GLdouble* data) {
  get_indexed_value("glGetDoublei_v", target, index, data);
}

static bool set_capability(Context* ctx, const char* func, GLenum cap, bool value) {
  switch (cap) {
    case GL_DEBUG_OUTPUT: ctx->debug_output = value; return true;
    case GL_DEBUG_OUTPUT_SYNCHRONOUS: ctx->debug_synchronous = value; return true;
    case GL_TEXTURE_CUBE_MAP_SEAMLESS:
      if (ctx->version.es) break;  // not an OpenGL ES capability (its cube maps are always seamless)
      ctx->cube_map_seamless = value;
      return true;
    case GL_COMPUTE_PROGRAM_NV:
      if (!ctx->caps.has_extension("GL_NV_compute_program5")) break;
      ctx->compute_program_enabled = value;
      return true;
    default: break;
  }
  ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": capability " + hex(cap) + " is not supported");
  return false;
}

GLAPI void APIENTRY glEnable(GLenum cap) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  set_capability(ctx, "glEnable", cap, true);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
GLAPI void APIENTRY glDisable(GLenum cap) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  set_capability(ctx, "glDisable", cap, false);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
GLAPI GLboolean APIENTRY glIsEnabled(GLenum cap) {
  BISMUTH_GL_BEGIN(GL_FALSE)
  switch (cap) {
    case GL_DEBUG_OUTPUT: return ctx->debug_output ? GL_TRUE : GL_FALSE;
    case GL_DEBUG_OUTPUT_SYNCHRONOUS: return ctx->debug_synchronous ? GL_TRUE : GL_FALSE;
    case GL_TEXTURE_CUBE_MAP_SEAMLESS:
      if (ctx->version.es) break;
      return ctx->cube_map_seamless ? GL_TRUE : GL_FALSE;
    case GL_COMPUTE_PROGRAM_NV:
      if (!ctx->caps.has_extension("GL_NV_compute_program5")) break;
      return ctx->compute_program_enabled ? GL_TRUE : GL_FALSE;
    default: break;
  }
  ctx->set_error(GL_INVALID_ENUM, "glIsEnabled: capability " + hex(cap) + " is not supported");
  BISMUTH_GL_END(GL_FALSE)
}

}  // extern "C"
