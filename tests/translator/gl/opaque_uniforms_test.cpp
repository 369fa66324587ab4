// Sampler and image uniforms through the GL API (issue 18, issue 15 item 1): their units are their values (GL 4.6
// §7.6, §7.9, GLSL 4.60 §4.4.6), set with glUniform1i(v) / glProgramUniform1i(v) and read with glGetUniformiv;
// GL 4.6 Table 7.3's types in introspection; the unit limits of GL 4.6 Tables 23.57 / 23.64 and OpenGL ES 3.2
// Tables 21.49 / 21.54 through glGetIntegerv and GLSL's gl_Max* constants; program binaries keep them.
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "translator/gl/gl_fixture.hpp"

namespace {

using bismuth::gltest::GlContext;
using bismuth::gltest::make_program;

constexpr const char* kProgram =
    "#version 450\n"
    "layout(local_size_x = 1) in;\n"
    "layout(binding = 3) uniform sampler2D s[2];\n"
    "uniform isampler3D plain;\n"
    "layout(location = 10, binding = 7) uniform usamplerBuffer tb[3];\n"
    "layout(rgba8, binding = 2) uniform readonly image2D img;\n"
    "layout(r32ui) uniform uimage2DArray plain_image;\n"
    "uniform float f;\n"
    "layout(std430, binding = 0) buffer B { vec4 o[]; };\n"
    "void main() {\n"
    "  o[0] = texelFetch(s[0], ivec2(0), 0) + texelFetch(s[1], ivec2(0), 0) + vec4(texelFetch(plain, ivec3(0), 0)) +\n"
    "         vec4(texelFetch(tb[0], 0) + texelFetch(tb[2], 0)) + imageLoad(img, ivec2(0)) +\n"
    "         vec4(imageLoad(plain_image, ivec3(0))) + f;\n"
    "}\n";

GLint unit_of(GLuint program, const char* name) {
  const GLint location = glGetUniformLocation(program, name);
  REQUIRE(location >= 0);
  GLint value = -99;
  glGetUniformiv(program, location, &value);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  return value;
}

GLint integer(GLenum pname) {
  GLint v = -1;
  glGetIntegerv(pname, &v);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  return v;
}

// Compiles `source` as a compute shader; its GL_COMPILE_STATUS.
bool compiles(const std::string& source) {
  const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  const char* text = source.c_str();
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  glDeleteShader(shader);
  return ok == GL_TRUE;
}

}  // namespace

TEST_CASE("Opaque uniforms start at their binding qualifier, else at unit 0") {
  GlContext ctx;
  const GLuint program = make_program(kProgram);
  // GLSL 4.60 §4.4.6: "If the binding identifier is used with an array, the first element of the array takes the
  // specified unit and each subsequent element takes the next consecutive unit"; without one, an opaque uniform
  // starts at 0, as every uniform without an initializer does (GL 4.6 §7.6).
  CHECK(unit_of(program, "s[0]") == 3);
  CHECK(unit_of(program, "s[1]") == 4);
  CHECK(unit_of(program, "plain") == 0);
  CHECK(unit_of(program, "tb[0]") == 7);
  CHECK(unit_of(program, "tb[2]") == 9);
  CHECK(unit_of(program, "img") == 2);
  CHECK(unit_of(program, "plain_image") == 0);
  // `layout(location = N)` on an opaque array: element k at N + k (GLSL 4.60 §4.4.3).
  CHECK(glGetUniformLocation(program, "tb") == 10);
  CHECK(glGetUniformLocation(program, "tb[2]") == 12);
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(ctx);
}

TEST_CASE("glUniform1i(v) and glProgramUniform1i(v) set the units of samplers and images") {
  GlContext ctx;
  const GLuint program = make_program(kProgram);
  glUseProgram(program);
  glUniform1i(glGetUniformLocation(program, "plain"), 5);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(unit_of(program, "plain") == 5);
  // An array from element 1 on: elements past the end are ignored (GL 4.6 §7.6.1).
  const GLint units[] = {11, 12, 13};
  glUniform1iv(glGetUniformLocation(program, "tb[1]"), 3, units);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(unit_of(program, "tb[0]") == 7);
  CHECK(unit_of(program, "tb[1]") == 11);
  CHECK(unit_of(program, "tb[2]") == 12);
  glProgramUniform1i(program, glGetUniformLocation(program, "img"), 6);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(unit_of(program, "img") == 6);
  const GLint pair[] = {20, 21};
  glProgramUniform1iv(program, glGetUniformLocation(program, "s"), 2, pair);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(unit_of(program, "s[0]") == 20);
  CHECK(unit_of(program, "s[1]") == 21);
  // A relink gives every uniform its initial value again (GL 4.6 §7.6: "when a program is successfully linked, all
  // active uniforms ... are initialized").
  glLinkProgram(program);
  CHECK(unit_of(program, "plain") == 0);
  CHECK(unit_of(program, "img") == 2);
  CHECK(unit_of(program, "s[1]") == 4);
  glUseProgram(0);
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(ctx);
}

TEST_CASE("Only glUniform1i(v) loads a sampler or image, and only with a unit that exists") {
  GlContext ctx;
  const GLuint program = make_program(kProgram);
  glUseProgram(program);
  const GLint plain = glGetUniformLocation(program, "plain");
  const GLint img = glGetUniformLocation(program, "img");
  // GL 4.6 §7.6.1: "Only the Uniform1i{v} commands can be used to load sampler values (see section 7.9)"; images
  // likewise (§7.6.1 and §8.26): any other command is INVALID_OPERATION.
  glUniform1f(plain, 1.0f);
  CHECK(glGetError() == GL_INVALID_OPERATION);
  glUniform2i(plain, 1, 2);
  CHECK(glGetError() == GL_INVALID_OPERATION);
  glUniform1ui(img, 1u);
  CHECK(glGetError() == GL_INVALID_OPERATION);
  // GL 4.6 §7.9: "An INVALID_VALUE error is generated if Uniform1i{v} is used to set a sampler to a value less than
  // zero or greater than or equal to the value of MAX_COMBINED_TEXTURE_IMAGE_UNITS"; §8.26 likewise for an image
  // uniform and MAX_IMAGE_UNITS.
  glUniform1i(plain, -1);
  CHECK(glGetError() == GL_INVALID_VALUE);
  glUniform1i(plain, integer(GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS));
  CHECK(glGetError() == GL_INVALID_VALUE);
  glUniform1i(plain, integer(GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS) - 1);
  CHECK(glGetError() == GL_NO_ERROR);
  glUniform1i(img, integer(GL_MAX_IMAGE_UNITS));
  CHECK(glGetError() == GL_INVALID_VALUE);
  CHECK(unit_of(program, "img") == 2);  // a call that fails changes nothing
  glUniform1i(img, integer(GL_MAX_IMAGE_UNITS) - 1);
  CHECK(glGetError() == GL_NO_ERROR);
  CHECK(unit_of(program, "img") == integer(GL_MAX_IMAGE_UNITS) - 1);
  // count > 1 on a uniform that is not an array: INVALID_OPERATION (GL 4.6 §7.6.1).
  const GLint two[] = {1, 2};
  glUniform1iv(plain, 2, two);
  CHECK(glGetError() == GL_INVALID_OPERATION);
  glUseProgram(0);
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(ctx);
}

TEST_CASE("Introspection reports GL 4.6 Table 7.3's sampler and image types") {
  GlContext ctx;
  const GLuint program = make_program(kProgram);
  struct Expect {
    const char* name;
    GLenum type;
    GLint size;
  };
  const Expect expected[] = {{"s[0]", GL_SAMPLER_2D, 2},
                             {"plain", GL_INT_SAMPLER_3D, 1},
                             {"tb[0]", GL_UNSIGNED_INT_SAMPLER_BUFFER, 3},
                             {"img", GL_IMAGE_2D, 1},
                             {"plain_image", GL_UNSIGNED_INT_IMAGE_2D_ARRAY, 1}};
  GLint active = 0;
  glGetProgramiv(program, GL_ACTIVE_UNIFORMS, &active);
  CHECK(active == 6);  // five opaque uniforms and f
  for (const Expect& e : expected) {
    INFO(e.name);
    const GLuint index = glGetProgramResourceIndex(program, GL_UNIFORM, e.name);
    REQUIRE(index != GL_INVALID_INDEX);
    const GLenum props[] = {GL_TYPE,   GL_ARRAY_SIZE,  GL_LOCATION,
                            GL_OFFSET, GL_BLOCK_INDEX, GL_REFERENCED_BY_COMPUTE_SHADER};
    GLint values[6] = {};
    glGetProgramResourceiv(program, GL_UNIFORM, index, 6, props, 6, nullptr, values);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    CHECK(static_cast<GLenum>(values[0]) == e.type);
    CHECK(values[1] == e.size);
    CHECK(values[2] == glGetUniformLocation(program, e.name));
    CHECK(values[3] == -1);  // not backed by a buffer object
    CHECK(values[4] == -1);
    CHECK(values[5] == 1);
    // glGetActiveUniform and glGetActiveUniformsiv say the same (GL 4.6 §7.3.1.1).
    GLint size = 0;
    GLenum type = 0;
    char name[64] = {};
    glGetActiveUniform(program, index, sizeof name, nullptr, &size, &type, name);
    CHECK(type == e.type);
    CHECK(size == e.size);
    CHECK(std::string(name) == e.name);
    GLint uniform_type = 0;
    glGetActiveUniformsiv(program, 1, &index, GL_UNIFORM_TYPE, &uniform_type);
    CHECK(static_cast<GLenum>(uniform_type) == e.type);
  }
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(ctx);
}

TEST_CASE("Texture and image unit limits meet GL 4.6's minimums and are GLSL's gl_Max* constants") {
  GlContext ctx;
  // GL 4.6 Table 23.57 (compute), 23.64 (implementation-dependent aggregate limits).
  CHECK(integer(GL_MAX_COMPUTE_TEXTURE_IMAGE_UNITS) >= 16);
  CHECK(integer(GL_MAX_TEXTURE_IMAGE_UNITS) >= 16);
  CHECK(integer(GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS) >= 80);
  CHECK(integer(GL_MAX_IMAGE_UNITS) >= 8);
  CHECK(integer(GL_MAX_COMPUTE_IMAGE_UNIFORMS) >= 8);
  CHECK(integer(GL_MAX_COMBINED_IMAGE_UNIFORMS) >= 8);
  CHECK(integer(GL_MAX_IMAGE_SAMPLES) >= 0);
  CHECK(integer(GL_MAX_COMBINED_IMAGE_UNITS_AND_FRAGMENT_OUTPUTS) >= 8);
  // GLSL 4.60 §7.3: the built-in constants are the implementation's limits. A negative array size does not compile,
  // so each shader compiles only when its constant equals what glGetIntegerv reports.
  struct Constant {
    const char* glsl;
    GLenum pname;
  };
  const Constant constants[] = {{"gl_MaxComputeTextureImageUnits", GL_MAX_COMPUTE_TEXTURE_IMAGE_UNITS},
                                {"gl_MaxCombinedTextureImageUnits", GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS},
                                {"gl_MaxImageUnits", GL_MAX_IMAGE_UNITS},
                                {"gl_MaxComputeImageUniforms", GL_MAX_COMPUTE_IMAGE_UNIFORMS},
                                {"gl_MaxCombinedImageUniforms", GL_MAX_COMBINED_IMAGE_UNIFORMS}};
  for (const Constant& c : constants) {
    INFO(c.glsl);
    const std::string value = std::to_string(integer(c.pname));
    CHECK(compiles("#version 450\nlayout(local_size_x = 1) in;\nshared int probe[" + std::string(c.glsl) +
                   " == " + value + " ? 1 : -1];\nvoid main() { probe[0] = 0; }\n"));
    CHECK_FALSE(compiles("#version 450\nlayout(local_size_x = 1) in;\nshared int probe[" + std::string(c.glsl) +
                         " == " + value + " ? -1 : 1];\nvoid main() { probe[0] = 0; }\n"));
  }
  REQUIRE_NO_GL_VALIDATION_MESSAGES(ctx);
}

TEST_CASE("A program with more image uniforms than MAX_COMPUTE_IMAGE_UNIFORMS fails to link") {
  GlContext ctx;
  // GL 4.6 §7.6: a program fails to link when "the number of active ... image uniforms" of a stage exceeds its
  // limit (an array counts each element).
  const GLint limit = integer(GL_MAX_COMPUTE_IMAGE_UNIFORMS);
  const std::string source = "#version 450\nlayout(local_size_x = 1) in;\nlayout(r32f) uniform image2D i[" +
                             std::to_string(limit + 1) +
                             "];\nlayout(std430, binding = 0) buffer B { vec4 o[]; };\n"
                             "void main() { vec4 v = vec4(0.0); for (int k = 0; k < " +
                             std::to_string(limit + 1) + "; ++k) v += imageLoad(i[k], ivec2(0)); o[0] = v; }\n";
  const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  const char* text = source.c_str();
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  const GLuint program = glCreateProgram();
  glAttachShader(program, shader);
  glLinkProgram(program);
  GLint linked = GL_TRUE;
  glGetProgramiv(program, GL_LINK_STATUS, &linked);
  CHECK(linked == GL_FALSE);
  glDeleteShader(shader);
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(ctx);
}

TEST_CASE("A program binary keeps its samplers and images") {
  GlContext ctx;
  const GLuint program = make_program(kProgram);
  glProgramUniform1i(program, glGetUniformLocation(program, "plain"), 9);
  GLint length = 0;
  glGetProgramiv(program, GL_PROGRAM_BINARY_LENGTH, &length);
  REQUIRE(length > 0);
  std::vector<unsigned char> bytes(static_cast<size_t>(length));
  GLenum format = 0;
  glGetProgramBinary(program, length, nullptr, &format, bytes.data());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  const GLuint loaded = glCreateProgram();
  glProgramBinary(loaded, format, bytes.data(), length);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  GLint ok = 0;
  glGetProgramiv(loaded, GL_LINK_STATUS, &ok);
  REQUIRE(ok == GL_TRUE);
  // GL 4.6 §7.5: loading a binary is a link: uniforms take their initial values (the binding qualifiers).
  CHECK(unit_of(loaded, "plain") == 0);
  CHECK(unit_of(loaded, "s[1]") == 4);
  CHECK(unit_of(loaded, "img") == 2);
  const GLuint index = glGetProgramResourceIndex(loaded, GL_UNIFORM, "tb[0]");
  REQUIRE(index != GL_INVALID_INDEX);
  const GLenum props[] = {GL_TYPE, GL_ARRAY_SIZE};
  GLint values[2] = {};
  glGetProgramResourceiv(loaded, GL_UNIFORM, index, 2, props, 2, nullptr, values);
  CHECK(static_cast<GLenum>(values[0]) == GL_UNSIGNED_INT_SAMPLER_BUFFER);
  CHECK(values[1] == 3);
  glProgramUniform1i(loaded, glGetUniformLocation(loaded, "img"), 5);
  CHECK(glGetError() == GL_NO_ERROR);
  CHECK(unit_of(loaded, "img") == 5);
  glDeleteProgram(loaded);
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(ctx);
}

TEST_CASE("OpenGL ES 3.1: sampler and image units with ES limits and GLSL ES rules") {
  setenv("BISMUTH_VALIDATION", "1", 0);
  EGLDisplay display = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, nullptr, nullptr);
  REQUIRE(display != EGL_NO_DISPLAY);
  REQUIRE(eglInitialize(display, nullptr, nullptr) == EGL_TRUE);
  REQUIRE(eglBindAPI(EGL_OPENGL_ES_API) == EGL_TRUE);
  const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 1, EGL_NONE};
  EGLContext context = eglCreateContext(display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attribs);
  REQUIRE(context != EGL_NO_CONTEXT);
  REQUIRE(eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context) == EGL_TRUE);
  {
    // OpenGL ES 3.1 minimums (its implementation-dependent state tables): MAX_COMPUTE_TEXTURE_IMAGE_UNITS 16,
    // MAX_COMBINED_TEXTURE_IMAGE_UNITS 48, MAX_IMAGE_UNITS 4, MAX_COMPUTE_IMAGE_UNIFORMS 4,
    // MAX_COMBINED_IMAGE_UNIFORMS 4.
    CHECK(integer(GL_MAX_COMPUTE_TEXTURE_IMAGE_UNITS) >= 16);
    CHECK(integer(GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS) >= 48);
    CHECK(integer(GL_MAX_IMAGE_UNITS) >= 4);
    CHECK(integer(GL_MAX_COMPUTE_IMAGE_UNIFORMS) >= 4);
    CHECK(integer(GL_MAX_COMBINED_IMAGE_UNIFORMS) >= 4);
    const GLuint program = make_program(
        "#version 310 es\nlayout(local_size_x = 1) in;\n"
        "layout(binding = 1) uniform highp sampler2D s;\n"
        "layout(r32ui, binding = 3) uniform highp uimage2D img;\n"
        "layout(std430, binding = 0) buffer B { highp vec4 o[]; };\n"
        "void main() { o[0] = texture(s, vec2(0.5)) + vec4(imageLoad(img, ivec2(0))); }\n");
    CHECK(unit_of(program, "s") == 1);
    CHECK(unit_of(program, "img") == 3);
    glProgramUniform1i(program, glGetUniformLocation(program, "s"), 2);
    CHECK(glGetError() == GL_NO_ERROR);
    CHECK(unit_of(program, "s") == 2);
    glProgramUniform1f(program, glGetUniformLocation(program, "s"), 2.0f);
    CHECK(glGetError() == GL_INVALID_OPERATION);
    // OpenGL ES 3.1 §7.6.1 (unlike GL 4.6): an image uniform keeps the unit of its binding qualifier; loading it with
    // Uniform1i{v} is INVALID_OPERATION.
    glProgramUniform1i(program, glGetUniformLocation(program, "img"), 0);
    CHECK(glGetError() == GL_INVALID_OPERATION);
    CHECK(unit_of(program, "img") == 3);
    glDeleteProgram(program);
    // GLSL ES 3.10 §4.9: "Except for image variables qualified with the format qualifiers r32f, r32i, and r32ui,
    // image variables must specify either memory qualifier readonly or the memory qualifier writeonly."
    CHECK_FALSE(
        compiles("#version 310 es\nlayout(local_size_x = 1) in;\n"
                 "layout(rgba8, binding = 0) uniform highp image2D img;\nvoid main() {}\n"));
    CHECK(
        compiles("#version 310 es\nlayout(local_size_x = 1) in;\n"
                 "layout(rgba8, binding = 0) readonly uniform highp image2D img;\nvoid main() {}\n"));
  }
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(display, context);
}

TEST_CASE("A program may use as many samplers and images as the compute limits allow") {
  GlContext ctx;
  // GL 4.6 §7.6 / Table 23.57: a compute shader may use MAX_COMPUTE_TEXTURE_IMAGE_UNITS samplers and
  // MAX_COMPUTE_IMAGE_UNIFORMS images; the link must succeed at exactly these counts (more descriptors than a push
  // descriptor set holds on some devices: the backend's pooled sets take them).
  const std::string samplers = std::to_string(integer(GL_MAX_COMPUTE_TEXTURE_IMAGE_UNITS));
  const std::string images = std::to_string(integer(GL_MAX_COMPUTE_IMAGE_UNIFORMS));
  const GLuint program = make_program("#version 450\nlayout(local_size_x = 1) in;\nuniform sampler2D s[" + samplers +
                                      "];\nlayout(r32f) uniform image2D i[" + images +
                                      "];\nlayout(std430, binding = 0) buffer B { vec4 o[]; };\nvoid main() {\n  vec4 "
                                      "v = vec4(0.0);\n  for (int k = 0; k < " +
                                      samplers + "; ++k) v += texelFetch(s[k], ivec2(0), 0);\n  for (int k = 0; k < " +
                                      images + "; ++k) v += imageLoad(i[k], ivec2(0));\n  o[0] = v;\n}\n");
  GLint size = 0;
  GLenum type = 0;
  glGetActiveUniform(program, glGetProgramResourceIndex(program, GL_UNIFORM, "s[0]"), 0, nullptr, &size, &type,
                     nullptr);
  CHECK(size == integer(GL_MAX_COMPUTE_TEXTURE_IMAGE_UNITS));
  CHECK(type == GL_SAMPLER_2D);
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(ctx);
}

TEST_CASE("Samplers of a program of graphics stages are uniforms with units too") {
  GlContext ctx;
  const char* vertex = "#version 450\nvoid main() { gl_Position = vec4(0.0); }\n";
  const char* fragment =
      "#version 450\nlayout(binding = 5) uniform sampler2D tex;\nuniform usampler2DArray plain;\n"
      "layout(location = 0) out vec4 color;\n"
      "void main() { color = texture(tex, vec2(0.5)) + vec4(texture(plain, vec3(0.5))); }\n";
  GLuint shaders[2];
  const char* sources[2] = {vertex, fragment};
  const GLenum types[2] = {GL_VERTEX_SHADER, GL_FRAGMENT_SHADER};
  const GLuint program = glCreateProgram();
  for (int i = 0; i < 2; ++i) {
    shaders[i] = glCreateShader(types[i]);
    glShaderSource(shaders[i], 1, &sources[i], nullptr);
    glCompileShader(shaders[i]);
    glAttachShader(program, shaders[i]);
  }
  glLinkProgram(program);
  GLint linked = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &linked);
  REQUIRE(linked == GL_TRUE);
  // GLSL 4.60 §4.4.6 and GL 4.6 §7.6, as for compute programs.
  CHECK(unit_of(program, "tex") == 5);
  CHECK(unit_of(program, "plain") == 0);
  glProgramUniform1i(program, glGetUniformLocation(program, "plain"), 3);
  CHECK(glGetError() == GL_NO_ERROR);
  CHECK(unit_of(program, "plain") == 3);
  glProgramUniform1f(program, glGetUniformLocation(program, "plain"), 3.0f);
  CHECK(glGetError() == GL_INVALID_OPERATION);
  const GLuint index = glGetProgramResourceIndex(program, GL_UNIFORM, "plain");
  REQUIRE(index != GL_INVALID_INDEX);
  const GLenum props[] = {GL_TYPE, GL_REFERENCED_BY_FRAGMENT_SHADER, GL_REFERENCED_BY_VERTEX_SHADER};
  GLint values[3] = {};
  glGetProgramResourceiv(program, GL_UNIFORM, index, 3, props, 3, nullptr, values);
  CHECK(static_cast<GLenum>(values[0]) == GL_UNSIGNED_INT_SAMPLER_2D_ARRAY);
  CHECK(values[1] == 1);
  CHECK(values[2] == 0);
  for (GLuint s : shaders) glDeleteShader(s);
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(ctx);
}

TEST_CASE("A program linked from the program cache keeps its samplers and images", "[program_cache]") {
  char pattern[] = "/tmp/bismuth-opaque-cache-XXXXXX";
  REQUIRE(mkdtemp(pattern) != nullptr);
  const std::string dir = pattern;
  setenv("BISMUTH_CACHE_DIR", dir.c_str(), 1);
  unsetenv("BISMUTH_PROGRAM_CACHE");
  {
    GlContext ctx(4, 6, true);
    const GLuint first = make_program(kProgram);
    glProgramUniform1i(first, glGetUniformLocation(first, "plain"), 9);
    ctx.clear_messages();
    const GLuint second = make_program(kProgram);
    CHECK(ctx.saw_message_containing("linked from a link record"));
    // GL 4.6 §7.6: a newly linked program's uniforms take their initial values, whatever another program's are.
    CHECK(unit_of(second, "plain") == 0);
    CHECK(unit_of(second, "s[1]") == 4);
    CHECK(unit_of(second, "tb[2]") == 9);
    CHECK(glGetUniformLocation(second, "tb") == 10);
    const GLuint index = glGetProgramResourceIndex(second, GL_UNIFORM, "img");
    REQUIRE(index != GL_INVALID_INDEX);
    const GLenum props[] = {GL_TYPE};
    GLint type = 0;
    glGetProgramResourceiv(second, GL_UNIFORM, index, 1, props, 1, nullptr, &type);
    CHECK(static_cast<GLenum>(type) == GL_IMAGE_2D);
    glProgramUniform1i(second, glGetUniformLocation(second, "img"), 7);
    CHECK(glGetError() == GL_NO_ERROR);
    CHECK(unit_of(second, "img") == 7);
    glDeleteProgram(first);
    glDeleteProgram(second);
    REQUIRE_NO_GL_VALIDATION_MESSAGES(ctx);
  }
  eglTerminate(eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, nullptr, nullptr));
  unsetenv("BISMUTH_CACHE_DIR");
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}
