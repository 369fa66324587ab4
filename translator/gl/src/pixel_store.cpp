// glPixelStorei / glPixelStoref (GL 4.6 §8.4.1, OpenGL ES 3.2 §8.4.1): the context's pack and unpack state, which
// texture uploads and reads use (texture_client_data.cpp). The rules are pixel_transfer.cpp's set_pixel_store.
#include <algorithm>
#include <cmath>

#include "pixel_transfer.hpp"
#include "texture_access.hpp"

namespace bismuth::gl {
namespace {

void pixel_store(Context* ctx, GLenum pname, int32_t value, const char* func) {
  // OpenGL ES 3.2 table 8.1 / 16.1 have no SWAP_BYTES or LSB_FIRST.
  if (ctx->version.es && (pname == GL_PACK_SWAP_BYTES || pname == GL_PACK_LSB_FIRST || pname == GL_UNPACK_SWAP_BYTES ||
                          pname == GL_UNPACK_LSB_FIRST)) {
    ctx->set_error(GL_INVALID_ENUM,
                   std::string(func) + ": " + hex(pname) + " is not a pixel storage parameter of OpenGL ES");
    return;
  }
  // Nor the compressed block modes of GL 4.6 table 8.1 (ARB_compressed_texture_pixel_storage).
  if (ctx->version.es && pname >= GL_UNPACK_COMPRESSED_BLOCK_WIDTH && pname <= GL_PACK_COMPRESSED_BLOCK_SIZE) {
    ctx->set_error(GL_INVALID_ENUM,
                   std::string(func) + ": " + hex(pname) + " is not a pixel storage parameter of OpenGL ES");
    return;
  }
  const TransferResult r = set_pixel_store(ctx->pack, ctx->unpack, pname, value);
  if (!r.ok()) ctx->set_error(r.error, std::string(func) + ": " + r.message);
}

}  // namespace
}  // namespace bismuth::gl

using namespace bismuth::gl;

extern "C" {

GLAPI void APIENTRY glPixelStorei(GLenum pname, GLint param) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  pixel_store(ctx, pname, param, "glPixelStorei");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glPixelStoref(GLenum pname, GLfloat param) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  // GL 4.6 §8.4.1: a float for an integer parameter is rounded to the nearest integer; for a boolean parameter,
  // zero is FALSE and anything else TRUE.
  const float clamped = std::isnan(param) ? 0.0f : std::clamp(param, -2147483648.0f, 2147483520.0f);
  const bool flag = pname == GL_PACK_SWAP_BYTES || pname == GL_PACK_LSB_FIRST || pname == GL_UNPACK_SWAP_BYTES ||
                    pname == GL_UNPACK_LSB_FIRST;
  pixel_store(ctx, pname, flag ? (param != 0.0f ? 1 : 0) : static_cast<int32_t>(std::lround(clamped)), "glPixelStoref");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

}  // extern "C"
