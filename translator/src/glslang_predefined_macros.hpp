// glslang's predefined macros (GL_ES, GL_core_profile, VULKAN, GL_SPIRV and one `#define GL_xxx 1` per extension
// the shader's version, profile and environment offer) defined in a parse's TPpContext from a process-wide cache,
// instead of preprocessing their text again for every shader.
//
// TShader::parse hands the preprocessor the text TParseVersions::getPreamble makes (some 130 #define lines for a
// GLSL 4.50 compute shader) ahead of the shader's own strings; tokenizing it was about half of what a
// cached-built-in parse of a small shader still cost (docs/performance.md "A cheap front end"). The first parse with a
// given preamble text preprocesses it once, on a scratch preprocessor, and keeps each macro's name and replacement
// tokens; later parses with the same text define the same macros directly, in the order glslang would, so each name
// gets the atom it gets in TShader::parse and the macro table is the one the text would have built.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <glslang/Include/ShHandle.h>
#include <glslang/MachineIndependent/preprocessor/PpContext.h>

namespace bismuth::translator {

// The parse settings a scratch preprocessor for `preamble` is set up with (the parse's own).
struct PredefinedMacroContext {
  int version = 0;
  EProfile profile = ENoProfile;
  glslang::SpvVersion spv;
  EShLanguage stage = EShLangVertex;
};

// Defines the macros of `preamble` (the text TParseVersions::getPreamble made for this parse) in `pp`, which must
// be a fresh preprocessor that has read nothing yet. False, with `pp` untouched, where the text is not something
// the cache reproduces exactly (a function-like macro, a diagnostic, a token outside a #define): the caller then
// hands the text to the preprocessor as TShader::parse does. Thread-safe; the cache is process-lifetime.
//
// With `later_texts` (every string the preprocessor reads after the preamble, in order) only the macros those texts
// can name are defined, and the macros their replacement lists name: a macro nothing names is never looked up, so
// the parse is the same, and a small shader does not pay for some 130 definitions it never uses. Where the texts
// can form a name they do not spell (`##`, a backslash-newline) every macro is defined. The atoms the shader's own
// names get then differ from TShader::parse's; nothing a parse produces depends on an atom's number.
bool define_predefined_macros(const std::string& preamble, const PredefinedMacroContext& context,
                              glslang::TPpContext& pp,
                              std::optional<std::span<const std::string_view>> later_texts = std::nullopt);

// How many distinct preamble texts the cache holds, how many of them it could not reproduce, and how many parses
// had every macro defined or only those their text names (for tests).
struct PredefinedMacroCacheStats {
  int entries = 0;
  int unusable = 0;
  int64_t every_macro = 0;
  int64_t named_only = 0;
};
PredefinedMacroCacheStats predefined_macro_cache_stats();

}  // namespace bismuth::translator
