// glslang_predefined_macros.hpp: glslang's predefined macros from a process-wide cache. Written against Debian's
// glslang 12.0.0 (its installed internal headers and static libraries), as glslang_cached_parse.cpp is.
#include "glslang_internal.hpp"  // first: it sets how glslang's headers are read

#include "glslang_predefined_macros.hpp"

#include <cstring>
#include <memory>
#include <mutex>
#include <tuple>
#include <utility>
#include <vector>

namespace bismuth::translator {

namespace {

using glslang::TPpContext;
using glslang::TPpToken;

// The preprocessor's atom table, its maps and a token stream's tokens are protected; a member pointer named through a
// class derived from theirs reads them without a cast (never instantiated).
struct PpAtoms : TPpContext {
  static constexpr auto kAtoms = &PpAtoms::atomStrings;
};
struct AtomTable : glslang::TStringAtomMap {
  static constexpr auto kMap = &AtomTable::atomMap;
  static constexpr auto kStrings = &AtomTable::stringMap;
  static constexpr auto kNext = &AtomTable::nextAtom;
  static constexpr auto kBad = &AtomTable::badToken;
};
struct StreamTokens : TPpContext::TokenStream {
  static constexpr auto kTokens = &StreamTokens::stream;
};

// One replacement-list token as TokenStream::Token keeps it.
struct BodyToken {
  int atom = 0;
  bool space = false;
  long long i64val = 0;
  std::string name;
};

struct Macro {
  std::string name;
  int atom = 0;  // the atom the text gave the name (checked against a replay when the entry is made)
  std::vector<BodyToken> body;
};

struct Entry {
  std::string preamble;
  std::vector<Macro> macros;  // in atom order: the order the text first defines them
  bool usable = false;
};

std::vector<BodyToken> body_tokens(TPpContext::TokenStream& stream) {
  std::vector<BodyToken> tokens;
  for (TPpContext::TokenStream::Token& token : stream.*StreamTokens::kTokens) {
    TPpToken pp_token;
    BodyToken& out = tokens.emplace_back();
    out.atom = token.get(pp_token);
    out.space = pp_token.space;
    out.i64val = pp_token.i64val;
    out.name = pp_token.name;
  }
  return tokens;
}

bool same_tokens(const std::vector<BodyToken>& a, const std::vector<BodyToken>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].atom != b[i].atom || a[i].space != b[i].space || a[i].i64val != b[i].i64val || a[i].name != b[i].name)
      return false;
  }
  return true;
}

// Defines `macros` in `pp` as CPPdefine would have (a new atom per name, in the text's order; the replacement
// tokens as TokenStream::putToken records them). The names go into the atom table as TStringAtomMap::getAddAtom
// puts a new name, but with one hash each and the table's buckets reserved once (getAddAtom hashes a name twice and
// the table grows step by step). False where a name's atom differs from the text's.
bool define_macros(const std::vector<Macro>& macros, TPpContext& pp) {
  glslang::TStringAtomMap& atoms = pp.*PpAtoms::kAtoms;
  auto& atom_map = atoms.*AtomTable::kMap;
  auto& atom_strings = atoms.*AtomTable::kStrings;
  int& next_atom = atoms.*AtomTable::kNext;
  atom_map.reserve(atom_map.size() + macros.size());
  bool same_atoms = true;
  TPpToken token;
  const glslang::pool_allocator<char> pool(glslang::GetThreadPoolAllocator());  // one for every name
  for (const Macro& macro : macros) {
    const auto [name, added] =
        atom_map.emplace(glslang::TString(macro.name.data(), macro.name.size(), pool), next_atom);
    int atom = name->second;
    if (added) {  // getAddAtom's new atom, and addAtomFixed's string table
      atom = next_atom++;
      if (atom_strings.size() < size_t(atom) + 1) atom_strings.resize(atom + 100, &(atoms.*AtomTable::kBad));
      atom_strings[atom] = &name->first;
    }
    same_atoms &= atom == macro.atom;
    // Atoms only grow, so each definition goes at the map's end.
    TPpContext::MacroSymbol& symbol = pp.macroDefs
                                          .emplace_hint(pp.macroDefs.end(), std::piecewise_construct,
                                                        std::forward_as_tuple(atom), std::forward_as_tuple())
                                          ->second;
    // One allocation for the replacement list (putToken would grow it token by token from none).
    (symbol.body.*StreamTokens::kTokens).reserve(macro.body.size());
    for (const BodyToken& body_token : macro.body) {
      token.clear();
      token.space = body_token.space;
      token.i64val = body_token.i64val;
      std::memcpy(token.name, body_token.name.c_str(), body_token.name.size() + 1);
      symbol.body.putToken(body_token.atom, &token);
    }
  }
  return same_atoms;
}

// Preprocesses `preamble` alone on a scratch preprocessor set up as the parse's, in a scratch pool, and keeps its
// macros; the entry is usable only where the text was nothing but object-like #defines without a diagnostic and
// replaying them on a second scratch preprocessor gives the same atoms and tokens.
void capture(Entry& entry, const PredefinedMacroContext& context) {
  glslang::TPoolAllocator& previous = glslang::GetThreadPoolAllocator();
  auto scratch = std::make_unique<glslang::TPoolAllocator>();
  glslang::SetThreadPoolAllocator(scratch.get());
  {
    glslang::TSymbolTable table;
    table.push();
    glslang::TIntermediate intermediate(context.stage, context.version, context.profile);
    intermediate.setSource(glslang::EShSourceGlsl);
    intermediate.setSpv(context.spv);
    TInfoSink info_sink;
    const glslang::TString entry_point;
    glslang::TParseContext parse_context(table, intermediate, false, context.version, context.profile, context.spv,
                                         context.stage, info_sink, false, EShMsgDefault, &entry_point);
    glslang::TShader::ForbidIncluder includer;
    TPpContext pp(parse_context, "", includer);
    glslang::TScanContext scan_context(parse_context);
    parse_context.setScanContext(&scan_context);
    parse_context.setPpContext(&pp);
    parse_context.initializeExtensionBehavior();

    const char* strings[] = {entry.preamble.c_str()};
    size_t lengths[] = {entry.preamble.size()};
    // One string before the shader's (string -1), as TShader::parse places it.
    glslang::TInputScanner input(1, strings, lengths, nullptr, 1, 0);
    parse_context.setScanner(&input);
    pp.setInput(input, false);
    TPpToken token;
    bool usable = pp.tokenize(token) == glslang::EndOfInput;
    usable &= info_sink.info.c_str()[0] == '\0' && parse_context.getNumErrors() == 0;

    for (auto& [atom, symbol] : pp.macroDefs) {
      usable &= !symbol.functionLike && symbol.args.empty() && !symbol.undef;
      Macro& macro = entry.macros.emplace_back();
      macro.name = (pp.*PpAtoms::kAtoms).getString(atom);
      macro.atom = atom;
      macro.body = body_tokens(symbol.body);
    }

    if (usable) {
      TPpContext replay(parse_context, "", includer);
      usable = define_macros(entry.macros, replay) && replay.macroDefs.size() == pp.macroDefs.size();
      for (auto a = pp.macroDefs.begin(), b = replay.macroDefs.begin(); usable && a != pp.macroDefs.end(); ++a, ++b)
        usable = a->first == b->first && same_tokens(body_tokens(a->second.body), body_tokens(b->second.body));
    }
    entry.usable = usable;
    parse_context.setScanner(nullptr);
  }
  glslang::SetThreadPoolAllocator(&previous);
}

struct Cache {
  std::mutex mutex;
  std::vector<std::unique_ptr<Entry>> entries;
};
Cache& cache() {
  static auto* cache = new Cache;  // never destroyed: parses on other threads may run while statics go
  return *cache;
}

const Entry& cached_entry(const std::string& preamble, const PredefinedMacroContext& context) {
  Cache& c = cache();
  const std::lock_guard lock(c.mutex);
  for (const auto& entry : c.entries)
    if (entry->preamble == preamble) return *entry;
  auto entry = std::make_unique<Entry>();
  entry->preamble = preamble;
  capture(*entry, context);
  c.entries.push_back(std::move(entry));
  return *c.entries.back();  // entries are never removed or moved (unique_ptr)
}

}  // namespace

bool define_predefined_macros(const std::string& preamble, const PredefinedMacroContext& context,
                              glslang::TPpContext& pp) {
  const Entry& entry = cached_entry(preamble, context);
  if (!entry.usable) return false;
  define_macros(entry.macros, pp);
  return true;
}

PredefinedMacroCacheStats predefined_macro_cache_stats() {
  Cache& c = cache();
  const std::lock_guard lock(c.mutex);
  PredefinedMacroCacheStats stats;
  for (const auto& entry : c.entries) {
    ++stats.entries;
    stats.unusable += entry->usable ? 0 : 1;
  }
  return stats;
}

}  // namespace bismuth::translator
