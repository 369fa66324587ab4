#include "corpus_executor.hpp"

#include <cstring>
#include <optional>
#include <regex>
#include <utility>

#include "bismuth/gl/bismuth_gl.h"
#include "bismuth/gl/glext_bismuth.h"
#include "input_file.hpp"
#include "nv_diagnostic.hpp"

namespace bismuth::tools::runner {

namespace {

// NV_compute_program5 / ARB_vertex_program tokens (glext.h values), spelled here because glcorearb.h omits
// the assembly-program extensions.
constexpr GLenum kComputeProgramNV = 0x90FB;
constexpr GLenum kProgramFormatAsciiARB = 0x8875;
constexpr GLenum kProgramErrorStringARB = 0x8874;
constexpr GLenum kProgramErrorPositionARB = 0x864B;

using PfnGenPrograms = void(APIENTRY*)(GLsizei, GLuint*);
using PfnDeletePrograms = void(APIENTRY*)(GLsizei, const GLuint*);
using PfnBindProgram = void(APIENTRY*)(GLenum, GLuint);
using PfnProgramString = void(APIENTRY*)(GLenum, GLenum, GLsizei, const void*);
using PfnProgramLocalI4ui = void(APIENTRY*)(GLenum, GLuint, GLuint, GLuint, GLuint, GLuint);

GLuint make_buffer(const std::vector<uint32_t>& words) {
  GLuint b = 0;
  glGenBuffers(1, &b);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, b);
  glBufferData(GL_SHADER_STORAGE_BUFFER, static_cast<GLsizeiptr>(words.size() * 4), words.data(), GL_DYNAMIC_COPY);
  return b;
}

struct Program {
  bool ready = false;
  Outcome decided;  // when !ready: the outcome (FAIL or SKIP)
  GLuint glsl = 0;
  GLuint nv = 0;
};

// shader.comp through the GLSL front, or shader.hlsl through the HLSL front (glShaderSourceHLSLBISMUTH, entry
// point case.json's "hlsl_entry", default "main").
Program build_source(const CorpusCase& c, Front front) {
  Program p;
  const bool hlsl = front == Front::Hlsl;
  const std::string file = hlsl ? "shader.hlsl" : "shader.comp";
  const std::string path = c.dir + "/" + file;
  const auto read = read_input_file(path);
  if (!read) return {false, {Status::Fail, read.error().message, {}}};
  const std::string& source = *read;
  const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  const char* text = source.c_str();
  if (hlsl) {
    const auto source_hlsl =
        reinterpret_cast<PFNGLSHADERSOURCEHLSLBISMUTHPROC>(bismuthGetProcAddress("glShaderSourceHLSLBISMUTH"));
    if (!source_hlsl) {
      glDeleteShader(shader);
      return {false, {Status::Skip, "HLSL shaders not supported by this libbismuth-gl", {}}};
    }
    source_hlsl(shader, 1, &text, nullptr, c.hlsl_entry.c_str());
  } else {
    glShaderSource(shader, 1, &text, nullptr);
  }
  glCompileShader(shader);
  GLint status = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &status);
  std::vector<char> log(8192);
  glGetShaderInfoLog(shader, static_cast<GLsizei>(log.size()), nullptr, log.data());
  if (!status) {
    glDeleteShader(shader);
    // GL info-log positions "0:LINE(COLUMN)" become file positions.
    static const std::regex kPosition(R"(\b0:(\d+)\((\d+)\))");
    std::string text_log = std::regex_replace(std::string(log.data()), kPosition, path + ":$1:$2");
    while (!text_log.empty() && text_log.back() == '\n') text_log.pop_back();
    // The front says "NVIDIA-only" for GLSL extensions no Vulkan compiler has (GL_NV_shader_thread_group):
    // the GLSL front cannot run such a case anywhere; that is a property of the front, not a failure.
    if (text_log.find("NVIDIA-only") != std::string::npos) {
      return {false,
              {Status::Skip, "NVIDIA-only GLSL extension, not available through the GLSL front: " + text_log, {}}};
    }
    return {false, {Status::Fail, path + ": compile failed: " + text_log, {}}};
  }
  p.glsl = glCreateProgram();
  glAttachShader(p.glsl, shader);
  glLinkProgram(p.glsl);
  glDeleteShader(shader);
  glGetProgramiv(p.glsl, GL_LINK_STATUS, &status);
  if (!status) {
    glGetProgramInfoLog(p.glsl, static_cast<GLsizei>(log.size()), nullptr, log.data());
    glDeleteProgram(p.glsl);
    return {false, {Status::Fail, path + ": link failed: " + std::string(log.data()), {}}};
  }
  glUseProgram(p.glsl);
  for (const auto& u : c.uniforms) {
    const GLint location = glGetUniformLocation(p.glsl, u.name.c_str());
    if (location < 0) {
      return {false, {Status::Fail, c.dir + "/case.json: uniform \"" + u.name + "\" is not active in " + file, {}}};
    }
    if (u.type == "float") {
      float f;
      std::memcpy(&f, &u.bits, 4);
      glUniform1f(location, f);
    } else if (u.type == "uint") {
      glUniform1ui(location, u.bits);
    } else {
      glUniform1i(location, static_cast<GLint>(u.bits));
    }
  }
  p.ready = true;
  return p;
}

Program build_nvasm(const CorpusCase& c, const GlSession& gl) {
  const auto gen = reinterpret_cast<PfnGenPrograms>(bismuthGetProcAddress("glGenProgramsARB"));
  const auto bind = reinterpret_cast<PfnBindProgram>(bismuthGetProcAddress("glBindProgramARB"));
  const auto string = reinterpret_cast<PfnProgramString>(bismuthGetProcAddress("glProgramStringARB"));
  const auto local = reinterpret_cast<PfnProgramLocalI4ui>(bismuthGetProcAddress("glProgramLocalParameterI4uiNV"));
  if (!gen || !bind || !string || !local) {
    return {false, {Status::Skip, "NV assembly programs not supported by this libbismuth-gl", {}}};
  }
  const std::string path = c.dir + "/program.nvcp5";
  const auto read = read_input_file(path);
  if (!read) return {false, {Status::Fail, read.error().message, {}}};
  const std::string& source = *read;
  Program p;
  gen(1, &p.nv);
  bind(kComputeProgramNV, p.nv);
  while (glGetError() != GL_NO_ERROR) {
  }
  string(kComputeProgramNV, kProgramFormatAsciiARB, static_cast<GLsizei>(source.size()), source.data());
  if (const GLenum e = glGetError(); e != GL_NO_ERROR) {
    GLint position = -1;
    glGetIntegerv(kProgramErrorPositionARB, &position);
    const auto* text = reinterpret_cast<const char*>(glGetString(kProgramErrorStringARB));
    // GL's "line L, column C: error: ..." becomes "path:L:C: error: ...", like every other front's diagnostics.
    const std::string error = nv_file_diagnostic(path, source, position, text ? text : "") +
                              " (glProgramStringARB raised " + gl_error_name(e) + ")";
    // Thread-group programs need NVIDIA's 32-lane warps; a device that cannot run them refuses the load. That
    // is the case's stated requirement (requires_subgroup_size), not a failure of this device.
    if (c.requires_subgroup_size && gl.subgroup_size() != static_cast<GLint>(*c.requires_subgroup_size)) {
      return {false,
              {Status::Skip,
               "needs subgroup size " + std::to_string(*c.requires_subgroup_size) + ", " + gl.device_name() + " has " +
                   std::to_string(gl.subgroup_size()) + ": " + error,
               {}}};
    }
    return {false, {Status::Fail, error, {}}};
  }
  for (const auto& u : c.uniforms) local(kComputeProgramNV, u.program_local, u.bits, 0, 0, 0);
  glEnable(kComputeProgramNV);
  p.ready = true;
  return p;
}

// A buffer larger than a storage block can hold is a requirement this device does not meet (checked before the
// host copies of up to 16 GiB are made).
std::optional<Outcome> over_block_size(const CorpusCase& c, const GlSession& gl) {
  const auto limit = gl.limit("GL_MAX_SHADER_STORAGE_BLOCK_SIZE", false);
  if (!limit) return std::nullopt;
  const std::pair<const char*, uint32_t> sizes[] = {{"input.words", c.input_words}, {"output.words", c.output_words}};
  for (const auto& [what, words] : sizes) {
    const double bytes = 4.0 * words;
    if (bytes > *limit) {
      return Outcome{Status::Skip,
                     c.dir + "/case.json: " + what + " " + std::to_string(words) + " (" +
                         std::to_string(uint64_t{words} * 4) +
                         " bytes) is more than GL_MAX_SHADER_STORAGE_BLOCK_SIZE (" +
                         std::to_string(static_cast<uint64_t>(*limit)) + ") of " + gl.device_name(),
                     {}};
    }
  }
  return std::nullopt;
}

}  // namespace

const char* to_string(Front front) {
  switch (front) {
    case Front::Hlsl: return "hlsl";
    case Front::Nvasm: return "nvasm";
    default: return "glsl";
  }
}

Front front_named(const std::string& name) {
  if (name == "hlsl") return Front::Hlsl;
  return name == "nvasm" ? Front::Nvasm : Front::Glsl;
}

Outcome execute_corpus_case(const CorpusCase& c, Front front, GlSession& gl) {
  // expected.bin first: a case whose expected.bin is missing, a directory or of the wrong size is malformed, and
  // its size bounds output.words before any buffer is made.
  auto expected = corpus_expected(c);
  if (!expected) return {Status::Fail, expected.error().message, {}};
  if (auto skip = over_block_size(c, gl)) return *skip;
  Program program = front == Front::Nvasm ? build_nvasm(c, gl) : build_source(c, front);
  if (!program.ready) return program.decided;

  const std::vector<uint32_t> input = corpus_input(c);
  const std::vector<uint32_t> init(c.output_words, c.output_init);
  const GLuint in_buffer = make_buffer(input);
  const GLuint out_buffer = make_buffer(init);
  // GL bindings from case.json; the assembly program names storage[i], which nv_storage_map ties to a binding.
  auto binding_point = [&](uint32_t gl_binding) {
    if (front == Front::Nvasm) {
      for (const auto& [storage, binding] : c.storage_map) {
        if (binding == gl_binding) return storage;
      }
    }
    return gl_binding;
  };
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding_point(c.input_binding), in_buffer);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding_point(c.output_binding), out_buffer);
  if (const GLenum e = glGetError(); e != GL_NO_ERROR) {
    return {Status::Fail, c.dir + ": setting up buffers and uniforms raised " + gl_error_name(e), {}};
  }
  const auto& g = c.num_groups;
  if (c.group_size) {
    const auto& s = *c.group_size;
    glDispatchComputeGroupSizeARB(g[0], g[1], g[2], s[0], s[1], s[2]);
  } else {
    glDispatchCompute(g[0], g[1], g[2]);
  }
  if (const GLenum e = glGetError(); e != GL_NO_ERROR) {
    return {Status::Fail, c.dir + ": the dispatch raised " + gl_error_name(e), {}};
  }
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  std::vector<uint32_t> got(c.output_words);
  glGetNamedBufferSubData(out_buffer, 0, static_cast<GLsizeiptr>(got.size() * 4), got.data());
  if (const GLenum e = glGetError(); e != GL_NO_ERROR) {
    return {Status::Fail, c.dir + ": reading the output raised " + gl_error_name(e), {}};
  }
  glDeleteBuffers(1, &in_buffer);
  glDeleteBuffers(1, &out_buffer);
  if (front == Front::Nvasm) {
    glDisable(kComputeProgramNV);
    if (auto del = reinterpret_cast<PfnDeletePrograms>(bismuthGetProcAddress("glDeleteProgramsARB")))
      del(1, &program.nv);
  } else {
    glDeleteProgram(program.glsl);
  }
  const auto messages = gl.validation_messages();
  if (!messages.empty()) {
    return {
        Status::Fail, c.dir + ": " + std::to_string(messages.size()) + " validation message(s): " + messages[0], {}};
  }
  if (c.requires_subgroup_size) {
    const GLint subgroup = gl.subgroup_size();
    if (subgroup != static_cast<GLint>(*c.requires_subgroup_size)) {
      return {Status::Skip,
              "needs subgroup size " + std::to_string(*c.requires_subgroup_size) + ", " + gl.device_name() + " has " +
                  std::to_string(subgroup) + " (ran without errors; expected.bin not compared)",
              {}};
    }
  }
  if (auto compared = corpus_compare(c, got, *expected); !compared) {
    return {Status::Fail, c.dir + ": " + compared.error().message, {}};
  }
  return {Status::Pass, {}, {}};
}

}  // namespace bismuth::tools::runner
