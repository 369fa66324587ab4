// Texture and sampler parameter rules (GL 4.6 §8.10, §8.2; OpenGL ES 3.2 §8.10): texture_parameter_rules.hpp,
// which glTexParameter*, glTextureParameter* and glSamplerParameter* share.
#include <catch2/catch.hpp>

#include "texture_parameter_rules.hpp"

using namespace bismuth::gl;

namespace {

ParamError set_i(GLenum target, TextureObject* t, SamplerState& s, GLenum pname, GLint v, bool es = false) {
  return set_parameter(ParamTarget{target, es}, t, s, pname, ParamInput{ParamKind::Int, false, &v});
}

}  // namespace

TEST_CASE("filters, wrap modes and compare state take only their enums (GL 4.6 §8.10, table 8.16)", "[params]") {
  TextureObject t;
  t.target = GL_TEXTURE_2D;
  CHECK(set_i(GL_TEXTURE_2D, &t, t.sampler, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_NEAREST).ok());
  CHECK(t.sampler.min_filter == GL_LINEAR_MIPMAP_NEAREST);
  CHECK(set_i(GL_TEXTURE_2D, &t, t.sampler, GL_TEXTURE_MAG_FILTER, GL_LINEAR_MIPMAP_NEAREST).error == GL_INVALID_ENUM);
  CHECK(set_i(GL_TEXTURE_2D, &t, t.sampler, GL_TEXTURE_WRAP_R, GL_MIRROR_CLAMP_TO_EDGE).ok());
  // OpenGL ES 3.2 has no MIRROR_CLAMP_TO_EDGE.
  CHECK(set_i(GL_TEXTURE_2D, &t, t.sampler, GL_TEXTURE_WRAP_R, GL_MIRROR_CLAMP_TO_EDGE, true).error == GL_INVALID_ENUM);
  CHECK(set_i(GL_TEXTURE_2D, &t, t.sampler, GL_TEXTURE_WRAP_S, GL_NEAREST).error == GL_INVALID_ENUM);
  CHECK(set_i(GL_TEXTURE_2D, &t, t.sampler, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE).ok());
  CHECK(set_i(GL_TEXTURE_2D, &t, t.sampler, GL_TEXTURE_COMPARE_FUNC, GL_GEQUAL).ok());
  CHECK(set_i(GL_TEXTURE_2D, &t, t.sampler, GL_TEXTURE_COMPARE_FUNC, GL_ONE).error == GL_INVALID_ENUM);
  // A float form holding an enum value is that enum.
  const GLfloat linear = static_cast<GLfloat>(GL_LINEAR);
  CHECK(set_parameter(ParamTarget{GL_TEXTURE_2D, false}, &t, t.sampler, GL_TEXTURE_MAG_FILTER,
                      ParamInput{ParamKind::Float, false, &linear})
            .ok());
}

TEST_CASE("rectangle and multisample targets restrict their parameters (GL 4.6 §8.10)", "[params]") {
  TextureObject t;
  t.target = GL_TEXTURE_RECTANGLE;
  // "If the effective target is TEXTURE_RECTANGLE and ... TEXTURE_WRAP_S or TEXTURE_WRAP_T is set to either
  // MIRROR_CLAMP_TO_EDGE, MIRRORED_REPEAT or REPEAT, an INVALID_ENUM error is generated"; likewise a min filter
  // other than NEAREST or LINEAR; BASE_LEVEL other than zero is INVALID_OPERATION.
  CHECK(set_i(GL_TEXTURE_RECTANGLE, &t, t.sampler, GL_TEXTURE_WRAP_S, GL_REPEAT).error == GL_INVALID_ENUM);
  CHECK(set_i(GL_TEXTURE_RECTANGLE, &t, t.sampler, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_BORDER).ok());
  CHECK(set_i(GL_TEXTURE_RECTANGLE, &t, t.sampler, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST).error ==
        GL_INVALID_ENUM);
  CHECK(set_i(GL_TEXTURE_RECTANGLE, &t, t.sampler, GL_TEXTURE_BASE_LEVEL, 1).error == GL_INVALID_OPERATION);
  CHECK(set_i(GL_TEXTURE_RECTANGLE, &t, t.sampler, GL_TEXTURE_BASE_LEVEL, 0).ok());
  // "An INVALID_ENUM error is generated if the effective target is either TEXTURE_2D_MULTISAMPLE or
  // TEXTURE_2D_MULTISAMPLE_ARRAY, and pname is any sampler state from table 23.18."
  t.target = GL_TEXTURE_2D_MULTISAMPLE;
  CHECK(set_i(GL_TEXTURE_2D_MULTISAMPLE, &t, t.sampler, GL_TEXTURE_MAG_FILTER, GL_NEAREST).error == GL_INVALID_ENUM);
  CHECK(set_i(GL_TEXTURE_2D_MULTISAMPLE, &t, t.sampler, GL_TEXTURE_MAX_LEVEL, 0).ok());
}

TEST_CASE("levels, swizzles, anisotropy and the vector-only parameters (GL 4.6 §8.10)", "[params]") {
  TextureObject t;
  t.target = GL_TEXTURE_2D;
  // "An INVALID_VALUE error is generated if pname is TEXTURE_BASE_LEVEL or TEXTURE_MAX_LEVEL, and param or params
  // is negative."
  CHECK(set_i(GL_TEXTURE_2D, &t, t.sampler, GL_TEXTURE_BASE_LEVEL, -1).error == GL_INVALID_VALUE);
  CHECK(set_i(GL_TEXTURE_2D, &t, t.sampler, GL_TEXTURE_MAX_LEVEL, 3).ok());
  CHECK(t.max_level == 3);
  CHECK(set_i(GL_TEXTURE_2D, &t, t.sampler, GL_TEXTURE_SWIZZLE_G, GL_ZERO).ok());
  CHECK(t.swizzle[1] == GL_ZERO);
  CHECK(set_i(GL_TEXTURE_2D, &t, t.sampler, GL_TEXTURE_SWIZZLE_G, GL_RGBA).error == GL_INVALID_ENUM);
  // BORDER_COLOR and SWIZZLE_RGBA through a scalar form: INVALID_ENUM.
  CHECK(set_i(GL_TEXTURE_2D, &t, t.sampler, GL_TEXTURE_BORDER_COLOR, 0).error == GL_INVALID_ENUM);
  CHECK(set_i(GL_TEXTURE_2D, &t, t.sampler, GL_TEXTURE_SWIZZLE_RGBA, GL_RED).error == GL_INVALID_ENUM);
  const GLint swizzle[4] = {GL_ALPHA, GL_BLUE, GL_GREEN, GL_RED};
  CHECK(set_parameter(ParamTarget{GL_TEXTURE_2D, false}, &t, t.sampler, GL_TEXTURE_SWIZZLE_RGBA,
                      ParamInput{ParamKind::Int, true, swizzle})
            .ok());
  CHECK(t.swizzle[0] == GL_ALPHA);
  // "An INVALID_VALUE error is generated if pname is TEXTURE_MAX_ANISOTROPY and param is less than 1.0."
  const GLfloat half = 0.5f;
  CHECK(set_parameter(ParamTarget{GL_TEXTURE_2D, false}, &t, t.sampler, GL_TEXTURE_MAX_ANISOTROPY,
                      ParamInput{ParamKind::Float, false, &half})
            .error == GL_INVALID_VALUE);
  // OpenGL ES has no LOD_BIAS texture parameter.
  CHECK(set_i(GL_TEXTURE_2D, &t, t.sampler, GL_TEXTURE_LOD_BIAS, 1, true).error == GL_INVALID_ENUM);
}

TEST_CASE("border colours keep their form: float, normalized *iv, integer *Iiv (GL 4.6 §8.10, §2.2.2)", "[params]") {
  SamplerState s;
  const GLint normalized[4] = {2147483647, 0, -2147483647, 1073741824};
  REQUIRE(
      set_parameter(ParamTarget{}, nullptr, s, GL_TEXTURE_BORDER_COLOR, ParamInput{ParamKind::Int, true, normalized})
          .ok());
  CHECK(s.border_color[0] == 1.0f);
  CHECK(s.border_color[2] == -1.0f);
  CHECK(s.border_color[3] == Approx(0.5f));
  ParamOutput out;
  REQUIRE(get_parameter(ParamTarget{}, nullptr, s, GL_TEXTURE_BORDER_COLOR, out).ok());
  GLfloat f[4];
  write_parameter(out, ParamKind::Float, f);
  CHECK(f[3] == Approx(0.5f));
  const GLuint integers[4] = {7, 4000000000u, 0, 1};
  REQUIRE(
      set_parameter(ParamTarget{}, nullptr, s, GL_TEXTURE_BORDER_COLOR, ParamInput{ParamKind::IUint, true, integers})
          .ok());
  REQUIRE(get_parameter(ParamTarget{}, nullptr, s, GL_TEXTURE_BORDER_COLOR, out).ok());
  GLuint u[4];
  write_parameter(out, ParamKind::IUint, u);
  CHECK(u[0] == 7u);
  CHECK(u[1] == 4000000000u);
}

TEST_CASE("sampler objects have the sampler state of table 23.18 only (GL 4.6 §8.2)", "[params]") {
  SamplerState s;
  GLint v = 1;
  CHECK(set_parameter(ParamTarget{}, nullptr, s, GL_TEXTURE_BASE_LEVEL, ParamInput{ParamKind::Int, false, &v}).error ==
        GL_INVALID_ENUM);
  ParamOutput out;
  CHECK(get_parameter(ParamTarget{}, nullptr, s, GL_TEXTURE_IMMUTABLE_FORMAT, out).error == GL_INVALID_ENUM);
  CHECK(get_parameter(ParamTarget{}, nullptr, s, GL_TEXTURE_MIN_FILTER, out).ok());
  CHECK(out.values[0] == GL_NEAREST_MIPMAP_LINEAR);  // table 23.18's initial value
}
