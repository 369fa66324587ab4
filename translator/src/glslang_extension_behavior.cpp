// glslang_extension_behavior.hpp: glslang's per-parse extension tables from a process-wide copy. Written against
// Debian's glslang 12.0.0 (its installed internal headers and static libraries), as glslang_cached_parse.cpp is.
#include "glslang_internal.hpp"  // first: it sets how glslang's headers are read

#include "glslang_extension_behavior.hpp"

#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "glslang_process.hpp"

namespace bismuth::translator {

namespace {

// The three tables are protected members of TParseVersions; member pointers named through a class derived from
// it read them without a cast (never instantiated).
struct Tables : glslang::TParseVersions {
  static constexpr auto kBehavior = &Tables::extensionBehavior;
  static constexpr auto kMinSpv = &Tables::extensionMinSpv;
  static constexpr auto kSpvOnly = &Tables::spvUnsupportedExt;
};

struct Captured {
  std::vector<std::pair<std::string, glslang::TExtensionBehavior>> behavior;  // in the map's (key) order
  std::vector<std::pair<std::string, unsigned int>> min_spv;                  // in the map's (key) order
  std::vector<std::string> spv_only;                                          // in order
  bool usable = false;
};

bool tables_empty(glslang::TParseVersions& versions) {
  return (versions.*Tables::kBehavior).empty() && (versions.*Tables::kMinSpv).empty() &&
         (versions.*Tables::kSpvOnly).empty();
}

void replay(const Captured& captured, glslang::TParseVersions& versions) {
  // The names in the thread's pool, as glslang's own TStrings would be; one allocator for all of them (a TString
  // made without one asks for the thread's pool each time).
  const glslang::pool_allocator<char> pool(glslang::GetThreadPoolAllocator());
  auto& behavior = versions.*Tables::kBehavior;
  for (const auto& [name, value] : captured.behavior)
    behavior.emplace_hint(behavior.end(), glslang::TString(name.data(), name.size(), pool), value);
  auto& min_spv = versions.*Tables::kMinSpv;
  for (const auto& [name, value] : captured.min_spv)
    min_spv.emplace_hint(min_spv.end(), glslang::TString(name.data(), name.size(), pool), value);
  auto& spv_only = versions.*Tables::kSpvOnly;
  spv_only.reserve(captured.spv_only.size());
  for (const std::string& name : captured.spv_only) spv_only.emplace_back(name.data(), name.size(), pool);
}

bool same_tables(glslang::TParseVersions& a, glslang::TParseVersions& b) {
  return a.*Tables::kBehavior == b.*Tables::kBehavior && a.*Tables::kMinSpv == b.*Tables::kMinSpv &&
         a.*Tables::kSpvOnly == b.*Tables::kSpvOnly;
}

// Runs `body` with two scratch parse contexts set up with these settings, in a scratch pool.
template <typename Body>
void with_scratch_contexts(int version, EProfile profile, const glslang::SpvVersion& spv, EShLanguage stage,
                           Body body) {
  glslang::TPoolAllocator& previous = glslang::GetThreadPoolAllocator();
  auto scratch = std::make_unique<glslang::TPoolAllocator>();
  glslang::SetThreadPoolAllocator(scratch.get());
  {
    glslang::TSymbolTable table;
    table.push();
    glslang::TIntermediate intermediate(stage, version, profile);
    intermediate.setSpv(spv);
    TInfoSink info_sink;
    const glslang::TString entry_point;
    glslang::TParseContext first(table, intermediate, false, version, profile, spv, stage, info_sink, false,
                                 EShMsgDefault, &entry_point);
    glslang::TParseContext second(table, intermediate, false, version, profile, spv, stage, info_sink, false,
                                  EShMsgDefault, &entry_point);
    body(first, second);
  }
  glslang::SetThreadPoolAllocator(&previous);
}

// glslang's own tables, once; usable where replaying them gives equal tables.
const Captured& captured(const glslang::TParseContext& like) {
  static const Captured* const captured = [&] {
    auto* result = new Captured;  // never freed: parses on other threads may read it while statics go
    with_scratch_contexts(like.version, like.profile, like.spvVersion, like.language,
                          [&](glslang::TParseContext& own, glslang::TParseContext& replayed) {
                            own.initializeExtensionBehavior();
                            for (const auto& [name, value] : own.*Tables::kBehavior)
                              result->behavior.emplace_back(std::string(name.c_str(), name.size()), value);
                            for (const auto& [name, value] : own.*Tables::kMinSpv)
                              result->min_spv.emplace_back(std::string(name.c_str(), name.size()), value);
                            for (const auto& name : own.*Tables::kSpvOnly)
                              result->spv_only.emplace_back(name.c_str(), name.size());
                            replay(*result, replayed);
                            result->usable = same_tables(own, replayed);
                          });
    return result;
  }();
  return *captured;
}

}  // namespace

void initialize_extension_behavior(glslang::TParseContext& parse_context) {
  const Captured& tables = captured(parse_context);
  if (!tables.usable || !tables_empty(parse_context)) {
    parse_context.initializeExtensionBehavior();
    return;
  }
  replay(tables, parse_context);
}

bool extension_behavior_matches_glslang(int version, EProfile profile, bool vulkan, EShLanguage stage) {
  // A parse has set these up before it gets here; a test may call this first.
  ensure_glslang_initialized();
  if (!glslang::InitThread()) return false;
  glslang::SpvVersion spv;
  if (vulkan) {
    spv.spv = glslang::EShTargetSpv_1_0;
    spv.vulkan = glslang::EShTargetVulkan_1_0;
    spv.vulkanGlsl = 100;
  }
  bool same = false;
  with_scratch_contexts(version, profile, spv, stage, [&](glslang::TParseContext& own, glslang::TParseContext& ours) {
    own.initializeExtensionBehavior();
    initialize_extension_behavior(ours);
    same = !tables_empty(own) && same_tables(own, ours);
  });
  return same;
}

}  // namespace bismuth::translator
