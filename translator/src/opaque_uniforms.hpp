// Sampler and image uniforms (GLSL 4.60 §4.1.7, GL 4.6 §7.6): what the GL shim needs to know of each — the kind of
// descriptor, the texture target it samples, its sampled type, an image's format layout qualifier (as a GL
// internal format) and memory qualifiers — read from glslang's type of the uniform.
#pragma once

#include <optional>
#include <string>

#include "bismuth/translator/gl_program.hpp"

namespace glslang {
class TType;
}

namespace bismuth::translator {

// The facts of a sampler or image type; nullopt for any other type (and for Vulkan GLSL's separate textures and
// samplers, which GL's GLSL does not have). `resource` and `declared_binding` are left for the link to fill.
std::optional<GlOpaqueInfo> opaque_info(const glslang::TType& type);

// The link error of a program whose active samplers use more texture image units than
// MAX_COMPUTE_TEXTURE_IMAGE_UNITS, or whose active images more than MAX_COMPUTE_IMAGE_UNIFORMS (GL 4.6 §7.6: "If the
// amount of storage for default uniform block[s] ... or the number of ... samplers or images ... exceeds the
// implementation-dependent limits, the program will fail to link"; each element of an array counts); nullopt when
// within them.
std::optional<std::string> opaque_limit_error(const GlLinkedProgram& linked);

}  // namespace bismuth::translator
