// KHR_debug's debug groups and object labels (GL 4.6 §20.6 - §20.9; core in OpenGL ES 3.2, and the glPushDebugGroupKHR
// & co of ES 3.1 ports): each test quotes the rule it checks.
#include <string>

#include "translator/gl/gl_fixture.hpp"

using bismuth::gltest::GlContext;

namespace {

std::vector<bismuth::gltest::DebugRecord> of_type(const GlContext& gl, GLenum type) {
  std::vector<bismuth::gltest::DebugRecord> out;
  for (const auto& m : gl.messages()) {
    if (m.type == type) out.push_back(m);
  }
  return out;
}

std::string object_label(GLenum identifier, GLuint name) {
  char text[64] = {};
  GLsizei length = -1;
  glGetObjectLabel(identifier, name, sizeof text, &length, text);
  REQUIRE(length == static_cast<GLsizei>(std::string(text).size()));
  return text;
}

}  // namespace

TEST_CASE("Debug groups announce their push and pop and keep their own message controls") {
  GlContext gl;
  GLint depth = 0;
  glGetIntegerv(GL_DEBUG_GROUP_STACK_DEPTH, &depth);
  CHECK(depth == 1);  // GL 4.6 §20.6: the default group is always on the stack
  // "PushDebugGroup ... generates a message with type DEBUG_TYPE_PUSH_GROUP ... severity DEBUG_SEVERITY_NOTIFICATION"
  // with the source, id and message given; PopDebugGroup the same with DEBUG_TYPE_POP_GROUP.
  glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 7, -1, "outer");
  glGetIntegerv(GL_DEBUG_GROUP_STACK_DEPTH, &depth);
  CHECK(depth == 2);
  // Message controls set inside a group apply until it is popped: here, application markers are disabled.
  glDebugMessageControl(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_MARKER, GL_DONT_CARE, 0, nullptr, GL_FALSE);
  glDebugMessageInsert(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_MARKER, 1, GL_DEBUG_SEVERITY_NOTIFICATION, -1,
                       "hidden");
  glPopDebugGroup();
  glDebugMessageInsert(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_MARKER, 2, GL_DEBUG_SEVERITY_NOTIFICATION, -1,
                       "shown");
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  const auto pushes = of_type(gl, GL_DEBUG_TYPE_PUSH_GROUP);
  const auto pops = of_type(gl, GL_DEBUG_TYPE_POP_GROUP);
  REQUIRE(pushes.size() == 1);
  REQUIRE(pops.size() == 1);
  CHECK(pushes[0].id == 7);
  CHECK(pushes[0].text == "outer");
  CHECK(pushes[0].severity == GL_DEBUG_SEVERITY_NOTIFICATION);
  CHECK(pops[0].id == 7);
  CHECK(pops[0].text == "outer");
  CHECK(pops[0].source == GL_DEBUG_SOURCE_APPLICATION);
  const auto markers = of_type(gl, GL_DEBUG_TYPE_MARKER);
  REQUIRE(markers.size() == 1);
  CHECK(markers[0].text == "shown");
  // "An error STACK_UNDERFLOW is generated if PopDebugGroup is called when the stack contains only the default
  // group"; a source other than APPLICATION / THIRD_PARTY is INVALID_ENUM.
  glPopDebugGroup();
  CHECK(glGetError() == GL_STACK_UNDERFLOW);
  glPushDebugGroup(GL_DEBUG_SOURCE_API, 1, -1, "api");
  CHECK(glGetError() == GL_INVALID_ENUM);
}

TEST_CASE("The debug group stack overflows at GL_MAX_DEBUG_GROUP_STACK_DEPTH") {
  GlContext gl;
  GLint max_depth = 0;
  glGetIntegerv(GL_MAX_DEBUG_GROUP_STACK_DEPTH, &max_depth);
  CHECK(max_depth >= 64);  // GL 4.6 table 23.71
  for (GLint i = 1; i < max_depth; ++i) glPushDebugGroup(GL_DEBUG_SOURCE_THIRD_PARTY, 0, 1, "g");
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // "An error STACK_OVERFLOW is generated if PushDebugGroup is called and the stack contains
  // MAX_DEBUG_GROUP_STACK_DEPTH minus one elements" (besides the default group there are then max - 1).
  glPushDebugGroup(GL_DEBUG_SOURCE_THIRD_PARTY, 0, 1, "g");
  CHECK(glGetError() == GL_STACK_OVERFLOW);
  GLint depth = 0;
  glGetIntegerv(GL_DEBUG_GROUP_STACK_DEPTH, &depth);
  CHECK(depth == max_depth);
  for (GLint i = 1; i < max_depth; ++i) glPopDebugGroup();
  REQUIRE_GL_ERROR(GL_NO_ERROR);
}

TEST_CASE("Object labels are set, read back, removed, and checked against the object's existence") {
  GlContext gl;
  const GLuint buffer = bismuth::gltest::make_buffer(16);
  const GLuint program = glCreateProgram();
  const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  glObjectLabel(GL_BUFFER, buffer, -1, "particles");
  glObjectLabel(GL_PROGRAM, program, 4, "integrate");  // length 4: "inte"
  glObjectLabel(GL_SHADER, shader, -1, "integrate.comp");
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(object_label(GL_BUFFER, buffer) == "particles");
  CHECK(object_label(GL_PROGRAM, program) == "inte");
  CHECK(object_label(GL_SHADER, shader) == "integrate.comp");
  // GL 4.6 §20.9: "If label is NULL, any debug label is effectively removed from the object."
  glObjectLabel(GL_BUFFER, buffer, 0, nullptr);
  CHECK(object_label(GL_BUFFER, buffer).empty());
  // The label is returned truncated to bufSize - 1 characters; with a NULL label only its length.
  char small[4] = {};
  GLsizei length = 0;
  glGetObjectLabel(GL_SHADER, shader, sizeof small, &length, small);
  CHECK(std::string(small) == "int");
  CHECK(length == 3);
  glGetObjectLabel(GL_SHADER, shader, 0, &length, nullptr);
  CHECK(length == 14);
  // "An INVALID_VALUE error is generated if name is not the name of a valid object of the type specified by
  // identifier" (a program name is not a shader); an identifier that is no object type is INVALID_ENUM.
  glObjectLabel(GL_SHADER, program, -1, "x");
  CHECK(glGetError() == GL_INVALID_VALUE);
  glObjectLabel(GL_TEXTURE, 12345, -1, "x");
  CHECK(glGetError() == GL_INVALID_VALUE);
  glObjectLabel(GL_RGBA, buffer, -1, "x");
  CHECK(glGetError() == GL_INVALID_ENUM);
  // A label of MAX_LABEL_LENGTH characters or more is INVALID_VALUE.
  GLint max_label = 0;
  glGetIntegerv(GL_MAX_LABEL_LENGTH, &max_label);
  CHECK(max_label >= 256);
  const std::string too_long(static_cast<size_t>(max_label), 'a');
  glObjectLabel(GL_PROGRAM, program, -1, too_long.c_str());
  CHECK(glGetError() == GL_INVALID_VALUE);
  glDeleteShader(shader);
  glDeleteProgram(program);
  glDeleteBuffers(1, &buffer);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("Sync objects take pointer labels") {
  GlContext gl;
  GLsync sync = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  glObjectPtrLabel(sync, -1, "frame fence");
  char text[32] = {};
  GLsizei length = 0;
  glGetObjectPtrLabel(sync, sizeof text, &length, text);
  CHECK(std::string(text) == "frame fence");
  CHECK(length == 11);
  glDeleteSync(sync);
  // GL 4.6 §20.9: "An INVALID_VALUE error is generated if ptr is not the name of a sync object."
  glObjectPtrLabel(sync, -1, "gone");
  CHECK(glGetError() == GL_INVALID_VALUE);
}
