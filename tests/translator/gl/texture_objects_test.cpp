// Texture objects, texture units, sampler objects and image units through the GL API (GL 4.6 §8.1, §8.2, §8.26):
// names, binding rules, deletion while bound, and the state queries of each.
#include <string>
#include <vector>

#include "translator/gl/gl_fixture.hpp"

using namespace bismuth::gltest;

namespace {

GLint get_int(GLenum pname) {
  GLint v = -1;
  glGetIntegerv(pname, &v);
  return v;
}

GLint get_indexed(GLenum pname, GLuint index) {
  GLint v = -1;
  glGetIntegeri_v(pname, index, &v);
  return v;
}

// MAX_COMBINED_TEXTURE_IMAGE_UNITS (reported by the state queries of the texture-unit limits); the GL 4.6 minimum,
// 80, where this build does not report it yet — every unit below 80 exists in any GL 4.6 implementation.
GLint combined_units(bool* known) {
  GLint v = 0;
  glGetIntegerv(GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS, &v);
  *known = glGetError() == GL_NO_ERROR;
  return *known ? v : 80;
}

GLuint storage_2d(GLenum format, GLsizei levels, GLsizei w, GLsizei h) {
  GLuint t = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &t);
  glTextureStorage2D(t, levels, format, w, h);
  return t;
}

}  // namespace

TEST_CASE("glGenTextures names become objects when first bound, which fixes their target (GL 4.6 §8.1)", "[textures]") {
  GlContext gl;
  GLuint names[2] = {};
  glGenTextures(2, names);
  REQUIRE(names[0] != 0);
  // "The name is not yet an object": IsTexture is FALSE until it is bound.
  CHECK(glIsTexture(names[0]) == GL_FALSE);
  glBindTexture(GL_TEXTURE_3D, names[0]);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(glIsTexture(names[0]) == GL_TRUE);
  CHECK(get_int(GL_TEXTURE_BINDING_3D) == static_cast<GLint>(names[0]));
  // "An INVALID_OPERATION error is generated if an attempt is made to bind a texture object of a different
  // target to the specified target."
  glBindTexture(GL_TEXTURE_2D, names[0]);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  CHECK(get_int(GL_TEXTURE_BINDING_2D) == 0);
  // "An INVALID_OPERATION error is generated if texture is not zero or a name returned from a previous call to
  // GenTextures, or if such a name has since been deleted."
  glBindTexture(GL_TEXTURE_2D, 12345);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glDeleteTextures(1, &names[1]);
  glBindTexture(GL_TEXTURE_2D, names[1]);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glBindTexture(GL_TEXTURE_2D, 0);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // An invalid target is INVALID_ENUM (a cube map face is not a binding target).
  glBindTexture(GL_TEXTURE_CUBE_MAP_POSITIVE_X, names[0]);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  glGenTextures(-1, names);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glDeleteTextures(1, names);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("glCreateTextures makes objects of its target at once (GL 4.6 §8.1)", "[textures]") {
  GlContext gl;
  const GLenum targets[] = {GL_TEXTURE_1D,
                            GL_TEXTURE_2D,
                            GL_TEXTURE_3D,
                            GL_TEXTURE_1D_ARRAY,
                            GL_TEXTURE_2D_ARRAY,
                            GL_TEXTURE_RECTANGLE,
                            GL_TEXTURE_CUBE_MAP,
                            GL_TEXTURE_CUBE_MAP_ARRAY,
                            GL_TEXTURE_BUFFER,
                            GL_TEXTURE_2D_MULTISAMPLE,
                            GL_TEXTURE_2D_MULTISAMPLE_ARRAY};
  for (GLenum target : targets) {
    GLuint t = 0;
    glCreateTextures(target, 1, &t);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    CHECK(glIsTexture(t) == GL_TRUE);
    GLint got = 0;
    glGetTextureParameteriv(t, GL_TEXTURE_TARGET, &got);
    CHECK(got == static_cast<GLint>(target));
    glDeleteTextures(1, &t);
  }
  GLuint t = 0;
  glCreateTextures(GL_TEXTURE_CUBE_MAP_POSITIVE_X, 1, &t);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("texture units: glActiveTexture, glBindTextureUnit and glBindTextures (GL 4.6 §8.1)", "[textures]") {
  GlContext gl;
  bool known = false;
  const GLint units = combined_units(&known);
  REQUIRE(units >= 80);  // GL 4.6 table 23.67 minimum
  CHECK(get_int(GL_ACTIVE_TEXTURE) == GL_TEXTURE0);
  GLuint a = 0, b = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &a);
  glCreateTextures(GL_TEXTURE_3D, 1, &b);
  glActiveTexture(GL_TEXTURE0 + 5);
  CHECK(get_int(GL_ACTIVE_TEXTURE) == GL_TEXTURE0 + 5);
  glBindTexture(GL_TEXTURE_2D, a);
  CHECK(get_int(GL_TEXTURE_BINDING_2D) == static_cast<GLint>(a));
  glActiveTexture(GL_TEXTURE0);
  CHECK(get_int(GL_TEXTURE_BINDING_2D) == 0);
  CHECK(get_indexed(GL_TEXTURE_BINDING_2D, 5) == static_cast<GLint>(a));
  // "An INVALID_ENUM error is generated if an invalid texture is specified."
  if (known) {
    glActiveTexture(GL_TEXTURE0 + static_cast<GLenum>(units));
    REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  }
  // BindTextureUnit binds to the texture's own target.
  glBindTextureUnit(7, b);
  CHECK(get_indexed(GL_TEXTURE_BINDING_3D, 7) == static_cast<GLint>(b));
  if (known) {
    glBindTextureUnit(static_cast<GLuint>(units), b);
    REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  }
  glBindTextureUnit(7, 9999);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // BindTextureUnit(unit, 0) resets every target of the unit.
  glBindTextureUnit(7, 0);
  CHECK(get_indexed(GL_TEXTURE_BINDING_3D, 7) == 0);
  // BindTextures: a bad name fails for its unit only; the others are bound.
  const GLuint list[3] = {a, 9999, b};
  glBindTextures(10, 3, list);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  CHECK(get_indexed(GL_TEXTURE_BINDING_2D, 10) == static_cast<GLint>(a));
  CHECK(get_indexed(GL_TEXTURE_BINDING_3D, 12) == static_cast<GLint>(b));
  if (known) {
    glBindTextures(static_cast<GLuint>(units) - 1, 2, list);
    REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  }
  glBindTextures(10, 3, nullptr);  // NULL: unbind every target of the units
  CHECK(get_indexed(GL_TEXTURE_BINDING_2D, 10) == 0);
  glDeleteTextures(1, &a);
  glDeleteTextures(1, &b);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE(
    "deleting a texture unbinds it from the texture units and image units of the context (GL 4.6 §8.1, "
    "§8.26)",
    "[textures]") {
  GlContext gl;
  const GLuint t = storage_2d(GL_RGBA8, 1, 4, 4);
  glBindTextureUnit(3, t);
  glActiveTexture(GL_TEXTURE3);
  CHECK(get_int(GL_TEXTURE_BINDING_2D) == static_cast<GLint>(t));
  glBindImageTexture(2, t, 0, GL_FALSE, 0, GL_READ_WRITE, GL_RGBA8);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(get_indexed(GL_IMAGE_BINDING_NAME, 2) == static_cast<GLint>(t));
  glDeleteTextures(1, &t);
  CHECK(get_int(GL_TEXTURE_BINDING_2D) == 0);
  CHECK(get_indexed(GL_IMAGE_BINDING_NAME, 2) == 0);
  CHECK(get_indexed(GL_IMAGE_BINDING_FORMAT, 2) == GL_R8);  // reset to the initial state (table 23.45)
  CHECK(glIsTexture(t) == GL_FALSE);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("glBindImageTexture records the binding and checks its arguments (GL 4.6 §8.26)", "[images]") {
  GlContext gl;
  CHECK(get_int(GL_MAX_IMAGE_UNITS) >= 8);
  const GLuint t = storage_2d(GL_RGBA32F, 2, 8, 8);
  glBindImageTexture(1, t, 1, GL_TRUE, 0, GL_WRITE_ONLY, GL_RGBA32UI);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(get_indexed(GL_IMAGE_BINDING_NAME, 1) == static_cast<GLint>(t));
  CHECK(get_indexed(GL_IMAGE_BINDING_LEVEL, 1) == 1);
  CHECK(get_indexed(GL_IMAGE_BINDING_LAYERED, 1) == GL_TRUE);
  CHECK(get_indexed(GL_IMAGE_BINDING_ACCESS, 1) == GL_WRITE_ONLY);
  CHECK(get_indexed(GL_IMAGE_BINDING_FORMAT, 1) == GL_RGBA32UI);
  const GLuint units = static_cast<GLuint>(get_int(GL_MAX_IMAGE_UNITS));
  // "An INVALID_VALUE error is generated if unit is greater than or equal to the value of MAX_IMAGE_UNITS, if
  // texture is not the name of an existing texture object, or if level or layer is negative."
  glBindImageTexture(units, t, 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA32F);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glBindImageTexture(0, 4242, 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA32F);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glBindImageTexture(0, t, -1, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA32F);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glBindImageTexture(0, t, 0, GL_FALSE, -1, GL_READ_ONLY, GL_RGBA32F);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  // "An INVALID_ENUM error is generated if access is not READ_ONLY, WRITE_ONLY, or READ_WRITE"; "An INVALID_VALUE
  // error is generated if format is not one of the formats listed in table 8.26" (RGB8 is not).
  glBindImageTexture(0, t, 0, GL_FALSE, 0, GL_RGBA, GL_RGBA32F);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  glBindImageTexture(0, t, 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGB8);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  // glBindImageTextures: level 0, layered, READ_WRITE, the texture's internal format.
  const GLuint list[2] = {t, 0};
  glBindImageTextures(3, 2, list);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(get_indexed(GL_IMAGE_BINDING_NAME, 3) == static_cast<GLint>(t));
  CHECK(get_indexed(GL_IMAGE_BINDING_FORMAT, 3) == GL_RGBA32F);
  CHECK(get_indexed(GL_IMAGE_BINDING_ACCESS, 3) == GL_READ_WRITE);
  CHECK(get_indexed(GL_IMAGE_BINDING_LAYERED, 3) == GL_TRUE);
  glBindImageTextures(units - 1, 2, list);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glDeleteTextures(1, &t);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("sampler objects: names, unit bindings, parameters and deletion (GL 4.6 §8.2)", "[samplers]") {
  GlContext gl;
  GLuint s[2] = {};
  glGenSamplers(2, s);
  CHECK(glIsSampler(s[0]) == GL_TRUE);
  glBindSampler(4, s[0]);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(get_indexed(GL_SAMPLER_BINDING, 4) == static_cast<GLint>(s[0]));
  glActiveTexture(GL_TEXTURE4);
  CHECK(get_int(GL_SAMPLER_BINDING) == static_cast<GLint>(s[0]));
  glBindSampler(4, 777);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  bool known = false;
  const GLint units = combined_units(&known);
  if (known) {
    glBindSampler(static_cast<GLuint>(units), s[0]);
    REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  }
  glSamplerParameteri(s[0], GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glSamplerParameterf(s[0], GL_TEXTURE_MAX_LOD, 4.5f);
  const GLfloat border[4] = {0.25f, 0.5f, 0.75f, 1.0f};
  glSamplerParameterfv(s[0], GL_TEXTURE_BORDER_COLOR, border);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  GLint filter = 0;
  glGetSamplerParameteriv(s[0], GL_TEXTURE_MIN_FILTER, &filter);
  CHECK(filter == GL_LINEAR);
  GLfloat lod = 0, got_border[4] = {};
  glGetSamplerParameterfv(s[0], GL_TEXTURE_MAX_LOD, &lod);
  glGetSamplerParameterfv(s[0], GL_TEXTURE_BORDER_COLOR, got_border);
  CHECK(lod == 4.5f);
  CHECK(got_border[2] == 0.75f);
  // Texture-only state is not sampler state: INVALID_ENUM.
  glSamplerParameteri(s[0], GL_TEXTURE_BASE_LEVEL, 1);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  glSamplerParameteri(999, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // BindSamplers: per-unit failures, and NULL unbinds.
  const GLuint list[2] = {s[1], 999};
  glBindSamplers(0, 2, list);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  CHECK(get_indexed(GL_SAMPLER_BINDING, 0) == static_cast<GLint>(s[1]));
  // "If a sampler object that is currently bound to one or more texture units is deleted, it is as though
  // BindSampler is called once for each texture unit to which the sampler is bound ... with sampler set to zero."
  glDeleteSamplers(2, s);
  CHECK(get_indexed(GL_SAMPLER_BINDING, 4) == 0);
  CHECK(get_indexed(GL_SAMPLER_BINDING, 0) == 0);
  CHECK(glIsSampler(s[0]) == GL_FALSE);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("texture parameters and their queries (GL 4.6 §8.10, §8.11.2, table 23.16)", "[textures]") {
  GlContext gl;
  GLuint t = 0;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_2D, t);
  GLint v = 0;
  // Initial values.
  glGetTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, &v);
  CHECK(v == GL_NEAREST_MIPMAP_LINEAR);
  glGetTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, &v);
  CHECK(v == 1000);
  glGetTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_IMMUTABLE_FORMAT, &v);
  CHECK(v == GL_FALSE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_MIRRORED_REPEAT);
  glTexParameterf(GL_TEXTURE_2D, GL_TEXTURE_LOD_BIAS, 1.5f);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glGetTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, &v);
  CHECK(v == GL_MIRRORED_REPEAT);
  GLfloat f = 0;
  glGetTexParameterfv(GL_TEXTURE_2D, GL_TEXTURE_LOD_BIAS, &f);
  CHECK(f == 1.5f);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_LINEAR);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  glTexParameteri(GL_TEXTURE_BUFFER, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  // Rectangle textures start with LINEAR and CLAMP_TO_EDGE (table 23.16).
  GLuint r = 0;
  glCreateTextures(GL_TEXTURE_RECTANGLE, 1, &r);
  glGetTextureParameteriv(r, GL_TEXTURE_MIN_FILTER, &v);
  CHECK(v == GL_LINEAR);
  glGetTextureParameteriv(r, GL_TEXTURE_WRAP_T, &v);
  CHECK(v == GL_CLAMP_TO_EDGE);
  // Immutable storage: IMMUTABLE_FORMAT and IMMUTABLE_LEVELS (§8.19).
  const GLuint s = storage_2d(GL_RG16F, 3, 8, 8);
  glGetTextureParameteriv(s, GL_TEXTURE_IMMUTABLE_FORMAT, &v);
  CHECK(v == GL_TRUE);
  glGetTextureParameteriv(s, GL_TEXTURE_IMMUTABLE_LEVELS, &v);
  CHECK(v == 3);
  glGetTextureParameteriv(s, GL_IMAGE_FORMAT_COMPATIBILITY_TYPE, &v);
  CHECK(v == GL_IMAGE_FORMAT_COMPATIBILITY_BY_SIZE);
  glGetTextureParameteriv(4321, GL_TEXTURE_MIN_FILTER, &v);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  GLuint all[3] = {t, r, s};
  glDeleteTextures(3, all);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("level parameters describe each level's image (GL 4.6 §8.11.3, table 23.17)", "[textures]") {
  GlContext gl;
  const GLuint t = storage_2d(GL_RGB10_A2, 3, 16, 8);
  GLint v = 0;
  glGetTextureLevelParameteriv(t, 2, GL_TEXTURE_WIDTH, &v);
  CHECK(v == 4);
  glGetTextureLevelParameteriv(t, 2, GL_TEXTURE_HEIGHT, &v);
  CHECK(v == 2);
  glGetTextureLevelParameteriv(t, 0, GL_TEXTURE_INTERNAL_FORMAT, &v);
  CHECK(v == GL_RGB10_A2);
  glGetTextureLevelParameteriv(t, 0, GL_TEXTURE_RED_SIZE, &v);
  CHECK(v == 10);
  glGetTextureLevelParameteriv(t, 0, GL_TEXTURE_ALPHA_SIZE, &v);
  CHECK(v == 2);
  glGetTextureLevelParameteriv(t, 0, GL_TEXTURE_RED_TYPE, &v);
  CHECK(v == GL_UNSIGNED_NORMALIZED);
  glGetTextureLevelParameteriv(t, 0, GL_TEXTURE_COMPRESSED, &v);
  CHECK(v == GL_FALSE);
  // A level with no image: zero sizes (table 23.17's initial values).
  glGetTextureLevelParameteriv(t, 5, GL_TEXTURE_WIDTH, &v);
  CHECK(v == 0);
  glGetTextureLevelParameteriv(t, -1, GL_TEXTURE_WIDTH, &v);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glGetTextureLevelParameteriv(t, 0, GL_TEXTURE_COMPRESSED_IMAGE_SIZE, &v);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  GLuint i = 0;
  glCreateTextures(GL_TEXTURE_2D_ARRAY, 1, &i);
  glTextureStorage3D(i, 1, GL_RGBA16I, 4, 4, 3);
  glGetTextureLevelParameteriv(i, 0, GL_TEXTURE_DEPTH, &v);
  CHECK(v == 3);
  glGetTextureLevelParameteriv(i, 0, GL_TEXTURE_GREEN_TYPE, &v);
  CHECK(v == GL_INT);
  glDeleteTextures(1, &t);
  glDeleteTextures(1, &i);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("texture limits are at least GL 4.6's minimums (table 23.53)", "[textures]") {
  GlContext gl;
  // GL 4.6 table 23.53: MAX_TEXTURE_SIZE 16384, MAX_3D_TEXTURE_SIZE 2048, MAX_ARRAY_TEXTURE_LAYERS 2048,
  // MAX_CUBE_MAP_TEXTURE_SIZE 16384, MAX_RECTANGLE_TEXTURE_SIZE 16384, MAX_TEXTURE_BUFFER_SIZE 65536 (table
  // 23.64), MAX_TEXTURE_LOD_BIAS 2.0; TEXTURE_BUFFER_OFFSET_ALIGNMENT at most 256. A device below them
  // reports its own (docs/gl_shim.md "Textures"): lavapipe and the H100 are not below.
  CHECK(get_int(GL_MAX_TEXTURE_SIZE) >= 16384);
  CHECK(get_int(GL_MAX_3D_TEXTURE_SIZE) >= 2048);
  CHECK(get_int(GL_MAX_ARRAY_TEXTURE_LAYERS) >= 2048);
  CHECK(get_int(GL_MAX_CUBE_MAP_TEXTURE_SIZE) >= 16384);
  CHECK(get_int(GL_MAX_RECTANGLE_TEXTURE_SIZE) >= 16384);
  CHECK(get_int(GL_MAX_TEXTURE_BUFFER_SIZE) >= 65536);
  CHECK(get_int(GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT) <= 256);
  GLfloat bias = 0;
  glGetFloatv(GL_MAX_TEXTURE_LOD_BIAS, &bias);
  CHECK(bias >= 2.0f);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("OpenGL ES 3.2 contexts: ES targets, table 8.2 combinations, immutable image bindings", "[textures][es]") {
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
        if (id == kValidationMessageId) {
          static_cast<std::vector<std::string>*>(const_cast<void*>(user))
              ->emplace_back(message, static_cast<size_t>(length));
        }
      },
      &validation);
  // OpenGL ES 3.2 §8.1: no 1D, 1D-array or rectangle textures.
  GLuint t = 0;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_1D, t);
  CHECK(glGetError() == GL_INVALID_ENUM);
  glBindTexture(GL_TEXTURE_2D, t);
  CHECK(glGetError() == GL_NO_ERROR);
  // ES 3.2 §8.5: "An INVALID_OPERATION error is generated if the combination of internalformat, format and type is
  // not one of those in table 8.2" (RGBA8 takes RGBA/UNSIGNED_BYTE only).
  const float pixel[4] = {};
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_FLOAT, pixel);
  CHECK(glGetError() == GL_INVALID_OPERATION);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixel);
  CHECK(glGetError() == GL_NO_ERROR);
  // ES 3.2 §8.23: "An INVALID_OPERATION error is generated if texture is not the name of an immutable texture
  // object."
  glBindImageTexture(0, t, 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA8);
  CHECK(glGetError() == GL_INVALID_OPERATION);
  GLuint immutable = 0;
  glGenTextures(1, &immutable);
  glBindTexture(GL_TEXTURE_2D, immutable);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 2, 2);
  glBindImageTexture(0, immutable, 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA8);
  CHECK(glGetError() == GL_NO_ERROR);
  // ES image formats are table 8.27's: RG32F is a desktop-only image format.
  glBindImageTexture(0, immutable, 0, GL_FALSE, 0, GL_READ_ONLY, GL_RG32F);
  CHECK(glGetError() == GL_INVALID_VALUE);
  glDeleteTextures(1, &t);
  glDeleteTextures(1, &immutable);
  CHECK(validation.empty());
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(display, context);
}
