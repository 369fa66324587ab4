// Sampler and image uniforms (GLSL 4.60 §4.1.7, GL 4.6 §7.6): what the GL shim needs to know of each — the kind of
// descriptor, the texture target it samples, its sampled type, an image's format layout qualifier (as a GL
// internal format) and memory qualifiers — read from glslang's type of the uniform.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bismuth/translator/gl_program.hpp"

#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/module.hpp"
#include "diagnostics.hpp"

namespace glslang {
class TType;
class TIntermediate;
}  // namespace glslang

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

// glslang keeps `layout(location = N)` of a sampler or image as a Location decoration of its UniformConstant variable,
// which Vulkan forbids (VUID-StandaloneSpirv-Location-06672); the location is GL's alone (the GL shim's
// glGetUniformLocation). Erases such decorations from `module`; true when there were any.
bool drop_opaque_locations(spirv_patch::Module& module);

// The sampler and image declarations of `intermediate` (a parsed shader) the front refuses, one compile error each, at
// the line of `source` (the parsed text, lines as the user's) that declares it (glslang keeps no location on global
// objects):
// - an image `binding` past the image units: GLSL 4.60 §4.4.6, "If the binding is less than zero, or greater than or
//   equal to the implementation-dependent maximum supported number of units, a compile-time error will occur" — for
//   images the units are MAX_IMAGE_UNITS, which glslang 12 does not check (it holds images to the texture units); an
//   array's last element counts;
// - a uniform structure holding a sampler or image: glslang's relaxed Vulkan rules put it in the default uniform
//   block, which Vulkan cannot hold (not supported yet);
// - rectangle samplers and images: SPIR-V's Rect dimension is not allowed in Vulkan;
// - arrays of arrays of samplers or images: Vulkan takes arrays of one dimension of them (not flattened yet).
std::vector<Diagnostic> opaque_declaration_errors(const glslang::TIntermediate& intermediate, std::string_view source,
                                                  std::string_view source_name);

}  // namespace bismuth::translator
