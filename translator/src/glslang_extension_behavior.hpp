// glslang's per-parse extension tables (TParseVersions::initializeExtensionBehavior: every extension's initial
// behavior, the SPIR-V version some need, the SPIR-V-only ones) filled from a process-wide copy.
//
// initializeExtensionBehavior inserts some two hundred extension names one by one into a fresh map for every parse,
// each insertion a search by string; what it inserts does not depend on the parse (Debian's glslang 12.0.0 fills
// them unconditionally). The first call captures glslang's own result once; later parses get the same entries
// appended in key order, which needs no search.
#pragma once

#include <glslang/Public/ShaderLang.h>

namespace glslang {
class TParseContext;
}  // namespace glslang

namespace bismuth::translator {

// initializeExtensionBehavior's result in `parse_context`, from the cache where its tables are still empty;
// otherwise (or where the capture could not be checked) glslang's own call.
void initialize_extension_behavior(glslang::TParseContext& parse_context);

// Whether the cached tables equal what glslang's initializeExtensionBehavior makes for a parse context with these
// settings (for tests; `vulkan`: SPIR-V 1.0 with Vulkan 1.0 rules, else no SPIR-V).
bool extension_behavior_matches_glslang(int version, EProfile profile, bool vulkan, EShLanguage stage);

}  // namespace bismuth::translator
