// CachedParseShader (glslang_cached_parse.hpp): TShader::parse with the built-in levels from a process-wide cache.
// Written against Debian's glslang 12.0.0 (its installed internal headers and static libraries); glslang's own
// source was read to learn what its parse does, none of it is copied.
#include "glslang_internal.hpp"  // first: it sets how glslang's headers are read

#include "glslang_cached_parse.hpp"
#include "glslang_extension_behavior.hpp"
#include "glslang_predefined_macros.hpp"

#include <glslang/MachineIndependent/Initialize.h>
#include <glslang/MachineIndependent/preprocessor/PpContext.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace bismuth::translator {

namespace {

using glslang::SpvVersion;
using glslang::TSymbolTable;

// What the built-in levels of a symbol table depend on (ShaderLang.cpp's SetupBuiltinSymbolTable and
// AddContextSpecificSymbols take exactly these).
struct BuiltInKey {
  int version = 0;
  EProfile profile = ENoProfile;
  SpvVersion spv;
  EShLanguage stage = EShLangVertex;
  TBuiltInResource resources{};

  bool operator==(const BuiltInKey& other) const {
    return version == other.version && profile == other.profile && spv.spv == other.spv.spv &&
           spv.vulkanGlsl == other.spv.vulkanGlsl && spv.vulkan == other.spv.vulkan && spv.openGl == other.spv.openGl &&
           spv.vulkanRelaxed == other.spv.vulkanRelaxed && stage == other.stage &&
           std::memcmp(&resources, &other.resources, sizeof resources) == 0;
  }
};

// The process-lifetime pool the cached levels live in; never freed (parses on other threads may adopt them
// while static destructors run). Only a cache build (under its mutex) allocates from it; its allocation count
// lets tests check that parses adopting the levels never do (TPoolAllocator is not thread-safe).
struct CachePool : glslang::TPoolAllocator {
  int allocations() const { return numCalls; }
};
CachePool& cache_pool() {
  static auto* pool = new CachePool;
  return *pool;
}

// Parses `text` into a new level of `table`, as ShaderLang.cpp's InitializeSymbolTable does for built-ins; false
// where glslang cannot parse its own built-ins for this key (TShader::parse then reports that itself).
bool parse_built_ins(const glslang::TString& text, const BuiltInKey& key, EShLanguage language, TSymbolTable& table) {
  glslang::TIntermediate intermediate(language, key.version, key.profile);
  intermediate.setSource(glslang::EShSourceGlsl);
  TInfoSink info_sink;
  const glslang::TString entry_point;
  glslang::TParseContext parse_context(table, intermediate, true, key.version, key.profile, key.spv, language,
                                       info_sink, true, EShMsgDefault, &entry_point);
  glslang::TShader::ForbidIncluder includer;
  glslang::TPpContext pp_context(parse_context, "", includer);
  glslang::TScanContext scan_context(parse_context);
  parse_context.setScanContext(&scan_context);
  parse_context.setPpContext(&pp_context);
  table.push();
  if (text.empty()) return true;
  const char* strings[] = {text.c_str()};
  size_t lengths[] = {text.size()};
  glslang::TInputScanner input(1, strings, lengths);
  return parse_context.parseShaderStrings(pp_context, input);
}

// glslang's TParseContext::handleVariable copies a built-in up to the shader's globals when the symbol is read-only
// (in a shared level) and holds an unsized array (gl_in[] and the like), so that sizing it later edits the copy;
// in TShader::parse the resource level is writable and such a symbol is sized in place. A cached level is
// read-only, so where it holds such a symbol the copy would add a linker object TShader::parse does not have:
// those keys take TShader::parse. The level's map is protected; a member pointer named through a class derived
// from it reads it without any cast.
struct LevelMap : glslang::TSymbolTableLevel {
  static constexpr auto kMap = &LevelMap::level;
};
struct TableLevels : TSymbolTable {
  static constexpr auto kLevels = &TableLevels::table;
};

bool has_unsized_array(const TSymbolTable& table) {
  const glslang::TSymbolTableLevel& level = *(table.*TableLevels::kLevels).back();
  for (const auto& [name, symbol] : level.*LevelMap::kMap) {
    // handleVariable's own guard: a block's name (gl_PerVertex) is never copied up.
    if (symbol->getType().isUnusableName()) continue;
    if (const glslang::TVariable* variable = symbol->getAsVariable();
        variable != nullptr && variable->getType().containsUnsizedArray())
      return true;
    if (const glslang::TAnonMember* member = symbol->getAsAnonMember();
        member != nullptr && member->getAnonContainer().getType().containsUnsizedArray())
      return true;
  }
  return false;
}

struct CachedBuiltIns {
  TSymbolTable* table = nullptr;
  // The tables whose levels `table` adopted. Held here so the process-lifetime cache keeps them reachable
  // (LeakSanitizer reports a table only its levels' adopter knew of).
  TSymbolTable* stage = nullptr;
  TSymbolTable* common = nullptr;
  bool adoptable = false;  // false: a built-in parse failed, or the resource level holds an unsized array
};

// The stages whose built-in tables glslang builds for a (version, profile), in its order (ShaderLang.cpp's
// InitializeSymbolTables).
std::vector<EShLanguage> glslang_stage_order(int version, EProfile profile) {
  const bool es = profile == EEsProfile;
  std::vector<EShLanguage> stages = {EShLangVertex, EShLangFragment};
  if ((!es && version >= 150) || (es && version >= 310)) {
    stages.insert(stages.end(), {EShLangTessControl, EShLangTessEvaluation, EShLangGeometry});
  }
  if ((!es && version >= 420) || (es && version >= 310)) stages.push_back(EShLangCompute);
  if (!es && version >= 450) {
    stages.insert(stages.end(),
                  {EShLangRayGen, EShLangIntersect, EShLangAnyHit, EShLangClosestHit, EShLangMiss, EShLangCallable});
  }
  if ((!es && version >= 450) || (es && version >= 320)) stages.insert(stages.end(), {EShLangMesh, EShLangTask});
  return stages;
}

// Builds the three built-in levels (common, stage, resource-dependent) for `key` in a scratch pool and copies
// them into the cache's pool, read-only. glslang builds the tables of every stage of a (version, profile) at once,
// and each stage's identifyBuiltIns marks functions of the common level it shares (extension requirements such as
// anyInvocationARB's are set by the vertex stage's): this builds them all, in glslang's order, and keeps the one
// of `key`'s stage. The parses are glslang's, so the symbols' unique ids match those of TShader::parse.
CachedBuiltIns build_built_ins(const BuiltInKey& key) {
  glslang::TPoolAllocator& previous = glslang::GetThreadPoolAllocator();
  auto* scratch = new glslang::TPoolAllocator;
  glslang::SetThreadPoolAllocator(scratch);

  const bool es = key.profile == EEsProfile;
  bool parsed = true;  // every built-in parse
  // glslang's common tables: one parsed as a vertex shader, and for ES one as a fragment shader (its precisions).
  auto common_general = std::make_unique<TSymbolTable>();
  auto common_fragment = std::make_unique<TSymbolTable>();
  std::vector<std::unique_ptr<TSymbolTable>> stage_tables(EShLangCount);
  {
    glslang::TBuiltIns shared_built_ins;
    shared_built_ins.initialize(key.version, key.profile, key.spv);
    parsed &= parse_built_ins(shared_built_ins.getCommonString(), key, EShLangVertex, *common_general);
    if (es) parsed &= parse_built_ins(shared_built_ins.getCommonString(), key, EShLangFragment, *common_fragment);
    for (const EShLanguage language : glslang_stage_order(key.version, key.profile)) {
      auto table = std::make_unique<TSymbolTable>();
      table->adoptLevels(es && language == EShLangFragment ? *common_fragment : *common_general);
      parsed &= parse_built_ins(shared_built_ins.getStageString(language), key, language, *table);
      shared_built_ins.identifyBuiltIns(key.version, key.profile, key.spv, language, *table);
      if (es && key.version >= 300) table->setNoBuiltInRedeclarations();
      if (key.version == 110) table->setSeparateNameSpaces();
      stage_tables[language] = std::move(table);
    }
  }
  TSymbolTable& common = es && key.stage == EShLangFragment ? *common_fragment : *common_general;
  if (stage_tables[key.stage] == nullptr) {  // glslang has no shared table for it (plain_version excludes these)
    stage_tables.clear();
    common_fragment.reset();
    common_general.reset();
    delete scratch;
    glslang::SetThreadPoolAllocator(&previous);
    return {};
  }
  TSymbolTable* stage = stage_tables[key.stage].get();
  auto context = std::make_unique<TSymbolTable>();
  context->adoptLevels(*stage);
  {
    glslang::TBuiltIns context_built_ins;
    context_built_ins.initialize(key.resources, key.version, key.profile, key.spv, key.stage);
    parsed &= parse_built_ins(context_built_ins.getCommonString(), key, key.stage, *context);
    context_built_ins.identifyBuiltIns(key.version, key.profile, key.spv, key.stage, *context, key.resources);
  }

  glslang::SetThreadPoolAllocator(&cache_pool());
  auto* common_copy = new TSymbolTable;
  common_copy->copyTable(common);
  common_copy->readOnly();
  auto* stage_copy = new TSymbolTable;
  stage_copy->adoptLevels(*common_copy);
  stage_copy->copyTable(*stage);
  stage_copy->readOnly();
  auto* context_copy = new TSymbolTable;
  context_copy->adoptLevels(*stage_copy);
  context_copy->copyTable(*context);
  context_copy->readOnly();
  const bool adoptable = parsed && !has_unsized_array(*context_copy);

  context.reset();
  stage_tables.clear();
  common_fragment.reset();
  common_general.reset();
  delete scratch;
  glslang::SetThreadPoolAllocator(&previous);
  return {context_copy, stage_copy, common_copy, adoptable};
}

// The cached table for `key`, built on first use. Tables are never freed; a parse adopts their levels.
std::mutex& cache_mutex() {
  static auto* mutex = new std::mutex;  // never destroyed, as the tables it guards
  return *mutex;
}

CachedBuiltIns cached_built_ins(const BuiltInKey& key) {
  static auto* tables = new std::vector<std::pair<BuiltInKey, CachedBuiltIns>>;
  const std::lock_guard lock(cache_mutex());
  for (const auto& [cached_key, built_ins] : *tables)
    if (cached_key == key) return built_ins;
  const CachedBuiltIns built_ins = build_built_ins(key);
  tables->emplace_back(key, built_ins);
  return built_ins;
}

// ShaderLang.cpp's TranslateEnvironment for GLSL: the SPIR-V/client versions from the messages and the
// environment. False where the environment asks for something the cached path leaves to TShader::parse.
bool translate_environment(const glslang::TEnvironment& environment, EShLanguage language, EShMessages messages,
                           SpvVersion& spv) {
  if (messages & EShMsgReadHlsl) return false;
  if (messages & EShMsgSpvRules) spv.spv = glslang::EShTargetSpv_1_0;
  if (messages & EShMsgVulkanRules) {
    spv.vulkan = glslang::EShTargetVulkan_1_0;
    spv.vulkanGlsl = 100;
  } else if (spv.spv != 0) {
    spv.openGl = 100;
  }
  if (environment.input.languageFamily != glslang::EShSourceNone) {
    if (environment.input.languageFamily != glslang::EShSourceGlsl) return false;
    if (environment.input.stage != language) return false;
    switch (environment.input.dialect) {
      case glslang::EShClientNone: break;
      case glslang::EShClientVulkan:
        spv.vulkanGlsl = environment.input.dialectVersion;
        spv.vulkanRelaxed = environment.input.vulkanRulesRelaxed;
        break;
      case glslang::EShClientOpenGL: spv.openGl = environment.input.dialectVersion; break;
      default: return false;
    }
  }
  if (environment.client.client == glslang::EShClientVulkan) spv.vulkan = environment.client.version;
  if (environment.target.language == glslang::EShTargetSpv) spv.spv = environment.target.version;
  return true;
}

// The (version, profile) ShaderLang.cpp's DeduceVersionProfile settles on where it accepts the #version line
// without a diagnostic; false for everything else (which TShader::parse then handles, diagnostics included).
bool plain_version(EShLanguage stage, const SpvVersion& spv, int version, EProfile& profile) {
  const bool es_version = version == 100 || version == 300 || version == 310 || version == 320;
  switch (version) {
    case 100:
    case 300:
    case 310:
    case 320:
    case 110:
    case 120:
    case 130:
    case 140:
    case 150:
    case 330:
    case 400:
    case 410:
    case 420:
    case 430:
    case 440:
    case 450:
    case 460: break;
    default: return false;
  }
  if (profile == ENoProfile) {
    if (version == 300 || version == 310 || version == 320) return false;
    profile = version == 100 ? EEsProfile : version >= 150 ? ECoreProfile : ENoProfile;
  } else {
    if (version < 150) return false;
    if (es_version != (profile == EEsProfile)) return false;
  }
  const bool es = profile == EEsProfile;
  switch (stage) {
    case EShLangVertex:
    case EShLangFragment: break;
    case EShLangGeometry:
    case EShLangTessControl:
    case EShLangTessEvaluation:
      if ((es && version < 310) || (!es && version < 150)) return false;
      break;
    case EShLangCompute:
      if ((es && version < 310) || (!es && version < 420)) return false;
      break;
    default: return false;
  }
  if (spv.spv != 0) {
    if (profile == ECompatibilityProfile) return false;
    if (es && spv.vulkan > 0 && version < 310) return false;
    if (es && spv.openGl >= 100) return false;
    if (!es && spv.vulkan > 0 && version < 140) return false;
    if (!es && spv.openGl >= 100 && version < 330) return false;
  }
  return true;
}

// The length of the run of whole `#define` lines `text` opens with (each ending in a newline, none continued with a
// backslash): what may go to the predefined-macro cache with glslang's own text. Whether each is an object-like
// macro without a diagnostic is the cache's check (define_predefined_macros); a run it refuses is read as text.
size_t leading_define_lines(std::string_view text) {
  constexpr std::string_view kDefine = "#define ";
  size_t end = 0;
  while (text.substr(end, kDefine.size()) == kDefine) {
    const size_t newline = text.find('\n', end);
    if (newline == std::string_view::npos || text[newline - 1] == '\\') break;
    end = newline + 1;
  }
  return end;
}

bool stock_requested() {
  static const bool stock = [] {
    const char* value = std::getenv("BISMUTH_GLSLANG_DRIVER");
    return value != nullptr && std::string_view(value) == "stock";
  }();
  return stock;
}

}  // namespace

int glslang_cache_pool_allocations() {
  const std::lock_guard lock(cache_mutex());
  return cache_pool().allocations();
}

CachedParseShader::CachedParseShader(EShLanguage language) : TShader(language) {}
CachedParseShader::~CachedParseShader() = default;

bool CachedParseShader::parse_cached(const TBuiltInResource* resources, int default_version, EProfile default_profile,
                                     bool force_default_version_and_profile, bool forward_compatible,
                                     EShMessages messages) {
  cached_path_ = false;
  const auto stock = [&] {
    return parse(resources, default_version, default_profile, force_default_version_and_profile, forward_compatible,
                 messages);
  };
  if (stock_requested() || force_default_version_and_profile || overrideVersion != 0 || numStrings <= 0 ||
      !sourceEntryPointName.empty() || intermediate->getUniqueId() != 0 ||
      (messages & (EShMsgDebugInfo | EShMsgHlslOffsets)) != 0)
    return stock();

  const EShLanguage language = compiler->getLanguage();
  SpvVersion spv;
  if (!translate_environment(environment, language, messages, spv)) return stock();

  // The strings as ProcessDeferred lays them out: glslang's preamble, ours, the shader's, and "\n int;".
  constexpr int kPre = 2;
  constexpr int kPost = 1;
  const int total = kPre + numStrings + kPost;
  std::vector<const char*> all_strings(total);
  std::vector<size_t> all_lengths(total);
  std::vector<const char*> all_names(total, nullptr);
  for (int s = 0; s < numStrings; ++s) {
    all_strings[kPre + s] = strings[s];
    all_lengths[kPre + s] = lengths == nullptr || lengths[s] < 0 ? std::strlen(strings[s]) : size_t(lengths[s]);
    if (stringNames != nullptr) all_names[kPre + s] = stringNames[s];
  }

  int version = 0;
  EProfile profile = ENoProfile;
  bool not_first_token = false;
  glslang::TInputScanner user_input(numStrings, &all_strings[kPre], &all_lengths[kPre]);
  const bool not_first = user_input.scanVersion(version, profile, not_first_token);
  // Comments or blank lines before #version are fine except in ES 3.x (DeduceVersionProfile's error); a token
  // before it is an error or a warning, left to TShader::parse.
  if (version == 0 || not_first_token || !plain_version(language, spv, version, profile)) return stock();
  if (not_first && profile == EEsProfile && version >= 300) return stock();

  if (!glslang::InitThread()) return false;
  glslang::SetThreadPoolAllocator(pool);  // TShader::parse's first step too
  BuiltInKey key;
  key.version = version;
  key.profile = profile;
  key.spv = spv;
  key.stage = language;
  std::memcpy(&key.resources, resources, sizeof key.resources);
  const CachedBuiltIns built_ins = cached_built_ins(key);
  if (!built_ins.adoptable) return stock();

  // From here on this is TShader::parse's path (ShaderLang.cpp's ProcessDeferred with DoFullParse).
  if (preamble == nullptr) preamble = "";
  cached_path_ = true;
  glslang::GetThreadPoolAllocator().push();  // popped when the shader (its pool) goes

  glslang::TIntermediate& tree = *intermediate;
  tree.setSource(glslang::EShSourceGlsl);
  tree.setVersion(version);
  tree.setProfile(profile);
  tree.setSpv(spv);
  if (messages & EShMsgRelaxedErrors) tree.addProcess("relaxed-errors");
  if (messages & EShMsgSuppressWarnings) tree.addProcess("suppress-warnings");
  if (messages & EShMsgKeepUncalled) tree.addProcess("keep-uncalled");
  if (spv.vulkan > 0) tree.setOriginUpperLeft();
  if (environment.target.hlslFunctionality1) tree.setHlslFunctionality1();

  auto symbol_table = std::make_unique<TSymbolTable>();
  // adoptLevels only reads the cached table; the levels stay read-only (a built-in the shader redeclares is
  // copied up to the shader's own global level, as with glslang's shared levels).
  symbol_table->adoptLevels(*built_ins.table);
  if (messages & EShMsgBuiltinSymbolTable) {  // as TShader::parse dumps it (tests compare the two)
    compiler->infoSink.debug << "BuiltinSymbolTable {\n";
    symbol_table->dump(compiler->infoSink, true);
    compiler->infoSink.debug << "}\n";
  }

  tree.setEntryPointName("main");
  const glslang::TString entry_point;
  auto parse_context =
      std::make_unique<glslang::TParseContext>(*symbol_table, tree, false, version, profile, spv, language,
                                               compiler->infoSink, forward_compatible, messages, &entry_point);
  glslang::TShader::ForbidIncluder includer;
  glslang::TPpContext pp_context(*parse_context, all_names[kPre] != nullptr ? all_names[kPre] : "", includer);
  glslang::TScanContext scan_context(*parse_context);
  parse_context->setScanContext(&scan_context);
  parse_context->setPpContext(&pp_context);
  parse_context->setLimits(*resources);
  initialize_extension_behavior(*parse_context);  // glslang's tables, appended from a process-wide copy

  std::string system_preamble;
  parse_context->getPreamble(system_preamble);
  // glslang's predefined macros straight into the macro table (the text TShader::parse would preprocess first,
  // cached per text); where the cache cannot reproduce the text, the preprocessor reads it as before. What stays
  // in its place is one newline, as the text ends with: TInputScanner reads the first character of the next
  // string twice where the first string is empty. The #define lines that open our own preamble (the extension
  // macros the front adds) go with them, as one text: the preprocessor would read them right after glslang's.
  // Only the macros the text after them can name are defined (define_predefined_macros).
  const PredefinedMacroContext macro_context{version, profile, spv, language};
  constexpr std::string_view kPostString = "\n int;";
  std::vector<std::string_view> later_texts(1 + numStrings + kPost);
  for (int s = 0; s < numStrings; ++s) later_texts[1 + s] = {all_strings[kPre + s], all_lengths[kPre + s]};
  later_texts.back() = kPostString;
  const char* own_preamble = preamble;
  const size_t defines = leading_define_lines(preamble);
  later_texts[0] = std::string_view(preamble + defines);
  if (defines > 0 && define_predefined_macros(system_preamble + std::string(preamble, defines), macro_context,
                                              pp_context, later_texts)) {
    system_preamble = "\n";
    own_preamble = preamble[defines] != '\0' ? preamble + defines : "\n";
  } else if (later_texts[0] = std::string_view(preamble);
             define_predefined_macros(system_preamble, macro_context, pp_context, later_texts)) {
    system_preamble = "\n";
  }
  all_strings[0] = system_preamble.c_str();
  all_lengths[0] = system_preamble.size();
  all_strings[1] = own_preamble;
  all_lengths[1] = std::strlen(own_preamble);
  all_strings[total - 1] = kPostString.data();
  all_lengths[total - 1] = kPostString.size();
  glslang::TInputScanner full_input(total, all_strings.data(), all_lengths.data(), all_names.data(), kPre, kPost);

  symbol_table->push();  // the shader's globals
  bool success = parse_context->parseShaderStrings(pp_context, full_input, false);
  if (success && tree.getTreeRoot() != nullptr) {
    success = tree.postProcess(tree.getTreeRoot(), parse_context->getLanguage());
  } else if (!success) {
    parse_context->infoSink.info.prefix(glslang::EPrefixError);
    parse_context->infoSink.info << parse_context->getNumErrors() << " compilation errors.  No code generated.\n\n";
  }
  if (messages & EShMsgAST) tree.output(parse_context->infoSink, true);
  tree.setUniqueId(symbol_table->getMaxSymbolId());
  return success;
}

}  // namespace bismuth::translator
