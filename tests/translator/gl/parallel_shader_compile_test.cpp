// GL_KHR_parallel_shader_compile / GL_ARB_parallel_shader_compile (docs/gl_shim.md, "Parallel shader compile")
// through libbismuth-gl's public API: the extension strings and entry points, MAX_SHADER_COMPILER_THREADS_KHR and
// COMPLETION_STATUS_KHR, results of background compiles and links equal to synchronous ones, the state at
// glLinkProgram being what is linked, batches, deletion with work pending, errors. Sources carry a nonce (a comment
// after the last line) so that the program cache never answers them and the compile and link really run on the
// compiler threads. Under the validation layer.
#define EGL_EGLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "translator/gl/gl_fixture.hpp"

using namespace bismuth::gltest;

namespace {

// A comment no earlier run of any test wrote (process id, time, counter): the program cache has no record of it.
std::string nonce() {
  static std::atomic<uint64_t> counter{0};
  const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
  return "// nonce " + std::to_string(getpid()) + "-" + std::to_string(now) + "-" + std::to_string(counter++) + "\n";
}

// A compute shader writing `value` into values[gl_GlobalInvocationID.x], with some arithmetic for the front to
// chew on.
std::string writer(uint32_t value) {
  return "#version 450\n"
         "layout(local_size_x = 64) in;\n"
         "layout(std430, binding = 0) buffer Out { uint values[]; };\n"
         "uint mix_bits(uint x) { for (int i = 0; i < 4; ++i) { x ^= x << 7u; x ^= x >> 9u; } return x; }\n"
         "void main() {\n"
         "  uint i = gl_GlobalInvocationID.x;\n"
         "  values[i] = (mix_bits(i) & 0u) + " +
         std::to_string(value) + "u;\n}\n" + nonce();
}

GLuint compile(GLenum type, const std::string& source) {
  const GLuint shader = glCreateShader(type);
  const char* text = source.c_str();
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  return shader;
}

void set_source(GLuint shader, const std::string& source) {
  const char* text = source.c_str();
  glShaderSource(shader, 1, &text, nullptr);
}

std::string shader_log(GLuint shader) {
  GLint length = 0;
  glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
  std::string log(static_cast<size_t>(length), '\0');
  glGetShaderInfoLog(shader, length, nullptr, log.data());
  return log.c_str();
}

std::string program_log(GLuint program) {
  GLint length = 0;
  glGetProgramiv(program, GL_INFO_LOG_LENGTH, &length);
  std::string log(static_cast<size_t>(length), '\0');
  glGetProgramInfoLog(program, length, nullptr, log.data());
  return log.c_str();
}

GLint shader_param(GLuint shader, GLenum pname) {
  GLint v = -1;
  glGetShaderiv(shader, pname, &v);
  return v;
}

GLint program_param(GLuint program, GLenum pname) {
  GLint v = -1;
  glGetProgramiv(program, pname, &v);
  return v;
}

// Polls COMPLETION_STATUS_KHR until TRUE (at most 60 s): KHR_parallel_shader_compile, "FALSE is returned if the
// shader is currently being compiled by a background thread, TRUE otherwise" — a compile finishes.
bool eventually_complete(bool program, GLuint name) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    const GLint done =
        program ? program_param(name, GL_COMPLETION_STATUS_KHR) : shader_param(name, GL_COMPLETION_STATUS_KHR);
    if (done == GL_TRUE) return true;
    REQUIRE(done == GL_FALSE);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return false;
}

constexpr GLuint kWords = 256;

// The buffer's kWords words through glMapBufferRange (OpenGL ES has no glGetBufferSubData).
std::vector<uint32_t> map_words(GLuint buffer) {
  std::vector<uint32_t> words(kWords);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
  const void* mapped = glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, kWords * 4, GL_MAP_READ_BIT);
  REQUIRE(mapped != nullptr);
  std::memcpy(words.data(), mapped, kWords * 4);
  glUnmapBuffer(GL_SHADER_STORAGE_BUFFER);
  return words;
}

// Dispatches `program` over kWords invocations into a fresh buffer and returns the words.
std::vector<uint32_t> run(GLuint program) {
  const GLuint buffer = make_buffer(kWords * 4);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
  glUseProgram(program);
  glDispatchCompute(kWords / 64, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  std::vector<uint32_t> words = map_words(buffer);
  glUseProgram(0);
  glDeleteBuffers(1, &buffer);
  return words;
}

bool all_equal(const std::vector<uint32_t>& words, uint32_t value) {
  for (uint32_t w : words) {
    if (w != value) return false;
  }
  return true;
}

// MAX_SHADER_COMPILER_THREADS_KHR exactly (GetInteger64v: every Z+ value fits).
GLuint max_threads() {
  GLint64 v = -1;
  glGetInteger64v(GL_MAX_SHADER_COMPILER_THREADS_KHR, &v);
  return static_cast<GLuint>(v);
}

// What a compile and link leave behind, for comparing background and synchronous work.
struct Observed {
  GLint compile_status = -1;
  std::string compile_log;
  GLint link_status = -1;
  std::string link_log;
  std::vector<uint32_t> words;
  bool operator==(const Observed&) const = default;
};

// Compiles `sources` (one shader each) and links them into one program; the results once settled.
Observed compile_and_link(const std::vector<std::string>& sources) {
  Observed o;
  std::vector<GLuint> shaders;
  for (const auto& s : sources) shaders.push_back(compile(GL_COMPUTE_SHADER, s));
  const GLuint program = glCreateProgram();
  for (GLuint s : shaders) glAttachShader(program, s);
  glLinkProgram(program);
  REQUIRE(eventually_complete(true, program));
  o.compile_status = GL_TRUE;
  for (GLuint s : shaders) {
    o.compile_status = o.compile_status && shader_param(s, GL_COMPILE_STATUS) == GL_TRUE;
    o.compile_log += shader_log(s);
    glDeleteShader(s);
  }
  o.link_status = program_param(program, GL_LINK_STATUS);
  o.link_log = program_log(program);
  // A log may name the shader objects, whose names differ between the runs compared.
  for (GLuint s : shaders) {
    const std::string name = "shader " + std::to_string(s) + " ";
    for (size_t at = o.link_log.find(name); at != std::string::npos; at = o.link_log.find(name, at + 1))
      o.link_log.replace(at, name.size(), "shader # ");
  }
  if (o.link_status == GL_TRUE) o.words = run(program);
  glDeleteProgram(program);
  return o;
}

}  // namespace

TEST_CASE("GL_EXTENSIONS lists KHR_ and ARB_parallel_shader_compile and both entry points resolve",
          "[gl][parallel_compile]") {
  GlContext ctx;
  CHECK(has_extension("GL_KHR_parallel_shader_compile"));
  CHECK(has_extension("GL_ARB_parallel_shader_compile"));
  CHECK(eglGetProcAddress("glMaxShaderCompilerThreadsKHR") != nullptr);
  CHECK(eglGetProcAddress("glMaxShaderCompilerThreadsARB") != nullptr);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(ctx);
}

TEST_CASE("MAX_SHADER_COMPILER_THREADS_KHR: initial 0xFFFFFFFF, set by either entry point, per context",
          "[gl][parallel_compile]") {
  GlContext ctx;
  // KHR_parallel_shader_compile, Table 23.51 (Hints): MAX_SHADER_COMPILER_THREADS_KHR, Z+, GetIntegerv, initial
  // value 0xFFFFFFFF.
  CHECK(max_threads() == 0xFFFFFFFFu);
  // "A count of zero specifies a request for no parallel compiling or linking and a count of 0xFFFFFFFF requests an
  // implementation-specific maximum."
  glMaxShaderCompilerThreadsKHR(0);
  CHECK(max_threads() == 0u);
  glMaxShaderCompilerThreadsKHR(1);
  CHECK(max_threads() == 1u);
  glMaxShaderCompilerThreadsARB(3);  // ARB_parallel_shader_compile: the same state
  CHECK(max_threads() == 3u);
  glMaxShaderCompilerThreadsKHR(0xFFFFFFFFu);
  CHECK(max_threads() == 0xFFFFFFFFu);
  GLint64 wide = 0;
  glGetInteger64v(GL_MAX_SHADER_COMPILER_THREADS_KHR, &wide);
  CHECK(wide == GLint64{0xFFFFFFFF});
  // GL 4.6 §2.2.2: "If a value is so large in magnitude that it cannot be represented by the returned data type,
  // then the nearest value representable using that type is returned."
  GLint narrow = 0;
  glGetIntegerv(GL_MAX_SHADER_COMPILER_THREADS_KHR, &narrow);
  CHECK(narrow == 2147483647);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // The hint is context state (the table's "Hints" are per context): another context starts at the initial value.
  glMaxShaderCompilerThreadsKHR(2);
  {
    GlContext other;
    CHECK(max_threads() == 0xFFFFFFFFu);
  }
  REQUIRE(eglMakeCurrent(ctx.display, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx.context) == EGL_TRUE);
  CHECK(max_threads() == 2u);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(ctx);
}

TEST_CASE("COMPLETION_STATUS_KHR is TRUE for new objects and becomes TRUE after compile and link",
          "[gl][parallel_compile]") {
  GlContext ctx;
  // "The initial value is TRUE" (nothing is being compiled or linked).
  const GLuint fresh_shader = glCreateShader(GL_COMPUTE_SHADER);
  const GLuint fresh_program = glCreateProgram();
  CHECK(shader_param(fresh_shader, GL_COMPLETION_STATUS_KHR) == GL_TRUE);
  CHECK(program_param(fresh_program, GL_COMPLETION_STATUS_KHR) == GL_TRUE);
  glDeleteShader(fresh_shader);
  glDeleteProgram(fresh_program);

  const GLuint shader = compile(GL_COMPUTE_SHADER, writer(5));
  REQUIRE(eventually_complete(false, shader));
  CHECK(shader_param(shader, GL_COMPILE_STATUS) == GL_TRUE);
  const GLuint program = glCreateProgram();
  glAttachShader(program, shader);
  glLinkProgram(program);
  REQUIRE(eventually_complete(true, program));
  CHECK(program_param(program, GL_LINK_STATUS) == GL_TRUE);
  CHECK(all_equal(run(program), 5));
  glDeleteShader(shader);
  glDeleteProgram(program);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(ctx);
}

TEST_CASE("Background compiles and links give what synchronous ones give, errors included", "[gl][parallel_compile]") {
  GlContext ctx;
  const std::string no_main =
      "#version 450\nlayout(local_size_x = 1) in;\nvoid helper() {}\n";  // compiles; the link has no main
  const std::string syntax_error = "#version 450\nlayout(local_size_x = 1) in;\nvoid main() { int x = ; }\n";
  const std::string second_main =
      "#version 450\nlayout(local_size_x = 64) in;\nlayout(std430, binding = 0) buffer Out { uint values[]; };\n"
      "void main() { values[0] = 1u; }\n";
  const std::vector<std::vector<std::string>> cases = {
      {writer(7)}, {no_main}, {syntax_error}, {writer(9), second_main}};
  for (size_t i = 0; i < cases.size(); ++i) {
    INFO("case " << i);
    // The same sources (their nonces aside, which are comments after the last line) with hint 0 (synchronous)
    // and with the initial hint.
    auto fresh = [&](const std::vector<std::string>& sources) {
      std::vector<std::string> out;
      for (const auto& s : sources) out.push_back(s + nonce());
      return out;
    };
    glMaxShaderCompilerThreadsKHR(0);
    const Observed sync = compile_and_link(fresh(cases[i]));
    glMaxShaderCompilerThreadsKHR(0xFFFFFFFFu);
    const Observed background = compile_and_link(fresh(cases[i]));
    CHECK(background.compile_status == sync.compile_status);
    CHECK(background.compile_log == sync.compile_log);
    CHECK(background.link_status == sync.link_status);
    CHECK(background.link_log == sync.link_log);
    CHECK(background.words == sync.words);
  }
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(ctx);
}

TEST_CASE("A compile error is in the info log after a background compile", "[gl][parallel_compile]") {
  GlContext ctx;
  const GLuint shader = compile(
      GL_COMPUTE_SHADER, "#version 450\nlayout(local_size_x = 1) in;\nvoid main() { undeclared = 1; }\n" + nonce());
  REQUIRE(eventually_complete(false, shader));
  CHECK(shader_param(shader, GL_COMPILE_STATUS) == GL_FALSE);
  CHECK(shader_log(shader).find("undeclared") != std::string::npos);
  // GL 4.6 §7.3: linking a program with a shader that failed to compile fails.
  const GLuint program = glCreateProgram();
  glAttachShader(program, shader);
  glLinkProgram(program);
  CHECK(program_param(program, GL_LINK_STATUS) == GL_FALSE);
  CHECK(!program_log(program).empty());
  glDeleteShader(shader);
  glDeleteProgram(program);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(ctx);
}

TEST_CASE("The link uses the program's state at glLinkProgram, whatever the application changes right after",
          "[gl][parallel_compile]") {
  GlContext ctx;
  // GL 4.6 §7.3: LinkProgram links the shader objects attached at the call; "changing the source or recompiling a
  // shader object attached to a program after the link does not affect the program's executable" (§7.1: the
  // executable is replaced only by a later successful link).
  const GLuint a = compile(GL_COMPUTE_SHADER, writer(1));
  const GLuint b = compile(GL_COMPUTE_SHADER, writer(3));
  const GLuint program = glCreateProgram();
  glAttachShader(program, a);
  glLinkProgram(program);
  // Right after the call, no query in between: detach A, attach B, give A new source and recompile it.
  glDetachShader(program, a);
  glAttachShader(program, b);
  set_source(a, writer(2));
  glCompileShader(a);
  CHECK(program_param(program, GL_LINK_STATUS) == GL_TRUE);
  CHECK(all_equal(run(program), 1));
  // A second link takes the attachments as they are now (B).
  glLinkProgram(program);
  CHECK(program_param(program, GL_LINK_STATUS) == GL_TRUE);
  CHECK(all_equal(run(program), 3));
  // Two links in a row with a recompile between: the second sees the recompiled shader.
  glDetachShader(program, b);
  glAttachShader(program, a);
  glLinkProgram(program);
  set_source(a, writer(4));
  glCompileShader(a);
  glLinkProgram(program);
  CHECK(program_param(program, GL_LINK_STATUS) == GL_TRUE);
  CHECK(all_equal(run(program), 4));
  glDeleteShader(a);
  glDeleteShader(b);
  glDeleteProgram(program);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(ctx);
}

TEST_CASE("A relink of the current program is what the next dispatch runs", "[gl][parallel_compile]") {
  GlContext ctx;
  const GLuint a = compile(GL_COMPUTE_SHADER, writer(10));
  const GLuint b = compile(GL_COMPUTE_SHADER, writer(11));
  const GLuint program = glCreateProgram();
  glAttachShader(program, a);
  glLinkProgram(program);
  REQUIRE(program_param(program, GL_LINK_STATUS) == GL_TRUE);
  const GLuint buffer = make_buffer(kWords * 4);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
  glUseProgram(program);
  // GL 4.6 §7.3: "If LinkProgram ... succeeds [for the program in use], the new executable code is installed as
  // part of the current rendering state" — dispatch straight after the relink, no query between.
  glDetachShader(program, a);
  glAttachShader(program, b);
  glLinkProgram(program);
  glDispatchCompute(kWords / 64, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  CHECK(all_equal(map_words(buffer), 11));
  glUseProgram(0);
  glDeleteBuffers(1, &buffer);
  glDeleteShader(a);
  glDeleteShader(b);
  glDeleteProgram(program);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(ctx);
}

TEST_CASE("64 programs compiled and linked as a batch, then queried, all correct", "[gl][parallel_compile]") {
  GlContext ctx;
  constexpr uint32_t kPrograms = 64;
  std::vector<GLuint> shaders, programs;
  for (uint32_t i = 0; i < kPrograms; ++i) shaders.push_back(compile(GL_COMPUTE_SHADER, writer(100 + i)));
  for (uint32_t i = 0; i < kPrograms; ++i) {
    programs.push_back(glCreateProgram());
    glAttachShader(programs[i], shaders[i]);
    glLinkProgram(programs[i]);
    glDeleteShader(shaders[i]);  // flagged; deleted with the program
  }
  // Issue 17: the work runs off the calling thread by default — right after queueing 64 links, the last one is
  // still being linked (the initial hint asks for parallel compiles).
  CHECK(program_param(programs.back(), GL_COMPLETION_STATUS_KHR) == GL_FALSE);
  for (uint32_t i = 0; i < kPrograms; ++i) REQUIRE(eventually_complete(true, programs[i]));
  for (uint32_t i = 0; i < kPrograms; ++i) {
    INFO("program " << i);
    CHECK(program_param(programs[i], GL_LINK_STATUS) == GL_TRUE);
    CHECK(all_equal(run(programs[i]), 100 + i));
    glDeleteProgram(programs[i]);
  }
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(ctx);
}

TEST_CASE("MaxShaderCompilerThreads(0): compiles and links are done when the calls return", "[gl][parallel_compile]") {
  GlContext ctx;
  // "A count of zero specifies a request for no parallel compiling or linking": Bismuth then compiles and links on
  // the calling thread, so nothing is being compiled or linked by a background thread once the calls return.
  glMaxShaderCompilerThreadsKHR(0);
  const GLuint shader = compile(GL_COMPUTE_SHADER, writer(21));
  CHECK(shader_param(shader, GL_COMPLETION_STATUS_KHR) == GL_TRUE);
  const GLuint program = glCreateProgram();
  glAttachShader(program, shader);
  glLinkProgram(program);
  CHECK(program_param(program, GL_COMPLETION_STATUS_KHR) == GL_TRUE);
  CHECK(program_param(program, GL_LINK_STATUS) == GL_TRUE);
  CHECK(all_equal(run(program), 21));
  glDeleteShader(shader);
  glDeleteProgram(program);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(ctx);
}

TEST_CASE("Deleting shaders, programs and contexts with compiles and links pending", "[gl][parallel_compile]") {
  GlContext ctx;
  // GL 4.6 §7.1/§7.3: deletion of an object not in use (not attached, not current) is immediate; its name is free.
  const GLuint shader = compile(GL_COMPUTE_SHADER, writer(30));
  glDeleteShader(shader);
  CHECK(glIsShader(shader) == GL_FALSE);
  const GLuint s2 = compile(GL_COMPUTE_SHADER, writer(31));
  const GLuint program = glCreateProgram();
  glAttachShader(program, s2);
  glLinkProgram(program);
  glDeleteShader(s2);
  glDeleteProgram(program);
  CHECK(glIsProgram(program) == GL_FALSE);
  CHECK(glIsShader(s2) == GL_FALSE);  // deleted with the program it was attached to
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // A whole context (and its share group) destroyed with a batch in flight, then its display terminated (the
  // device and its compiler threads go): the rest of the process is unaffected.
  {
    GlContext doomed;
    for (uint32_t i = 0; i < 16; ++i) {
      const GLuint s = compile(GL_COMPUTE_SHADER, writer(40 + i));
      const GLuint p = glCreateProgram();
      glAttachShader(p, s);
      glLinkProgram(p);
    }
  }
  REQUIRE(eglMakeCurrent(ctx.display, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx.context) == EGL_TRUE);
  const GLuint after = make_program(writer(50));
  CHECK(all_equal(run(after), 50));
  glDeleteProgram(after);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(ctx);
}

TEST_CASE("A display terminated with compiles and links queued", "[gl][parallel_compile]") {
  {
    GlContext doomed;
    for (uint32_t i = 0; i < 24; ++i) {
      const GLuint s = compile(GL_COMPUTE_SHADER, writer(60 + i));
      const GLuint p = glCreateProgram();
      glAttachShader(p, s);
      glLinkProgram(p);
    }
    REQUIRE_NO_GL_VALIDATION_MESSAGES(doomed);
  }
  // EGL 1.5 §3.2: eglTerminate releases the display's resources (here the device, which stops its compiler
  // threads: the queued work is dropped, the running work finishes).
  CHECK(eglTerminate(eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, nullptr, nullptr)) == EGL_TRUE);
  GlContext ctx;
  const GLuint program = make_program(writer(90));
  CHECK(all_equal(run(program), 90));
  glDeleteProgram(program);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(ctx);
}

TEST_CASE("Two threads, two contexts of one share group, polling and using the same programs",
          "[gl][parallel_compile][concurrency]") {
  GlContext ctx;
  constexpr uint32_t kPrograms = 16;
  std::vector<GLuint> programs;
  for (uint32_t i = 0; i < kPrograms; ++i) {
    const GLuint s = compile(GL_COMPUTE_SHADER, writer(200 + i));
    programs.push_back(glCreateProgram());
    glAttachShader(programs.back(), s);
    glLinkProgram(programs.back());
    glDeleteShader(s);
  }
  // EGL 1.5 §3.7.1: a context created with share_context shares its shader and program objects.
  const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 6, EGL_NONE};
  const EGLContext shared = eglCreateContext(ctx.display, ctx.config, ctx.context, attribs);
  REQUIRE(shared != EGL_NO_CONTEXT);
  std::atomic<int> other_failures{0};
  std::thread other([&] {
    eglBindAPI(EGL_OPENGL_API);
    if (!eglMakeCurrent(ctx.display, EGL_NO_SURFACE, EGL_NO_SURFACE, shared)) {
      other_failures = 100;
      return;
    }
    for (uint32_t i = 0; i < kPrograms; ++i) {
      GLint status = GL_FALSE;
      glGetProgramiv(programs[i], GL_LINK_STATUS, &status);  // settles from this thread
      if (status != GL_TRUE) ++other_failures;
    }
    eglMakeCurrent(ctx.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  });
  for (uint32_t i = 0; i < kPrograms; ++i) {
    INFO("program " << i);
    CHECK(all_equal(run(programs[i]), 200 + i));  // settles from this one
  }
  other.join();
  CHECK(other_failures == 0);
  eglDestroyContext(ctx.display, shared);
  for (GLuint p : programs) glDeleteProgram(p);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(ctx);
}

TEST_CASE("OpenGL ES: GL_KHR_parallel_shader_compile, glMaxShaderCompilerThreadsKHR and COMPLETION_STATUS_KHR",
          "[gl][parallel_compile][es]") {
  setenv("BISMUTH_VALIDATION", "1", 0);
  EGLDisplay display = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, nullptr, nullptr);
  REQUIRE(eglInitialize(display, nullptr, nullptr) == EGL_TRUE);
  REQUIRE(eglBindAPI(EGL_OPENGL_ES_API) == EGL_TRUE);
  const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 2, EGL_NONE};
  EGLContext context = eglCreateContext(display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attribs);
  REQUIRE(context != EGL_NO_CONTEXT);
  REQUIRE(eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context) == EGL_TRUE);
  std::vector<std::string> validation;
  glDebugMessageCallback(
      [](GLenum, GLenum, GLuint id, GLenum, GLsizei length, const GLchar* message, const void* user) {
        if (id == kValidationMessageId)
          static_cast<std::vector<std::string>*>(const_cast<void*>(user))->emplace_back(message, size_t(length));
      },
      &validation);
  // OpenGL ES lists the KHR extension (the ARB one is desktop GL's); its entry point is the KHR name.
  const std::string extensions = reinterpret_cast<const char*>(glGetString(GL_EXTENSIONS));
  CHECK(extensions.find("GL_KHR_parallel_shader_compile") != std::string::npos);
  CHECK(extensions.find("GL_ARB_parallel_shader_compile") == std::string::npos);
  auto max_threads_khr = reinterpret_cast<void(APIENTRY*)(GLuint)>(eglGetProcAddress("glMaxShaderCompilerThreadsKHR"));
  REQUIRE(max_threads_khr != nullptr);
  CHECK(max_threads() == 0xFFFFFFFFu);
  max_threads_khr(2);
  CHECK(max_threads() == 2u);
  const std::string source =
      "#version 310 es\nlayout(local_size_x = 64) in;\nlayout(std430, binding = 0) buffer Out { uint values[]; };\n"
      "void main() { values[gl_GlobalInvocationID.x] = 77u; }\n" +
      nonce();
  const GLuint shader = compile(GL_COMPUTE_SHADER, source);
  const GLuint program = glCreateProgram();
  glAttachShader(program, shader);
  glLinkProgram(program);
  REQUIRE(eventually_complete(true, program));
  CHECK(program_param(program, GL_LINK_STATUS) == GL_TRUE);
  CHECK(all_equal(run(program), 77));
  glDeleteShader(shader);
  glDeleteProgram(program);
  CHECK(glGetError() == GL_NO_ERROR);
  CHECK(validation.empty());
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(display, context);
}

TEST_CASE("glCreateShaderProgramv: the compile and link logs as with synchronous work", "[gl][parallel_compile]") {
  GlContext ctx;
  // GL 4.6 §7.3: CreateShaderProgramv is equivalent to a compile, a link and "the info log of the shader object is
  // appended to the info log of the program object".
  // A compile log (a warning) and a link log (no main).
  const std::string no_main =
      "#version 450\n#extension GL_EXT_no_such_extension : warn\nlayout(local_size_x = 1) in;\nvoid helper() {}\n";
  auto make = [&](GLuint hint) {
    glMaxShaderCompilerThreadsKHR(hint);
    const std::string source = no_main + nonce();
    const char* text = source.c_str();
    const GLuint program = glCreateShaderProgramv(GL_COMPUTE_SHADER, 1, &text);
    REQUIRE(program != 0);
    const std::pair<GLint, std::string> out{program_param(program, GL_LINK_STATUS), program_log(program)};
    glDeleteProgram(program);
    return out;
  };
  const auto sync = make(0);
  const auto background = make(0xFFFFFFFFu);
  CHECK(sync.first == GL_FALSE);
  CHECK(sync.second.find("GL_EXT_no_such_extension") != std::string::npos);
  CHECK(background == sync);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(ctx);
}
