// A glslang::TShader whose parse takes glslang's resource-dependent built-ins from a process-wide cache.
//
// Issue 17, "a front end that is cheap per program": every GLSL parse of the front goes through it (docs/gl_shim.md
// "glslang's resource built-ins, once per process"; numbers in docs/performance.md "A cheap front end").
// TShader::parse parses the built-in declarations that depend on
// TBuiltInResource (gl_MaxComputeWorkGroupCount and the like) again for every shader (ShaderLang.cpp's
// AddContextSpecificSymbols, about 1.9 M instructions for a compute shader). This class does what
// TShader::parse does with the installed glslang's own parts (TParseContext, TPpContext, TScanContext,
// TBuiltIns), but adopts a read-only symbol table that already holds that level for the shader's (version,
// profile, SPIR-V/client environment, stage, resources).
#pragma once

#include <glslang/Public/ShaderLang.h>

#include <optional>

namespace bismuth::translator {

class CachedParseShader : public glslang::TShader {
 public:
  // Out of line: this class's vtable and type info belong to glslang_cached_parse.cpp, which is compiled
  // without RTTI as Debian's glslang is (there is no type info for TShader to refer to).
  explicit CachedParseShader(EShLanguage language);
  ~CachedParseShader() override;

  // TShader::parse with the cached built-ins, or TShader::parse itself where this shader is outside what the
  // cached path reproduces (a #version line that is missing, late, or draws a diagnostic; HLSL; forced or
  // overridden versions; debug info; a source entry point). BISMUTH_GLSLANG_DRIVER=stock always takes
  // TShader::parse.
  bool parse_cached(const TBuiltInResource* resources, int default_version, EProfile default_profile,
                    bool force_default_version_and_profile, bool forward_compatible, EShMessages messages);

  // Whether the last parse_cached call took the cached path (for tests and measurements).
  bool took_cached_path() const { return cached_path_; }

 private:
  bool cached_path_ = false;
};

// How many allocations the cache's process-lifetime pool has made (for tests: only building a cache entry may
// allocate there; a parse that adopts cached levels must not, as other threads read them at the same time).
int glslang_cache_pool_allocations();

}  // namespace bismuth::translator
