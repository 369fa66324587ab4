// Programs without a compute shader through the GL API: shader objects of every stage, GL 4.6 §7.3 link rules,
// the compute-only queries and dispatch refusing a graphics program (§7.13, §19), and the draw calls refused with
// a KHR_debug message (Bismuth does not rasterize).
#include <string>

#include "translator/gl/gl_fixture.hpp"

using namespace bismuth::gltest;

namespace {

const char* kVertex = R"(#version 450
layout(location = 0) in vec4 position;
out vec4 color;
void main() { gl_Position = position; color = position; }
)";

const char* kFragment = R"(#version 450
in vec4 color;
layout(location = 0) out vec4 frag;
void main() { frag = color; }
)";

const char* kCompute = "#version 450\nlayout(local_size_x = 4) in;\nvoid main() {}\n";

GLuint shader(GLenum type, const char* source) {
  const GLuint s = glCreateShader(type);
  glShaderSource(s, 1, &source, nullptr);
  glCompileShader(s);
  return s;
}

GLint shader_int(GLuint s, GLenum pname) {
  GLint v = -1;
  glGetShaderiv(s, pname, &v);
  return v;
}

GLint program_int(GLuint p, GLenum pname) {
  GLint v = -1;
  glGetProgramiv(p, pname, &v);
  return v;
}

std::string program_log(GLuint program) {
  GLint length = 0;
  glGetProgramiv(program, GL_INFO_LOG_LENGTH, &length);
  std::string log(static_cast<size_t>(std::max(length, 1)), '\0');
  glGetProgramInfoLog(program, length, nullptr, log.data());
  return log.c_str();
}

GLuint link(std::initializer_list<GLuint> shaders) {
  const GLuint p = glCreateProgram();
  for (GLuint s : shaders) glAttachShader(p, s);
  glLinkProgram(p);
  return p;
}

}  // namespace

TEST_CASE("glCreateShader takes every shader type of GL 4.6 table 7.1 and refuses others") {
  GlContext gl;
  for (GLenum type : {GL_VERTEX_SHADER, GL_TESS_CONTROL_SHADER, GL_TESS_EVALUATION_SHADER, GL_GEOMETRY_SHADER,
                      GL_FRAGMENT_SHADER, GL_COMPUTE_SHADER}) {
    const GLuint s = glCreateShader(type);
    CHECK(s != 0);
    // GL 4.6 §7.13: SHADER_TYPE returns the type the shader object was created with.
    CHECK(static_cast<GLenum>(shader_int(s, GL_SHADER_TYPE)) == type);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
  }
  // GL 4.6 §7.1: "An INVALID_ENUM error is generated if type is not one of the values in table 7.1."
  CHECK(glCreateShader(GL_TEXTURE_2D) == 0);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  CHECK(glCreateShader(GL_SHADER_STORAGE_BUFFER) == 0);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("Vertex and fragment shaders compile with info logs") {
  GlContext gl;
  const GLuint vs = shader(GL_VERTEX_SHADER, kVertex);
  CHECK(shader_int(vs, GL_COMPILE_STATUS) == GL_TRUE);
  const GLuint bad = shader(GL_FRAGMENT_SHADER, "#version 450\nout vec4 f;\nvoid main() {\n  f = nothing;\n}\n");
  CHECK(shader_int(bad, GL_COMPILE_STATUS) == GL_FALSE);
  char log[1024] = {};
  glGetShaderInfoLog(bad, sizeof log, nullptr, log);
  CHECK(std::string(log).find("0:4(") != std::string::npos);
  REQUIRE_GL_ERROR(GL_NO_ERROR);  // a failed compile is not a GL error
}

TEST_CASE("A vertex + fragment program links, is current, and has no compute work group size") {
  GlContext gl;
  const GLuint vs = shader(GL_VERTEX_SHADER, kVertex);
  const GLuint fs = shader(GL_FRAGMENT_SHADER, kFragment);
  const GLuint program = link({vs, fs});
  INFO(program_log(program));
  REQUIRE(program_int(program, GL_LINK_STATUS) == GL_TRUE);
  CHECK(program_int(program, GL_ATTACHED_SHADERS) == 2);
  // GL 4.6 §11.1.1: the vertex shader's active inputs are the program's active attributes (gl_* built-ins count).
  CHECK(program_int(program, GL_ACTIVE_ATTRIBUTES) >= 1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // GL 4.6 §7.13: "An INVALID_OPERATION error is generated if COMPUTE_WORK_GROUP_SIZE is queried for a program
  // which has not been linked successfully, or which does not contain objects to form a compute shader."
  GLint size[3] = {-1, -1, -1};
  glGetProgramiv(program, GL_COMPUTE_WORK_GROUP_SIZE, size);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  CHECK(size[0] == -1);
  // GL 4.6 §7.3: UseProgram installs a successfully linked program, whatever its stages.
  glUseProgram(program);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  GLint current = 0;
  glGetIntegerv(GL_CURRENT_PROGRAM, &current);
  CHECK(static_cast<GLuint>(current) == program);
  // GL 4.6 §19: "An INVALID_OPERATION error is generated if there is no active program for the compute shader
  // stage."
  glDispatchCompute(1, 1, 1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glUseProgram(0);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("A compute shader linked with a shader of another stage fails to link with a log") {
  GlContext gl;
  // GL 4.6 §7.3: linking fails if "program contains objects to form a compute shader (see section 19) and
  // program also contains objects to form any other type of shader".
  const GLuint cs = shader(GL_COMPUTE_SHADER, kCompute);
  const GLuint fs = shader(GL_FRAGMENT_SHADER, kFragment);
  REQUIRE(shader_int(cs, GL_COMPILE_STATUS) == GL_TRUE);
  const GLuint program = link({cs, fs});
  CHECK(program_int(program, GL_LINK_STATUS) == GL_FALSE);
  CHECK(program_log(program).find("compute") != std::string::npos);
  glUseProgram(program);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);  // §7.3: the program has not been linked successfully
  // The compute shader alone links, and reports its size.
  const GLuint alone = link({cs});
  REQUIRE(program_int(alone, GL_LINK_STATUS) == GL_TRUE);
  GLint size[3] = {};
  glGetProgramiv(alone, GL_COMPUTE_WORK_GROUP_SIZE, size);
  CHECK(size[0] == 4);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
}

TEST_CASE("Link errors of graphics programs: no shaders, mismatched interfaces, a stage without main") {
  GlContext gl;
  // GL 4.6 §7.3: linking fails if "No shader objects are attached to program".
  const GLuint empty = link({});
  CHECK(program_int(empty, GL_LINK_STATUS) == GL_FALSE);
  // GL 4.6 §7.4.1: matching outputs and inputs must have the same type.
  const GLuint vs_vec3 =
      shader(GL_VERTEX_SHADER, "#version 450\nout vec3 color;\nvoid main() { color = vec3(0.0); }\n");
  const GLuint fs = shader(GL_FRAGMENT_SHADER, kFragment);
  const GLuint mismatch = link({vs_vec3, fs});
  CHECK(program_int(mismatch, GL_LINK_STATUS) == GL_FALSE);
  CHECK(program_log(mismatch).find("color") != std::string::npos);
  // GLSL 4.60 §6.1: one shader of a stage must define main, "or a link-time error results".
  const GLuint no_main = shader(GL_VERTEX_SHADER, "#version 450\nvoid helper() {}\n");
  REQUIRE(shader_int(no_main, GL_COMPILE_STATUS) == GL_TRUE);
  const GLuint missing = link({no_main, fs});
  CHECK(program_int(missing, GL_LINK_STATUS) == GL_FALSE);
  // GL 4.6 §7.3: a geometry shader without a vertex shader in a program that is not separable.
  const GLuint gs = shader(GL_GEOMETRY_SHADER, R"(#version 450
layout(points) in;
layout(points, max_vertices = 1) out;
void main() { EmitVertex(); }
)");
  REQUIRE(shader_int(gs, GL_COMPILE_STATUS) == GL_TRUE);
  const GLuint no_vertex = link({gs, fs});
  CHECK(program_int(no_vertex, GL_LINK_STATUS) == GL_FALSE);
  REQUIRE_GL_ERROR(GL_NO_ERROR);  // link failures are not GL errors
}

TEST_CASE("Two shader objects of one stage may be attached and linked together") {
  GlContext gl;
  // GL 4.6 §7.3: "Multiple shader objects of the same type may be attached to a single program object".
  const GLuint helper = shader(GL_VERTEX_SHADER, "#version 450\nvec4 position_of() { return vec4(1.0); }\n");
  const GLuint main_vs =
      shader(GL_VERTEX_SHADER, "#version 450\nvec4 position_of();\nvoid main() { gl_Position = position_of(); }\n");
  const GLuint program = link({helper, main_vs});
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  INFO(program_log(program));
  CHECK(program_int(program, GL_LINK_STATUS) == GL_TRUE);
  CHECK(program_int(program, GL_ATTACHED_SHADERS) == 2);
}

TEST_CASE("glCreateShaderProgramv makes separable programs of any stage") {
  GlContext gl;
  // GL 4.6 §7.3: CreateShaderProgramv sets PROGRAM_SEPARABLE before it links; a separable program needs no vertex
  // shader for its geometry stage.
  const char* gs = R"(#version 450
layout(points) in;
layout(points, max_vertices = 1) out;
void main() { EmitVertex(); }
)";
  const GLuint program = glCreateShaderProgramv(GL_GEOMETRY_SHADER, 1, &gs);
  REQUIRE(program != 0);
  INFO(program_log(program));
  CHECK(program_int(program, GL_LINK_STATUS) == GL_TRUE);
  CHECK(program_int(program, GL_PROGRAM_SEPARABLE) == GL_TRUE);
  CHECK(glCreateShaderProgramv(GL_TEXTURE_2D, 1, &gs) == 0);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
}

TEST_CASE("Draw calls set INVALID_OPERATION with a KHR_debug message: Bismuth does not draw") {
  GlContext gl;
  const GLuint program = link({shader(GL_VERTEX_SHADER, kVertex), shader(GL_FRAGMENT_SHADER, kFragment)});
  REQUIRE(program_int(program, GL_LINK_STATUS) == GL_TRUE);
  glUseProgram(program);
  const GLint first[1] = {0};
  const GLsizei count[1] = {3};
  auto refused = [&](const char* name) {
    INFO(name);
    CHECK(glGetError() == GL_INVALID_OPERATION);
    CHECK(gl.saw_message_containing(std::string(name) + ": drawing is not supported"));
    gl.clear_messages();
  };
  glDrawArrays(GL_TRIANGLES, 0, 3);
  refused("glDrawArrays");
  glDrawElements(GL_TRIANGLES, 3, GL_UNSIGNED_INT, nullptr);
  refused("glDrawElements");
  glDrawArraysInstanced(GL_TRIANGLES, 0, 3, 2);
  refused("glDrawArraysInstanced");
  glDrawElementsInstanced(GL_TRIANGLES, 3, GL_UNSIGNED_INT, nullptr, 2);
  refused("glDrawElementsInstanced");
  glDrawRangeElements(GL_TRIANGLES, 0, 2, 3, GL_UNSIGNED_INT, nullptr);
  refused("glDrawRangeElements");
  glMultiDrawArrays(GL_TRIANGLES, first, count, 1);
  refused("glMultiDrawArrays");
  glDrawArraysIndirect(GL_TRIANGLES, nullptr);
  refused("glDrawArraysIndirect");
  glMultiDrawElementsIndirect(GL_TRIANGLES, GL_UNSIGNED_INT, nullptr, 1, 0);
  refused("glMultiDrawElementsIndirect");
  glDrawArraysInstancedBaseInstance(GL_TRIANGLES, 0, 3, 1, 0);
  refused("glDrawArraysInstancedBaseInstance");
  glMultiDrawArraysIndirectCount(GL_TRIANGLES, nullptr, 0, 1, 0);
  refused("glMultiDrawArraysIndirectCount");
  // They are entry points a loader finds, not missing functions.
  CHECK(eglGetProcAddress("glDrawArrays") != nullptr);
  CHECK(eglGetProcAddress("glMultiDrawElementsIndirectCount") != nullptr);
  glUseProgram(0);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("glGetProgramiv reports geometry and tessellation layouts, and refuses them without the stage") {
  GlContext gl;
  const GLuint vs = shader(GL_VERTEX_SHADER, "#version 450\nvoid main() { gl_Position = vec4(0.0); }\n");
  const GLuint gs = shader(GL_GEOMETRY_SHADER, R"(#version 450
layout(triangles_adjacency, invocations = 2) in;
layout(line_strip, max_vertices = 5) out;
void main() { EmitVertex(); }
)");
  const GLuint with_geometry = link({vs, gs});
  INFO(program_log(with_geometry));
  REQUIRE(program_int(with_geometry, GL_LINK_STATUS) == GL_TRUE);
  // GL 4.6 §7.13: GEOMETRY_VERTICES_OUT, GEOMETRY_INPUT_TYPE, GEOMETRY_OUTPUT_TYPE, GEOMETRY_SHADER_INVOCATIONS.
  CHECK(program_int(with_geometry, GL_GEOMETRY_VERTICES_OUT) == 5);
  CHECK(program_int(with_geometry, GL_GEOMETRY_INPUT_TYPE) == GL_TRIANGLES_ADJACENCY);
  CHECK(program_int(with_geometry, GL_GEOMETRY_OUTPUT_TYPE) == GL_LINE_STRIP);
  CHECK(program_int(with_geometry, GL_GEOMETRY_SHADER_INVOCATIONS) == 2);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // "An INVALID_OPERATION error is generated if GEOMETRY_VERTICES_OUT ... [is] queried for a program which has not
  // been linked successfully, or which does not contain objects to form a geometry shader" (and likewise for the
  // tessellation values without their stage).
  CHECK(program_int(with_geometry, GL_TESS_GEN_MODE) == -1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  CHECK(program_int(with_geometry, GL_TESS_CONTROL_OUTPUT_VERTICES) == -1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  const GLuint vertex_only = link({vs});
  CHECK(program_int(vertex_only, GL_GEOMETRY_VERTICES_OUT) == -1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  const GLuint unlinked = glCreateProgram();
  CHECK(program_int(unlinked, GL_GEOMETRY_INPUT_TYPE) == -1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);

  const GLuint tcs = shader(GL_TESS_CONTROL_SHADER, "#version 450\nlayout(vertices = 4) out;\nvoid main() {}\n");
  const GLuint tes = shader(GL_TESS_EVALUATION_SHADER, R"(#version 450
layout(quads, fractional_odd_spacing, cw, point_mode) in;
void main() { gl_Position = vec4(0.0); }
)");
  const GLuint tessellated = link({vs, tcs, tes});
  INFO(program_log(tessellated));
  REQUIRE(program_int(tessellated, GL_LINK_STATUS) == GL_TRUE);
  CHECK(program_int(tessellated, GL_TESS_CONTROL_OUTPUT_VERTICES) == 4);
  CHECK(program_int(tessellated, GL_TESS_GEN_MODE) == GL_QUADS);
  CHECK(program_int(tessellated, GL_TESS_GEN_SPACING) == GL_FRACTIONAL_ODD);
  CHECK(program_int(tessellated, GL_TESS_GEN_VERTEX_ORDER) == GL_CW);
  CHECK(program_int(tessellated, GL_TESS_GEN_POINT_MODE) == GL_TRUE);
  // GLSL 4.60 §4.4.1.1: without a declaration the spacing is equal_spacing and the order ccw; no point_mode.
  const GLuint tes_defaults = shader(GL_TESS_EVALUATION_SHADER,
                                     "#version 450\nlayout(triangles) in;\nvoid main() { gl_Position = vec4(0.0); }\n");
  const GLuint defaults = link({vs, tes_defaults});
  REQUIRE(program_int(defaults, GL_LINK_STATUS) == GL_TRUE);
  CHECK(program_int(defaults, GL_TESS_GEN_MODE) == GL_TRIANGLES);
  CHECK(program_int(defaults, GL_TESS_GEN_SPACING) == GL_EQUAL);
  CHECK(program_int(defaults, GL_TESS_GEN_VERTEX_ORDER) == GL_CCW);
  CHECK(program_int(defaults, GL_TESS_GEN_POINT_MODE) == GL_FALSE);
  CHECK(program_int(defaults, GL_TESS_CONTROL_OUTPUT_VERTICES) == -1);  // no tessellation control shader
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("glProgramParameteri(GL_PROGRAM_SEPARABLE) decides whether a geometry stage needs a vertex shader") {
  GlContext gl;
  const GLuint gs = shader(GL_GEOMETRY_SHADER, R"(#version 450
layout(points) in;
layout(points, max_vertices = 1) out;
void main() { EmitVertex(); }
)");
  const GLuint program = glCreateProgram();
  glAttachShader(program, gs);
  glLinkProgram(program);
  CHECK(program_int(program, GL_LINK_STATUS) == GL_FALSE);  // GL 4.6 §7.3: not separable, no vertex shader
  CHECK(program_int(program, GL_PROGRAM_SEPARABLE) == GL_FALSE);
  glProgramParameteri(program, GL_PROGRAM_SEPARABLE, GL_TRUE);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(program_int(program, GL_PROGRAM_SEPARABLE) == GL_TRUE);
  glLinkProgram(program);
  INFO(program_log(program));
  CHECK(program_int(program, GL_LINK_STATUS) == GL_TRUE);
  glProgramParameteri(program, GL_PROGRAM_BINARY_RETRIEVABLE_HINT, GL_TRUE);
  CHECK(program_int(program, GL_PROGRAM_BINARY_RETRIEVABLE_HINT) == GL_TRUE);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // GL 4.6 §7.3: "An INVALID_ENUM error is generated if pname is not PROGRAM_BINARY_RETRIEVABLE_HINT or
  // PROGRAM_SEPARABLE"; "An INVALID_VALUE error is generated if value is not TRUE or FALSE".
  glProgramParameteri(program, GL_LINK_STATUS, GL_TRUE);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  glProgramParameteri(program, GL_PROGRAM_SEPARABLE, 2);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  // GL 4.6 §7.1: an unknown name is INVALID_VALUE, a shader's name INVALID_OPERATION.
  glProgramParameteri(program + 1000, GL_PROGRAM_SEPARABLE, GL_TRUE);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glProgramParameteri(gs, GL_PROGRAM_SEPARABLE, GL_TRUE);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
}

TEST_CASE("Blocks and atomic counters of a graphics program are referenced by the stages that use them") {
  GlContext gl;
  // GL 4.6 Table 23.57: MAX_<STAGE>_ATOMIC_COUNTERS / _BUFFERS are state of every stage; a stage whose limit is 0
  // cannot declare counters, so a vertex shader with one compiles only where the limit allows it.
  GLint vertex_counters = -1, fragment_buffers = -1;
  glGetIntegerv(GL_MAX_VERTEX_ATOMIC_COUNTERS, &vertex_counters);
  glGetIntegerv(GL_MAX_FRAGMENT_ATOMIC_COUNTER_BUFFERS, &fragment_buffers);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(fragment_buffers >= 1);  // GL 4.6's minimum for the fragment stage
  REQUIRE(vertex_counters >= 1);
  const GLuint vs = shader(GL_VERTEX_SHADER, R"(#version 450
layout(binding = 1) uniform atomic_uint vertices;
out vec4 color;
void main() { atomicCounterIncrement(vertices); gl_Position = vec4(0.0); color = vec4(1.0); }
)");
  const GLuint fs = shader(GL_FRAGMENT_SHADER, R"(#version 450
layout(std140, binding = 2) uniform Tint { vec4 tint; };
in vec4 color;
layout(location = 0) out vec4 frag;
void main() { frag = color * tint; }
)");
  const GLuint program = link({vs, fs});
  INFO(program_log(program));
  REQUIRE(program_int(program, GL_LINK_STATUS) == GL_TRUE);
  // GL 4.6 §7.6.2 Table 7.7: UNIFORM_BLOCK_REFERENCED_BY_<STAGE>_SHADER: whether the stage uses the block.
  const GLuint tint = glGetUniformBlockIndex(program, "Tint");
  REQUIRE(tint != GL_INVALID_INDEX);
  GLint referenced = -1;
  glGetActiveUniformBlockiv(program, tint, GL_UNIFORM_BLOCK_REFERENCED_BY_FRAGMENT_SHADER, &referenced);
  CHECK(referenced == GL_TRUE);
  glGetActiveUniformBlockiv(program, tint, GL_UNIFORM_BLOCK_REFERENCED_BY_VERTEX_SHADER, &referenced);
  CHECK(referenced == GL_FALSE);
  glGetActiveUniformBlockiv(program, tint, GL_UNIFORM_BLOCK_REFERENCED_BY_COMPUTE_SHADER, &referenced);
  CHECK(referenced == GL_FALSE);
  // Table 7.8: the atomic counter buffer of binding 1, used by the vertex stage only.
  CHECK(program_int(program, GL_ACTIVE_ATOMIC_COUNTER_BUFFERS) == 1);
  GLint binding = -1;
  glGetActiveAtomicCounterBufferiv(program, 0, GL_ATOMIC_COUNTER_BUFFER_BINDING, &binding);
  CHECK(binding == 1);
  glGetActiveAtomicCounterBufferiv(program, 0, GL_ATOMIC_COUNTER_BUFFER_REFERENCED_BY_VERTEX_SHADER, &referenced);
  CHECK(referenced == GL_TRUE);
  glGetActiveAtomicCounterBufferiv(program, 0, GL_ATOMIC_COUNTER_BUFFER_REFERENCED_BY_FRAGMENT_SHADER, &referenced);
  CHECK(referenced == GL_FALSE);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}
