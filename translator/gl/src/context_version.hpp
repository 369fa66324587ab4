// The client API and version of a context: which versions an EGL request for OpenGL ES gets, the version strings
// each kind of context reports, and which GLSL #version directives its shaders may declare.
//
// Bismuth offers two kinds of context on the same objects, buffers and dispatch: desktop GL 4.6 (core or
// compatibility profile) and OpenGL ES 3.1 / 3.2 (docs/gl_shim.md, "OpenGL ES contexts").
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gl_internal.hpp"

namespace bismuth::gl {

// The OpenGL ES context an EGL request for ES `major`.`minor` gets; nullopt when Bismuth has none that is
// backwards compatible with it (EGL 1.5 §3.7.1.1: "The context returned must be the specified version, or a later
// version which is backwards compatible with that version"). ES 2.0, 3.0 and 3.1 get ES 3.1 (the first version
// with compute shaders; ES 3.x is backwards compatible with ES 2.0), 3.2 gets 3.2. ES 1.x (fixed function, which
// ES 2.0 and later dropped) and versions past 3.2 get none.
std::optional<ContextVersion> es_context_version(int major, int minor);

// GL_VERSION and GL_SHADING_LANGUAGE_VERSION of a context of `version` on a device named `device_name`:
// "4.6.0 Bismuth <release> (Vulkan: <device>)" and "4.60" for desktop GL; for OpenGL ES the layouts of
// ES 3.2 §20.2: "OpenGL ES <major>.<minor> <vendor-specific information>" and
// "OpenGL ES GLSL ES <major>.<minor><minor digit> <vendor-specific information>".
std::string version_string(const ContextVersion& version, const Caps& caps);
std::string glsl_version_string(const ContextVersion& version);

// The extensions a context of `version` lists: all of the device's for desktop GL; for OpenGL ES those defined for
// OpenGL ES too — the KHR and OES extensions (GL_KHR_debug, ...) — and GL_EXT_buffer_storage (ES's name for
// buffer storage, which desktop GL has in core). The ARB and NV extensions of the desktop list are desktop GL
// extensions (their specs have no OpenGL ES interactions), and what ES 3.1 made core (compute shaders, storage
// buffers, atomic counters) has no extension name in ES.
std::vector<std::string> context_extensions(const ContextVersion& version, const Caps& caps);

// The #version rule of the context's API, checked before the GLSL front compiles a compute shader: an info-log
// line ("0:line(column): error: ...") when the source's #version is one the context does not accept, nullopt when
// it does (or when the front's own rules decide: desktop GLSL versions in a desktop context).
//  * OpenGL ES (GLSL ES 3.20 §3.4): a shader without #version is GLSL ES 1.00; "Any number representing a version
//    of the language a compiler does not support will cause a compile-time error". Compute shaders exist from
//    GLSL ES 3.10 on, so an ES 3.1 context accepts "310 es", an ES 3.2 context "310 es" and "320 es"; desktop
//    GLSL versions are errors.
//  * Desktop GL 4.6 includes ARB_ES3_1_compatibility (core since 4.5): "310 es" compiles; "320 es" needs
//    ARB_ES3_2_compatibility, which Bismuth does not offer.
std::optional<std::string> check_glsl_version(const ContextVersion& version, std::string_view source);

// In an OpenGL ES context, `#extension` directives naming a desktop-only extension (GL_ARB_*, and
// GL_NV_shader_atomic_int64, which needs GL_ARB_gpu_shader_int64) that the context does not list, handled as GLSL ES
// 3.20 §3.4 says for an extension that is not supported: "require ... Give a compile-time error on the #extension",
// "enable ... Warn on the #extension" (warn and disable likewise warn) — the directive is then blanked, so the
// extension stays off. glslang itself accepts these extensions in GLSL ES. Nothing to do in a desktop context.
struct EsExtensionCheck {
  std::optional<std::string> error;  // an info-log error line: the compile fails
  std::string warnings;              // info-log warning lines
  std::optional<std::string> rewritten;  // the source with those directives blanked (lines and columns kept)
};
EsExtensionCheck check_es_extension_directives(const ContextVersion& version, std::string_view source,
                                               const std::vector<std::string>& context_extensions);

}  // namespace bismuth::gl
