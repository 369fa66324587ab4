// Strings, limits and state through every Get variant (GL 4.6 §22, tables 23.x), glEnable/glDisable for the
// debug-output state and GL_COMPUTE_PROGRAM_NV (assembly programs).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cmath>

#include "gl_internal.hpp"

namespace bismuth::gl {
namespace {

constexpr GLint kMaxDebugMessageLength = 1024;
constexpr GLint kMaxDebugLoggedMessages = 64;

struct Values {
  int count = 0;
  int64_t v[4] = {};
  bool is_boolean = false;
  void set(int64_t a) { count = 1, v[0] = a; }
  void set_bool(bool b) { set(b ? 1 : 0), is_boolean = true; }
};

GLint name_of(const std::shared_ptr<BufferObject>& b) { return b ? static_cast<GLint>(b->name) : 0; }

int64_t timestamp_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Non-indexed state. False: not a state this shim knows (INVALID_ENUM).
bool get_state(Context* ctx, GLenum pname, Values& out) {
  const Caps& c = ctx->caps;
  switch (pname) {
    case GL_MAJOR_VERSION: out.set(4); return true;
    case GL_MINOR_VERSION: out.set(6); return true;
    case GL_NUM_EXTENSIONS: out.set(static_cast<int64_t>(c.extensions.size())); return true;
    case GL_CONTEXT_FLAGS: out.set(ctx->debug_context ? GL_CONTEXT_FLAG_DEBUG_BIT : 0); return true;
    case GL_CONTEXT_PROFILE_MASK: out.set(ctx->profile_mask); return true;
    case GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS: out.set(c.max_group_invocations); return true;
    case GL_MAX_COMPUTE_VARIABLE_GROUP_INVOCATIONS_ARB:
      if (!c.variable_group_size) return false;
      out.set(c.max_variable_group_invocations);
      return true;
    case GL_MAX_COMPUTE_SHARED_MEMORY_SIZE: out.set(c.max_shared_memory); return true;
    case GL_MAX_COMPUTE_UNIFORM_BLOCKS: out.set(14); return true;
    case GL_MAX_COMBINED_UNIFORM_BLOCKS: out.set(14); return true;
    case GL_MAX_COMPUTE_UNIFORM_COMPONENTS: out.set(4096); return true;
    case GL_MAX_COMBINED_COMPUTE_UNIFORM_COMPONENTS: out.set(4096 + 14 * 16384 / 4); return true;
    case GL_MAX_COMPUTE_ATOMIC_COUNTER_BUFFERS:
    case GL_MAX_COMBINED_ATOMIC_COUNTER_BUFFERS: out.set(GlBindingMap::kMaxAtomicCounterBufferBindings); return true;
    case GL_MAX_COMPUTE_ATOMIC_COUNTERS:
    case GL_MAX_COMBINED_ATOMIC_COUNTERS: out.set(1024); return true;
    case GL_MAX_ATOMIC_COUNTER_BUFFER_SIZE: out.set(32768); return true;
    case GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS:
    case GL_MAX_COMBINED_SHADER_STORAGE_BLOCKS: out.set(16); return true;
    case GL_MAX_COMPUTE_IMAGE_UNIFORMS: out.set(0); return true;
    case GL_MAX_COMPUTE_TEXTURE_IMAGE_UNITS: out.set(0); return true;
    case GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS: out.set(GlBindingMap::kMaxShaderStorageBufferBindings); return true;
    case GL_MAX_UNIFORM_BUFFER_BINDINGS: out.set(GlBindingMap::kMaxUniformBufferBindings); return true;
    case GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS: out.set(GlBindingMap::kMaxAtomicCounterBufferBindings); return true;
    case GL_MAX_SHADER_STORAGE_BLOCK_SIZE: out.set(int64_t(1) << 27); return true;
    case GL_MAX_UNIFORM_BLOCK_SIZE: out.set(16384); return true;
    case GL_MAX_UNIFORM_LOCATIONS: out.set(1024); return true;
    case GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT: out.set(c.ssbo_alignment); return true;
    case GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT: out.set(c.ubo_alignment); return true;
    case GL_CURRENT_PROGRAM: out.set(ctx->program ? ctx->program->name : 0); return true;
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
    case GL_MAX_DEBUG_LOGGED_MESSAGES: out.set(kMaxDebugLoggedMessages); return true;
    case GL_DEBUG_LOGGED_MESSAGES: out.set(static_cast<int64_t>(ctx->debug_log.size())); return true;
    case GL_DEBUG_NEXT_LOGGED_MESSAGE_LENGTH:
      out.set(ctx->debug_log.empty() ? 0 : static_cast<int64_t>(ctx->debug_log.front().text.size()) + 1);
      return true;
    case GL_MAX_LABEL_LENGTH: out.set(256); return true;
    case GL_MAX_DEBUG_GROUP_STACK_DEPTH: out.set(64); return true;
    case GL_DEBUG_GROUP_STACK_DEPTH: out.set(1); return true;
    case GL_DEBUG_OUTPUT: out.set_bool(ctx->debug_output); return true;
    case GL_DEBUG_OUTPUT_SYNCHRONOUS: out.set_bool(ctx->debug_synchronous); return true;
    case GL_NUM_SHADER_BINARY_FORMATS: out.set(1); return true;
    case GL_SHADER_BINARY_FORMATS: out.set(GL_SHADER_BINARY_FORMAT_SPIR_V); return true;
    case GL_NUM_PROGRAM_BINARY_FORMATS: out.set(0); return true;
    case GL_NUM_SPIR_V_EXTENSIONS: out.set(static_cast<int64_t>(c.spirv_extensions.size())); return true;
    case GL_SHADER_COMPILER: out.set_bool(true); return true;
    case GL_RESET_NOTIFICATION_STRATEGY: out.set(GL_NO_RESET_NOTIFICATION); return true;
    // GL_KHR_shader_subgroup state, reported so that ports can see the subgroup size the device runs with.
    case GL_SUBGROUP_SIZE_KHR: out.set(c.subgroup_size); return true;
    // Assembly programs (ARB_vertex_program / NV_compute_program5).
    case GL_PROGRAM_ERROR_POSITION_ARB:
      if (!c.has_extension("GL_NV_compute_program5")) return false;
      out.set(ctx->program_error_position);
      return true;
    case GL_COMPUTE_PROGRAM_NV:
      if (!c.has_extension("GL_NV_compute_program5")) return false;
      out.set_bool(ctx->compute_program_enabled);
      return true;
    default: return false;
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
    case GL_MAX_COMPUTE_VARIABLE_GROUP_SIZE_ARB:
      if (!c.variable_group_size) return Indexed::BadEnum;
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
    default: return Indexed::BadEnum;
  }
}

template <class T>
T convert(const Values& v, int i) {
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
    ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": unknown or indexed-only pname 0x" +
                                        [&] { char b[16]; std::snprintf(b, sizeof b, "%04X", pname); return std::string(b); }());
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
    case GL_VERSION: s = ctx->caps.version.c_str(); break;
    case GL_SHADING_LANGUAGE_VERSION: s = "4.60"; break;
    case GL_PROGRAM_ERROR_STRING_ARB: s = ctx->program_error_string.c_str(); break;
    default:
      ctx->set_error(GL_INVALID_ENUM, "glGetString: invalid name " + hex(name));
      return nullptr;
  }
  return reinterpret_cast<const GLubyte*>(s);
  BISMUTH_GL_END(nullptr)
}

GLAPI const GLubyte* APIENTRY glGetStringi(GLenum name, GLuint index) {
  BISMUTH_GL_BEGIN(nullptr)
  if (name == GL_EXTENSIONS) {
    if (index >= ctx->caps.extensions.size()) {
      ctx->set_error(GL_INVALID_VALUE, "glGetStringi: index is not below GL_NUM_EXTENSIONS");
      return nullptr;
    }
    return reinterpret_cast<const GLubyte*>(ctx->caps.extensions[index].c_str());
  }
  // GL 4.6 §22.2: "SPIR_V_EXTENSIONS ... the SPIR-V extensions supported", indices below NUM_SPIR_V_EXTENSIONS.
  if (name == GL_SPIR_V_EXTENSIONS) {
    if (index >= ctx->caps.spirv_extensions.size()) {
      ctx->set_error(GL_INVALID_VALUE, "glGetStringi: index is not below GL_NUM_SPIR_V_EXTENSIONS");
      return nullptr;
    }
    return reinterpret_cast<const GLubyte*>(ctx->caps.spirv_extensions[index].c_str());
  }
  if (name == GL_SHADING_LANGUAGE_VERSION) {
    static const char* versions[] = {"460 core", "450 core", "430 core"};
    if (index >= 3) {
      ctx->set_error(GL_INVALID_VALUE, "glGetStringi: index is out of range");
      return nullptr;
    }
    return reinterpret_cast<const GLubyte*>(versions[index]);
  }
  ctx->set_error(GL_INVALID_ENUM, "glGetStringi: invalid name " + hex(name));
  return nullptr;
  BISMUTH_GL_END(nullptr)
}

GLAPI void APIENTRY glGetIntegerv(GLenum pname, GLint* data) { get("glGetIntegerv", pname, data); }
GLAPI void APIENTRY glGetInteger64v(GLenum pname, GLint64* data) { get("glGetInteger64v", pname, data); }
GLAPI void APIENTRY glGetBooleanv(GLenum pname, GLboolean* data) { get("glGetBooleanv", pname, data); }
GLAPI void APIENTRY glGetFloatv(GLenum pname, GLfloat* data) { get("glGetFloatv", pname, data); }
GLAPI void APIENTRY glGetDoublev(GLenum pname, GLdouble* data) { get("glGetDoublev", pname, data); }
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
    case GL_COMPUTE_PROGRAM_NV:
      if (!ctx->caps.has_extension("GL_NV_compute_program5")) break;
      return ctx->compute_program_enabled ? GL_TRUE : GL_FALSE;
    default: break;
  }
  ctx->set_error(GL_INVALID_ENUM, "glIsEnabled: capability " + hex(cap) + " is not supported");
  BISMUTH_GL_END(GL_FALSE)
}

}  // extern "C"
