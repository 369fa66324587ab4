// The rules of texture and sampler parameters shared by glTexParameter*, glTextureParameter* (texture_parameters.cpp)
// and glSamplerParameter* (sampler_objects.cpp): GL 4.6 §8.10 and §8.2, OpenGL ES 3.2 §8.10 and §8.2. Pure: the
// caller reports the returned error with the call's name.
#pragma once

#include <GL/glcorearb.h>

#include <cstdint>
#include <string>

#include "textures.hpp"

namespace bismuth::gl {

// One glXParameter* call's value(s), as the application passed them.
enum class ParamKind : uint8_t {
  Int,    // *i, *iv
  Float,  // *f, *fv
  IInt,   // *Iiv: integer border colours stay integers
  IUint,  // *Iuiv
};
struct ParamInput {
  ParamKind kind = ParamKind::Int;
  bool vector = false;  // *v forms: BORDER_COLOR and SWIZZLE_RGBA take four values, only through them
  const void* values = nullptr;
};

struct ParamError {
  GLenum error = GL_NO_ERROR;
  std::string message;
  bool ok() const { return error == GL_NO_ERROR; }
};

// Where a parameter call applies: a texture of `target` (or a sampler object: target GL_NONE, only the sampler
// state of table 23.18), in a desktop or OpenGL ES context.
struct ParamTarget {
  GLenum target = GL_NONE;
  bool es = false;
};

// Sets `pname` of a texture (`texture` non-null) or of a sampler state.
ParamError set_parameter(const ParamTarget& where, TextureObject* texture, SamplerState& sampler, GLenum pname,
                         const ParamInput& input);

// The value(s) of `pname` as doubles (enums as their values), with whether the query's integer forms convert them
// as colours (BORDER_COLOR through *iv: signed normalized) and how many there are. `texture` null: a sampler.
struct ParamOutput {
  double values[4] = {};
  uint32_t integer_border[4] = {};  // BORDER_COLOR for *Iiv / *Iuiv
  int count = 0;
  bool color = false;
};
ParamError get_parameter(const ParamTarget& where, const TextureObject* texture, const SamplerState& sampler,
                         GLenum pname, ParamOutput& out);

// Writes `out` in the query's type (GL 4.6 §2.2.2's conversions: floats to integers round to nearest; colours to
// *iv as signed normalized).
void write_parameter(const ParamOutput& out, ParamKind kind, void* params);

}  // namespace bismuth::gl
