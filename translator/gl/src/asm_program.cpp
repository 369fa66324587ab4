// NVIDIA assembly compute programs through the ARB_vertex_program program-object API (NV_compute_program5 on
// NV_gpu_program4/5): glGenProgramsARB, glBindProgramARB(GL_COMPUTE_PROGRAM_NV), glProgramStringARB (the
// !!NVcp5.0 assembler, translator/nvasm), program.local / program.env parameters in float and integer forms,
// glGetProgramivARB, glGetProgramStringARB. glEnable(GL_COMPUTE_PROGRAM_NV) is in state_queries.cpp, the dispatch
// of the bound program in dispatch.cpp.
//
// Resources of a loaded program, Vulkan set 0 (compact bindings, as for GLSL programs):
//   0..n-1  program.storage[k] of each declared k, in increasing k: the buffer at GL_SHADER_STORAGE_BUFFER index k
//           (NV_shader_storage_buffer_object)
//   then    program.counter[b] of each declared b (COUNTER, NV_shader_atomic_counters), in increasing b: the buffer
//           at GL_ATOMIC_COUNTER_BUFFER index b (storage buffer of 32-bit counters, as GLSL atomic counters are)
//   n..     program.buffer[a] of each declared a (CBUFFER / BUFFER / BUFFER4, NV_parameter_buffer_object(2)), in
//           increasing a: the buffer at GL_UNIFORM_BUFFER index a (uniform buffer, at most the device's
//           maxUniformBufferRange, up to 64 KiB, read)
//   next    program.local, when used: the program object's parameters (uniform buffer, uvec4 per index)
//   next    program.env, when used: the context's parameters for GL_COMPUTE_PROGRAM_NV
//           (the TEMP array scratch buffer, when the program has one, is a storage buffer right after program.storage:
//           dispatch.cpp binds the context's asm_scratch there, sized for the dispatch)
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>

#include "bismuth/nvasm/gl_program_layout.hpp"
#include "bismuth/spirv_patch/pipeline.hpp"
#include "device_state.hpp"
#include "gl_internal.hpp"

namespace bismuth::gl {
namespace {

constexpr uint32_t kMaxProgramInstructions = 1u << 17;  // the assembler's bound
constexpr uint32_t kMaxProgramTemporaries = 4096;
constexpr uint32_t kMaxProgramParameters = 4096;
// program.counter[b] reads GL_ATOMIC_COUNTER_BUFFER binding b: the assembler's bound is GL's binding count.
static_assert(nvasm::kMaxCounterBuffers <= GlBindingMap::kMaxAtomicCounterBufferBindings);

bool check_target(Context* ctx, GLenum target, const char* func) {
  if (target == GL_COMPUTE_PROGRAM_NV && ctx->caps.has_extension("GL_NV_compute_program5")) return true;
  ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": target " + hex(target) +
                                      " is not GL_COMPUTE_PROGRAM_NV (the only program target Bismuth supports)");
  return false;
}

// A load error in the driver's form: "line L, column C: error: <what>", code = byte offset.
Error load_error(std::string_view source, size_t offset, const std::string& what) {
  offset = std::min(offset, source.size());
  const nvasm::SourcePosition at = nvasm::position_of(source, offset);
  return Error{"line " + std::to_string(at.line) + ", column " + std::to_string(at.column) + ": error: " + what,
               static_cast<int64_t>(offset)};
}

// The offset of the first `name[i]` or `name[i..j]` whose largest index is >= limit (0 when not found).
size_t index_offset(std::string_view source, std::string_view name, uint64_t limit) {
  for (size_t at = source.find(name); at != std::string_view::npos; at = source.find(name, at + 1)) {
    size_t p = at + name.size();
    while (p < source.size() && (source[p] == ' ' || source[p] == '\t')) ++p;
    if (p >= source.size() || source[p] != '[') continue;
    ++p;
    uint64_t largest = 0;
    bool any = false;
    while (p < source.size()) {
      while (p < source.size() && (source[p] == ' ' || source[p] == '\t' || source[p] == '.')) ++p;
      if (p >= source.size() || source[p] < '0' || source[p] > '9') break;
      uint64_t v = 0;
      while (p < source.size() && source[p] >= '0' && source[p] <= '9' && v < (uint64_t(1) << 40)) v = v * 10 + uint64_t(source[p++] - '0');
      largest = std::max(largest, v);
      any = true;
    }
    if (any && largest >= limit) return at;
  }
  return 0;
}

// glGetProgramivARB counts from the program's statements: instructions (statements that are not declarations,
// labels or END), TEMP names, PARAM bindings, ATTRIB declarations.
void count_statements(std::string_view source, AsmExecutable& exe) {
  std::string statement;
  auto classify = [&] {
    std::string_view s = statement;
    auto skip_space = [&] {
      while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n' || s.front() == '\r')) s.remove_prefix(1);
    };
    skip_space();
    // Labels ("name:", "name SUBROUTINENUM(n):") before an instruction.
    for (;;) {
      size_t n = 0;
      while (n < s.size() && (std::isalnum(static_cast<unsigned char>(s[n])) || s[n] == '_')) ++n;
      if (n > 0 && n < s.size() && s[n] == ':') {
        s.remove_prefix(n + 1);
        skip_space();
        continue;
      }
      const size_t num = s.find("SUBROUTINENUM");
      const size_t colon = s.find(':');
      if (n > 0 && num != std::string_view::npos && colon != std::string_view::npos && num < colon &&
          s.substr(n, num - n).find_first_not_of(" \t\r\n") == std::string_view::npos) {
        s.remove_prefix(colon + 1);
        skip_space();
        continue;
      }
      break;
    }
    std::vector<std::string_view> words;
    size_t i = 0;
    while (i < s.size()) {
      while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) ++i;
      size_t start = i;
      while (i < s.size() && !(s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) ++i;
      if (i > start) words.push_back(s.substr(start, i - start));
      if (words.size() >= 3) break;
    }
    if (words.empty()) return;
    size_t w = 0;
    while (w < words.size() && (words[w] == "SHORT" || words[w] == "LONG" || words[w] == "INT" || words[w] == "UINT" ||
                                words[w] == "FLOAT")) {
      ++w;
    }
    const std::string_view first = w < words.size() ? words[w] : words[0];
    if (first == "TEMP") {
      exe.temporaries += 1 + static_cast<GLint>(std::count(s.begin(), s.end(), ','));
    } else if (first == "PARAM") {
      exe.parameters += 1;
    } else if (first == "ATTRIB") {
      exe.attribs += 1;
    } else if (first == "OPTION" || first == "GROUP_SIZE" || first == "SHARED_MEMORY" || first == "STORAGE" ||
               first == "SHARED" || first == "OUTPUT" || first == "ADDRESS" || first == "ALIAS" || first == "CBUFFER" ||
               first == "BUFFER" || first == "BUFFER4" || first == "IMAGE" || first == "TEXTURE" || first == "END" ||
               first == "COUNTER" || first == "SUBROUTINETYPE" || first == "SUBROUTINE" ||
               first.rfind("!!", 0) == 0) {
      // declarations
    } else {
      exe.instructions += 1;
    }
  };
  auto finish = [&] {
    classify();
    statement.clear();
  };
  bool comment = false;
  for (char ch : source) {
    if (comment) {
      if (ch == '\n') comment = false;
      continue;
    }
    if (ch == '#') {
      comment = true;
      continue;
    }
    if (ch == ';') {
      finish();
      continue;
    }
    statement.push_back(ch);
  }
  finish();
}

// Assembles `source` for this context's device and builds the backend shader. On failure the Error is what
// GL_PROGRAM_ERROR_STRING_ARB / GL_PROGRAM_ERROR_POSITION_ARB report.
Expected<std::shared_ptr<AsmExecutable>> load(Context* ctx, GLuint name, std::string_view source) {
  const Caps& c = ctx->caps;
  nvasm::AssembleOptions options = nvasm::gl_assemble_options(c.compile_target);
  // As for GLSL links (program_link.cpp): the assembler's output and the run-time variant meet spirv-val only where
  // validation is asked for (every GL test asks; the assembler's tests validate everything it emits).
  const bool validate = validation_requested();
  options.validate = validate;
  auto program = nvasm::assemble(source, options);
  if (!program) return program.error();
  const nvasm::ProgramInfo& info = program->info;

  // What the assembler accepts but this device or GL's limits do not.
  for (const nvasm::StorageBinding& s : info.storage_buffers) {
    if (s.program_storage >= GlBindingMap::kMaxShaderStorageBufferBindings) {
      return load_error(source, index_offset(source, "program.storage", GlBindingMap::kMaxShaderStorageBufferBindings),
                        "program.storage[" + std::to_string(s.program_storage) +
                            "] is not below GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS (" +
                            std::to_string(GlBindingMap::kMaxShaderStorageBufferBindings) + ")");
    }
  }
  for (const nvasm::ParameterBufferBinding& b : info.parameter_buffers) {
    if (b.program_buffer >= kMaxProgramParameterBufferBindings) {
      return load_error(source, index_offset(source, "program.buffer", kMaxProgramParameterBufferBindings),
                        "program.buffer[" + std::to_string(b.program_buffer) +
                            "] is not below GL_MAX_PROGRAM_PARAMETER_BUFFER_BINDINGS_NV (" +
                            std::to_string(kMaxProgramParameterBufferBindings) + ")");
    }
  }
  if (info.local_parameter_count > kMaxProgramLocalParameters) {
    return load_error(source, index_offset(source, "program.local", kMaxProgramLocalParameters),
                      "program.local[" + std::to_string(info.local_parameter_count - 1) +
                          "] is not below GL_MAX_PROGRAM_LOCAL_PARAMETERS_ARB (" +
                          std::to_string(kMaxProgramLocalParameters) + ")");
  }
  if (info.env_parameter_count > kMaxProgramEnvParameters) {
    return load_error(source, index_offset(source, "program.env", kMaxProgramEnvParameters),
                      "program.env[" + std::to_string(info.env_parameter_count - 1) +
                          "] is not below GL_MAX_PROGRAM_ENV_PARAMETERS_ARB (" +
                          std::to_string(kMaxProgramEnvParameters) + ")");
  }
  if (info.shared_memory_bytes > c.max_shared_memory) {
    return load_error(source, source.find("SHARED_MEMORY") == std::string_view::npos ? 0 : source.find("SHARED_MEMORY"),
                      "SHARED_MEMORY " + std::to_string(info.shared_memory_bytes) +
                          " is above GL_MAX_COMPUTE_SHARED_MEMORY_SIZE (" + std::to_string(c.max_shared_memory) + ")");
  }
  if (info.group_size_form == nvasm::GroupSizeForm::Fixed) {
    const auto& g = info.group_size;
    const uint64_t invocations = uint64_t(g[0]) * g[1] * g[2];
    if (g[0] > c.max_group_size[0] || g[1] > c.max_group_size[1] || g[2] > c.max_group_size[2] ||
        invocations > c.max_group_invocations) {
      const size_t at = source.find("GROUP_SIZE");
      return load_error(source, at == std::string_view::npos ? 0 : at,
                        "GROUP_SIZE " + std::to_string(g[0]) + " " + std::to_string(g[1]) + " " + std::to_string(g[2]) +
                            " is above GL_MAX_COMPUTE_WORK_GROUP_SIZE / GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS on " +
                            c.device_name);
    }
  } else if (!c.variable_group_size) {
    const size_t at = source.find("ARB_compute_variable_group_size");
    return load_error(source, at == std::string_view::npos ? 0 : at,
                      "GL_ARB_compute_variable_group_size is not supported on " + c.device_name);
  }
  if (info.uses_int64 && !c.int64) {
    return load_error(source, 0, "the program uses 64-bit integers and " + c.device_name + " has no shaderInt64");
  }
  if (info.uses_float64 && !c.float64) {
    return load_error(source, 0, "the program uses 64-bit floats and " + c.device_name + " has no shaderFloat64");
  }
  if (((info.uses_subgroup_ballot || info.uses_subgroup_vote) && !c.thread_group_ops) ||
      (info.uses_subgroup_shuffle && !c.thread_shuffle_ops)) {
    return load_error(source, 0, "the program's thread-group instructions need subgroup operations " +
                                     c.device_name + " does not support in compute shaders");
  }

  auto exe = std::make_shared<AsmExecutable>();
  exe->info = info;
  exe->subgroup_size = info.required_subgroup_size ? c.subgroup32_required : 0;

  // The compact layout: storage buffers, then program.buffer, program.local and program.env uniform buffers.
  const nvasm::GlProgramLayout layout = nvasm::gl_program_layout(info);
  exe->storage_gl_binding = layout.storage;
  exe->counter_gl_binding = layout.counter;
  exe->parameter_gl_binding = layout.parameter;
  exe->local_binding = layout.local_binding;
  exe->env_binding = layout.env_binding;
  exe->subroutine_binding = layout.subroutine_binding;
  const bool variable = info.group_size_form == nvasm::GroupSizeForm::Variable;
  spirv_patch::PipelineOptions pipeline =
      nvasm::gl_program_pipeline(info, layout,
                                 {.runtime_group_size = runtime_group_size_enabled(),
                                  .literals_to_push_constants = shared_variants_enabled()});
  pipeline.validate_runtime_group_size = validate;
  pipeline.variant_memo = variant_memo();
  auto piped = spirv_patch::run_pipeline(program->spirv, pipeline);
  if (!piped) return load_error(source, 0, "internal: " + piped.error().message);
  backend::ShaderDesc desc;
  desc.layout.bindings.assign(layout.storage_buffer_count(), VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
  desc.layout.bindings.insert(desc.layout.bindings.end(), layout.uniform_buffer_count(), VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER);
  // texture[n] and image[n] after the buffers, by increasing unit (gl_program_layout.hpp); dispatch binds what the GL
  // texture and image units hold, as for GLSL samplers and images (texture_bindings.hpp).
  for (const auto* list : {&layout.textures, &layout.images}) {
    for (const nvasm::GlUnitBinding& b : *list) {
      switch (b.type) {
        case nvasm::GlDescriptorType::CombinedImageSampler:
          desc.layout.bindings.push_back(VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER);
          break;
        case nvasm::GlDescriptorType::UniformTexelBuffer:
          desc.layout.bindings.push_back(VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER);
          break;
        case nvasm::GlDescriptorType::StorageImage: desc.layout.bindings.push_back(VK_DESCRIPTOR_TYPE_STORAGE_IMAGE); break;
        case nvasm::GlDescriptorType::StorageTexelBuffer:
          desc.layout.bindings.push_back(VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER);
          break;
      }
    }
  }
  desc.spirv = piped->words;
  desc.entry_point = "main";
  desc.group_size_spec_ids = info.group_size_spec_ids;
  desc.name = "GL assembly program " + std::to_string(name);
  // Thread-group programs whose x size is a multiple of 32 run in full warps, as on NVIDIA (docs/nvasm.md). A
  // variable group size cannot promise it for every size, so those run without the flag.
  if (info.required_subgroup_size && info.group_size_form == nvasm::GroupSizeForm::Fixed &&
      info.group_size[0] % nvasm::kWarpSize == 0 && ctx->device_state.device->features().compute_full_subgroups) {
    desc.stage_flags = VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
  }
  // Kept for the second module (shadow_lowering.cpp) only where a texture[n] is used with a SHADOW target, or with
  // any target on a device without VK_EXT_border_color_swizzle (a swizzled texture's border colour: the swizzle in
  // the shader).
  const bool border_swizzle = ctx->device_state.device->features().border_color_swizzle;
  if (std::any_of(info.textures.begin(), info.textures.end(), [&](const auto& t) {
        return t.shadow || (!border_swizzle && t.target != nvasm::TextureTarget::Buffer);
      })) {
    exe->desc = desc;
    exe->desc.spirv = {};
    exe->spirv = piped->words;
  }
  set_runtime_group_size(desc, *piped);
  auto shader = backend::Shader::create(*ctx->device_state.device, desc);
  if (!shader) return load_error(source, 0, "the Vulkan driver rejected the program: " + shader.error().message);
  exe->shader = std::move(*shader);
  if (variable) exe->prewarm = prewarm_variable_size(*ctx->device_state.cache, exe->shader, exe->subgroup_size);
  count_statements(source, *exe);
  return exe;
}

AsmProgramObject* bound(Context* ctx, GLenum target, const char* func) {
  if (!check_target(ctx, target, func)) return nullptr;
  return ctx->asm_program.get();
}

// Parameter writes: raw 32-bit words per component.
template <class T>
std::array<uint32_t, 4> words_of(const T* v) {
  std::array<uint32_t, 4> out{};
  for (int i = 0; i < 4; ++i) {
    if constexpr (std::is_same_v<T, GLdouble> || std::is_same_v<T, GLfloat>) {
      const float f = static_cast<float>(v[i]);
      std::memcpy(&out[i], &f, 4);
    } else {
      std::memcpy(&out[i], &v[i], 4);
    }
  }
  return out;
}

enum class Which { Local, Env };

template <class T>
void set_parameters(Which which, const char* func, GLenum target, GLuint index, GLsizei count, const T* params) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  AsmProgramObject* program = bound(ctx, target, func);
  if (program == nullptr) return;
  if (count < 0) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": count is negative");
    return;
  }
  const uint32_t max = which == Which::Local ? kMaxProgramLocalParameters : kMaxProgramEnvParameters;
  if (uint64_t(index) + uint64_t(count) > max || (count == 1 && index >= max)) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": index " + std::to_string(index) +
                                         (count > 1 ? " + count " + std::to_string(count) : std::string()) +
                                         " is above " +
                                         (which == Which::Local ? "GL_MAX_PROGRAM_LOCAL_PARAMETERS_ARB"
                                                                : "GL_MAX_PROGRAM_ENV_PARAMETERS_ARB") +
                                         " (" + std::to_string(max) + ")");
    return;
  }
  if (count > 0 && params == nullptr) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": params is NULL");
    return;
  }
  auto& table = which == Which::Local ? program->local : ctx->env;
  for (GLsizei i = 0; i < count; ++i) table[index + static_cast<GLuint>(i)] = words_of(params + 4 * i);
  (which == Which::Local ? program->local_dirty : ctx->env_dirty) = true;
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

template <class T>
void get_parameter(Which which, const char* func, GLenum target, GLuint index, T* params) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  AsmProgramObject* program = bound(ctx, target, func);
  if (program == nullptr) return;
  const uint32_t max = which == Which::Local ? kMaxProgramLocalParameters : kMaxProgramEnvParameters;
  if (index >= max) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": index " + std::to_string(index) + " is out of range");
    return;
  }
  if (params == nullptr) return;
  const auto& v = (which == Which::Local ? program->local : ctx->env)[index];
  for (int i = 0; i < 4; ++i) {
    if constexpr (std::is_same_v<T, GLdouble> || std::is_same_v<T, GLfloat>) {
      float f;
      std::memcpy(&f, &v[i], 4);
      params[i] = static_cast<T>(f);
    } else {
      std::memcpy(&params[i], &v[i], 4);
    }
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

}  // namespace
}  // namespace bismuth::gl

using namespace bismuth;
using namespace bismuth::gl;

// NV_parameter_buffer_object: writes `count` words at word `wordIndex` of the buffer bound to parameter buffer
// binding `bindingIndex`, which for GL_COMPUTE_PROGRAM_PARAMETER_BUFFER_NV is the GL_UNIFORM_BUFFER binding that
// program.buffer[bindingIndex] reads. Equivalent to glNamedBufferSubData on that buffer at the binding's offset.
namespace {
template <class T>
void buffer_parameters(const char* func, GLenum target, GLuint binding, GLuint word, GLsizei count, const T* params) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (target != GL_COMPUTE_PROGRAM_PARAMETER_BUFFER_NV || !ctx->caps.has_extension("GL_NV_compute_program5")) {
    ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": target " + hex(target) +
                                        " is not GL_COMPUTE_PROGRAM_PARAMETER_BUFFER_NV");
    return;
  }
  if (binding >= kMaxProgramParameterBufferBindings || binding >= ctx->ubo.size()) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": bindingIndex " + std::to_string(binding) +
                                         " is not below GL_MAX_PROGRAM_PARAMETER_BUFFER_BINDINGS_NV (" +
                                         std::to_string(kMaxProgramParameterBufferBindings) + ")");
    return;
  }
  if (count < 0) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": count is negative");
    return;
  }
  const IndexedBinding& slot = ctx->ubo[binding];
  if (!slot.buffer || slot.buffer->name == 0) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": no buffer object is bound to parameter buffer binding " +
                                             std::to_string(binding));
    return;
  }
  const uint64_t size = slot.size != 0 ? uint64_t(slot.size) : uint64_t(std::max<GLsizeiptr>(0, slot.buffer->size - slot.offset));
  if ((uint64_t(word) + uint64_t(count)) * 4 > size) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": words " + std::to_string(word) + " + " + std::to_string(count) +
                                         " are past the " + std::to_string(size) + " bytes bound to binding " +
                                         std::to_string(binding));
    return;
  }
  if (count == 0) return;
  std::vector<uint32_t> words(static_cast<size_t>(count));
  for (GLsizei i = 0; i < count; ++i) {
    if constexpr (std::is_same_v<T, GLfloat>) {
      std::memcpy(&words[i], &params[i], 4);
    } else {
      words[i] = static_cast<uint32_t>(params[i]);
    }
  }
  glNamedBufferSubData(slot.buffer->name, static_cast<GLintptr>(slot.offset + GLintptr(word) * 4),
                       static_cast<GLsizeiptr>(count) * 4, words.data());
  BISMUTH_GL_END(BISMUTH_NOTHING)
}
}  // namespace

extern "C" {

GLAPI void APIENTRY glGenProgramsARB(GLsizei n, GLuint* programs) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (n < 0) {
    ctx->set_error(GL_INVALID_VALUE, "glGenProgramsARB: n is negative");
    return;
  }
  if (n > 0 && programs == nullptr) {
    ctx->set_error(GL_INVALID_VALUE, "glGenProgramsARB: programs is NULL");
    return;
  }
  std::lock_guard lock(ctx->share->mutex);
  for (GLsizei i = 0; i < n; ++i) {
    GLuint name = ctx->share->next_asm_program++;
    while (name == 0 || ctx->share->asm_programs.count(name) || ctx->share->asm_program_names.count(name)) {
      name = ctx->share->next_asm_program++;
    }
    ctx->share->asm_program_names.insert(name);
    programs[i] = name;
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glDeleteProgramsARB(GLsizei n, const GLuint* programs) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (n < 0) {
    ctx->set_error(GL_INVALID_VALUE, "glDeleteProgramsARB: n is negative");
    return;
  }
  if (n > 0 && programs == nullptr) return;
  std::lock_guard lock(ctx->share->mutex);
  for (GLsizei i = 0; i < n; ++i) {
    const GLuint name = programs[i];
    if (name == 0) continue;  // silently ignored, as are unused names
    // A bound program reverts the binding to the default program (ARB_vertex_program).
    if (ctx->asm_program && ctx->asm_program->name == name) ctx->asm_program = ctx->default_asm_program;
    ctx->share->asm_programs.erase(name);
    ctx->share->asm_program_names.erase(name);
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glBindProgramARB(GLenum target, GLuint program) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (!check_target(ctx, target, "glBindProgramARB")) return;
  if (program == 0) {
    ctx->asm_program = ctx->default_asm_program;
    reset_asm_subroutines(ctx);
    return;
  }
  std::lock_guard lock(ctx->share->mutex);
  auto it = ctx->share->asm_programs.find(program);
  if (it == ctx->share->asm_programs.end()) {
    // Binding an unused name creates the program object.
    auto object = std::make_shared<AsmProgramObject>();
    object->name = program;
    object->target = target;
    ctx->share->asm_program_names.erase(program);
    it = ctx->share->asm_programs.emplace(program, std::move(object)).first;
  } else if (it->second->target != target) {
    ctx->set_error(GL_INVALID_OPERATION, "glBindProgramARB: program " + std::to_string(program) +
                                             " is a program of another target");
    return;
  }
  ctx->asm_program = it->second;
  reset_asm_subroutines(ctx);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI GLboolean APIENTRY glIsProgramARB(GLuint program) {
  BISMUTH_GL_BEGIN(GL_FALSE)
  if (program == 0) return GL_FALSE;
  std::lock_guard lock(ctx->share->mutex);
  return ctx->share->asm_programs.count(program) ? GL_TRUE : GL_FALSE;
  BISMUTH_GL_END(GL_FALSE)
}

GLAPI void APIENTRY glProgramStringARB(GLenum target, GLenum format, GLsizei len, const void* string) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  constexpr const char* func = "glProgramStringARB";
  if (!check_target(ctx, target, func)) return;
  if (format != GL_PROGRAM_FORMAT_ASCII_ARB) {
    ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": format " + hex(format) + " is not GL_PROGRAM_FORMAT_ASCII_ARB");
    return;
  }
  if (len < 0 || (len > 0 && string == nullptr)) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": len is negative or string is NULL");
    return;
  }
  const std::string_view source(static_cast<const char*>(string), static_cast<size_t>(len));
  std::shared_ptr<AsmProgramObject> object = ctx->asm_program;
  auto exe = load(ctx, object->name, source);
  if (!exe) {
    // The previous program stays loaded (ARB_vertex_program).
    ctx->program_error_position = static_cast<GLint>(exe.error().code);
    ctx->program_error_string = exe.error().message;
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": " + exe.error().message);
    return;
  }
  ctx->program_error_position = -1;
  ctx->program_error_string.clear();
  object->source.assign(source);
  object->executable = std::move(*exe);
  object->local_dirty = true;
  reset_asm_subroutines(ctx);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glGetProgramivARB(GLenum target, GLenum pname, GLint* params) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  constexpr const char* func = "glGetProgramivARB";
  AsmProgramObject* program = bound(ctx, target, func);
  if (program == nullptr) return;
  const AsmExecutable* exe = program->executable.get();
  GLint value = 0;
  switch (pname) {
    case GL_PROGRAM_LENGTH_ARB: value = static_cast<GLint>(program->source.size()); break;
    case GL_PROGRAM_FORMAT_ARB: value = GL_PROGRAM_FORMAT_ASCII_ARB; break;
    case GL_PROGRAM_BINDING_ARB: value = static_cast<GLint>(program->name); break;
    case GL_PROGRAM_INSTRUCTIONS_ARB:
    case GL_PROGRAM_NATIVE_INSTRUCTIONS_ARB: value = exe ? exe->instructions : 0; break;
    case GL_MAX_PROGRAM_INSTRUCTIONS_ARB:
    case GL_MAX_PROGRAM_NATIVE_INSTRUCTIONS_ARB: value = static_cast<GLint>(kMaxProgramInstructions); break;
    case GL_PROGRAM_TEMPORARIES_ARB:
    case GL_PROGRAM_NATIVE_TEMPORARIES_ARB: value = exe ? exe->temporaries : 0; break;
    case GL_MAX_PROGRAM_TEMPORARIES_ARB:
    case GL_MAX_PROGRAM_NATIVE_TEMPORARIES_ARB: value = static_cast<GLint>(kMaxProgramTemporaries); break;
    case GL_PROGRAM_PARAMETERS_ARB:
    case GL_PROGRAM_NATIVE_PARAMETERS_ARB: value = exe ? exe->parameters : 0; break;
    case GL_MAX_PROGRAM_PARAMETERS_ARB:
    case GL_MAX_PROGRAM_NATIVE_PARAMETERS_ARB: value = static_cast<GLint>(kMaxProgramParameters); break;
    case GL_PROGRAM_ATTRIBS_ARB:
    case GL_PROGRAM_NATIVE_ATTRIBS_ARB: value = exe ? exe->attribs : 0; break;
    case GL_MAX_PROGRAM_ATTRIBS_ARB:
    case GL_MAX_PROGRAM_NATIVE_ATTRIBS_ARB: value = 16; break;
    case GL_PROGRAM_ADDRESS_REGISTERS_ARB:
    case GL_PROGRAM_NATIVE_ADDRESS_REGISTERS_ARB: value = 0; break;
    case GL_MAX_PROGRAM_ADDRESS_REGISTERS_ARB:
    case GL_MAX_PROGRAM_NATIVE_ADDRESS_REGISTERS_ARB: value = 0; break;  // NV_gpu_program4: integer TEMPs instead
    case GL_MAX_PROGRAM_LOCAL_PARAMETERS_ARB: value = static_cast<GLint>(kMaxProgramLocalParameters); break;
    case GL_MAX_PROGRAM_ENV_PARAMETERS_ARB: value = static_cast<GLint>(kMaxProgramEnvParameters); break;
    // NV_parameter_buffer_object's limits, queried with GetProgramivARB: the program.buffer bindings, and the words
    // a parameter buffer reads (the assembler's window: the device's maxUniformBufferRange up to 64 KiB, 16384
    // words, NVIDIA's size; 4096 words on a device with Vulkan's minimum 16 KiB).
    case GL_MAX_PROGRAM_PARAMETER_BUFFER_BINDINGS_NV:
      value = static_cast<GLint>(kMaxProgramParameterBufferBindings);
      break;
    case GL_MAX_PROGRAM_PARAMETER_BUFFER_SIZE_NV: {
      nvasm::AssembleOptions options;
      options.parameter_buffer_bytes = ctx->caps.compile_target.max_uniform_buffer_range;
      value = static_cast<GLint>(nvasm::parameter_buffer_window(options) / 4);
      break;
    }
    // ARB_shader_subroutine's NV_gpu_program5 interaction: "Accepted by the <pname> parameter of GetProgramivARB:
    // MAX_PROGRAM_SUBROUTINE_PARAMETERS_NV, MAX_PROGRAM_SUBROUTINE_NUM_NV" (1024 and 1024, as NVIDIA reports).
    case GL_MAX_PROGRAM_SUBROUTINE_PARAMETERS_NV: value = static_cast<GLint>(nvasm::kMaxSubroutineParameters); break;
    case GL_MAX_PROGRAM_SUBROUTINE_NUM_NV: value = static_cast<GLint>(nvasm::kMaxSubroutineNum); break;
    // NV_gpu_program4's call stack: recursive programs are lowered to this many levels (docs/nvasm.md).
    case GL_MAX_PROGRAM_CALL_DEPTH_NV: value = static_cast<GLint>(nvasm::kMaxCallDepth); break;
    // A loaded program always is (the assembler's limits are the native ones); none loaded: false.
    case GL_PROGRAM_UNDER_NATIVE_LIMITS_ARB: value = exe ? GL_TRUE : GL_FALSE; break;
    default:
      ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": pname " + hex(pname) + " is not a program parameter");
      return;
  }
  if (params != nullptr) *params = value;
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glGetProgramStringARB(GLenum target, GLenum pname, void* string) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  constexpr const char* func = "glGetProgramStringARB";
  AsmProgramObject* program = bound(ctx, target, func);
  if (program == nullptr) return;
  if (pname != GL_PROGRAM_STRING_ARB) {
    ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": pname " + hex(pname) + " is not GL_PROGRAM_STRING_ARB");
    return;
  }
  // The string, without a terminator: GL_PROGRAM_LENGTH_ARB bytes.
  if (string != nullptr && !program->source.empty()) std::memcpy(string, program->source.data(), program->source.size());
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

// ---- program.local / program.env ----

GLAPI void APIENTRY glProgramLocalParameter4fARB(GLenum target, GLuint index, GLfloat x, GLfloat y, GLfloat z, GLfloat w) {
  const GLfloat v[4] = {x, y, z, w};
  set_parameters(Which::Local, "glProgramLocalParameter4fARB", target, index, 1, v);
}
GLAPI void APIENTRY glProgramLocalParameter4fvARB(GLenum target, GLuint index, const GLfloat* params) {
  set_parameters(Which::Local, "glProgramLocalParameter4fvARB", target, index, 1, params);
}
GLAPI void APIENTRY glProgramLocalParameter4dARB(GLenum target, GLuint index, GLdouble x, GLdouble y, GLdouble z, GLdouble w) {
  const GLdouble v[4] = {x, y, z, w};
  set_parameters(Which::Local, "glProgramLocalParameter4dARB", target, index, 1, v);
}
GLAPI void APIENTRY glProgramLocalParameter4dvARB(GLenum target, GLuint index, const GLdouble* params) {
  set_parameters(Which::Local, "glProgramLocalParameter4dvARB", target, index, 1, params);
}
GLAPI void APIENTRY glProgramLocalParameters4fvEXT(GLenum target, GLuint index, GLsizei count, const GLfloat* params) {
  set_parameters(Which::Local, "glProgramLocalParameters4fvEXT", target, index, count, params);
}
GLAPI void APIENTRY glProgramEnvParameter4fARB(GLenum target, GLuint index, GLfloat x, GLfloat y, GLfloat z, GLfloat w) {
  const GLfloat v[4] = {x, y, z, w};
  set_parameters(Which::Env, "glProgramEnvParameter4fARB", target, index, 1, v);
}
GLAPI void APIENTRY glProgramEnvParameter4fvARB(GLenum target, GLuint index, const GLfloat* params) {
  set_parameters(Which::Env, "glProgramEnvParameter4fvARB", target, index, 1, params);
}
GLAPI void APIENTRY glProgramEnvParameter4dARB(GLenum target, GLuint index, GLdouble x, GLdouble y, GLdouble z, GLdouble w) {
  const GLdouble v[4] = {x, y, z, w};
  set_parameters(Which::Env, "glProgramEnvParameter4dARB", target, index, 1, v);
}
GLAPI void APIENTRY glProgramEnvParameter4dvARB(GLenum target, GLuint index, const GLdouble* params) {
  set_parameters(Which::Env, "glProgramEnvParameter4dvARB", target, index, 1, params);
}
GLAPI void APIENTRY glProgramEnvParameters4fvEXT(GLenum target, GLuint index, GLsizei count, const GLfloat* params) {
  set_parameters(Which::Env, "glProgramEnvParameters4fvEXT", target, index, count, params);
}

GLAPI void APIENTRY glProgramLocalParameterI4iNV(GLenum target, GLuint index, GLint x, GLint y, GLint z, GLint w) {
  const GLint v[4] = {x, y, z, w};
  set_parameters(Which::Local, "glProgramLocalParameterI4iNV", target, index, 1, v);
}
GLAPI void APIENTRY glProgramLocalParameterI4ivNV(GLenum target, GLuint index, const GLint* params) {
  set_parameters(Which::Local, "glProgramLocalParameterI4ivNV", target, index, 1, params);
}
GLAPI void APIENTRY glProgramLocalParametersI4ivNV(GLenum target, GLuint index, GLsizei count, const GLint* params) {
  set_parameters(Which::Local, "glProgramLocalParametersI4ivNV", target, index, count, params);
}
GLAPI void APIENTRY glProgramLocalParameterI4uiNV(GLenum target, GLuint index, GLuint x, GLuint y, GLuint z, GLuint w) {
  const GLuint v[4] = {x, y, z, w};
  set_parameters(Which::Local, "glProgramLocalParameterI4uiNV", target, index, 1, v);
}
GLAPI void APIENTRY glProgramLocalParameterI4uivNV(GLenum target, GLuint index, const GLuint* params) {
  set_parameters(Which::Local, "glProgramLocalParameterI4uivNV", target, index, 1, params);
}
GLAPI void APIENTRY glProgramLocalParametersI4uivNV(GLenum target, GLuint index, GLsizei count, const GLuint* params) {
  set_parameters(Which::Local, "glProgramLocalParametersI4uivNV", target, index, count, params);
}
GLAPI void APIENTRY glProgramEnvParameterI4iNV(GLenum target, GLuint index, GLint x, GLint y, GLint z, GLint w) {
  const GLint v[4] = {x, y, z, w};
  set_parameters(Which::Env, "glProgramEnvParameterI4iNV", target, index, 1, v);
}
GLAPI void APIENTRY glProgramEnvParameterI4ivNV(GLenum target, GLuint index, const GLint* params) {
  set_parameters(Which::Env, "glProgramEnvParameterI4ivNV", target, index, 1, params);
}
GLAPI void APIENTRY glProgramEnvParametersI4ivNV(GLenum target, GLuint index, GLsizei count, const GLint* params) {
  set_parameters(Which::Env, "glProgramEnvParametersI4ivNV", target, index, count, params);
}
GLAPI void APIENTRY glProgramEnvParameterI4uiNV(GLenum target, GLuint index, GLuint x, GLuint y, GLuint z, GLuint w) {
  const GLuint v[4] = {x, y, z, w};
  set_parameters(Which::Env, "glProgramEnvParameterI4uiNV", target, index, 1, v);
}
GLAPI void APIENTRY glProgramEnvParameterI4uivNV(GLenum target, GLuint index, const GLuint* params) {
  set_parameters(Which::Env, "glProgramEnvParameterI4uivNV", target, index, 1, params);
}
GLAPI void APIENTRY glProgramEnvParametersI4uivNV(GLenum target, GLuint index, GLsizei count, const GLuint* params) {
  set_parameters(Which::Env, "glProgramEnvParametersI4uivNV", target, index, count, params);
}

GLAPI void APIENTRY glGetProgramLocalParameterfvARB(GLenum target, GLuint index, GLfloat* params) {
  get_parameter(Which::Local, "glGetProgramLocalParameterfvARB", target, index, params);
}
GLAPI void APIENTRY glGetProgramLocalParameterdvARB(GLenum target, GLuint index, GLdouble* params) {
  get_parameter(Which::Local, "glGetProgramLocalParameterdvARB", target, index, params);
}
GLAPI void APIENTRY glGetProgramEnvParameterfvARB(GLenum target, GLuint index, GLfloat* params) {
  get_parameter(Which::Env, "glGetProgramEnvParameterfvARB", target, index, params);
}
GLAPI void APIENTRY glGetProgramEnvParameterdvARB(GLenum target, GLuint index, GLdouble* params) {
  get_parameter(Which::Env, "glGetProgramEnvParameterdvARB", target, index, params);
}
GLAPI void APIENTRY glGetProgramLocalParameterIivNV(GLenum target, GLuint index, GLint* params) {
  get_parameter(Which::Local, "glGetProgramLocalParameterIivNV", target, index, params);
}
GLAPI void APIENTRY glGetProgramLocalParameterIuivNV(GLenum target, GLuint index, GLuint* params) {
  get_parameter(Which::Local, "glGetProgramLocalParameterIuivNV", target, index, params);
}
GLAPI void APIENTRY glGetProgramEnvParameterIivNV(GLenum target, GLuint index, GLint* params) {
  get_parameter(Which::Env, "glGetProgramEnvParameterIivNV", target, index, params);
}
GLAPI void APIENTRY glGetProgramEnvParameterIuivNV(GLenum target, GLuint index, GLuint* params) {
  get_parameter(Which::Env, "glGetProgramEnvParameterIuivNV", target, index, params);
}


GLAPI void APIENTRY glProgramBufferParametersfvNV(GLenum target, GLuint bindingIndex, GLuint wordIndex, GLsizei count,
                                                   const GLfloat* params) {
  buffer_parameters("glProgramBufferParametersfvNV", target, bindingIndex, wordIndex, count, params);
}
GLAPI void APIENTRY glProgramBufferParametersIivNV(GLenum target, GLuint bindingIndex, GLuint wordIndex, GLsizei count,
                                                    const GLint* params) {
  buffer_parameters("glProgramBufferParametersIivNV", target, bindingIndex, wordIndex, count, params);
}
GLAPI void APIENTRY glProgramBufferParametersIuivNV(GLenum target, GLuint bindingIndex, GLuint wordIndex, GLsizei count,
                                                     const GLuint* params) {
  buffer_parameters("glProgramBufferParametersIuivNV", target, bindingIndex, wordIndex, count, params);
}

}  // extern "C"
