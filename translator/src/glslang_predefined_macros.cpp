// glslang_predefined_macros.hpp: glslang's predefined macros from a process-wide cache. Written against Debian's
// glslang 12.0.0 (its installed internal headers and static libraries), as glslang_cached_parse.cpp is.
#include "glslang_internal.hpp"  // first: it sets how glslang's headers are read

#include "glslang_predefined_macros.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string_view>
#include <tuple>
#include <unordered_map>
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
  // For defining only the macros a parse's text can name: each macro by name, the macros each one's replacement
  // list names (expanding it expands them), and what the names start with and how long they are (a cheap test
  // before a lookup). A replacement list that pastes tokens could form any name: then every macro is defined.
  std::unordered_map<std::string_view, uint32_t> by_name;
  std::vector<std::vector<uint32_t>> named_in_body;
  std::array<bool, 256> first_chars{};
  size_t shortest = SIZE_MAX;
  size_t longest = 0;
  bool body_pastes = false;
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
bool define_macros(const std::vector<Macro>& macros, TPpContext& pp, const std::vector<bool>* chosen = nullptr) {
  glslang::TStringAtomMap& atoms = pp.*PpAtoms::kAtoms;
  auto& atom_map = atoms.*AtomTable::kMap;
  auto& atom_strings = atoms.*AtomTable::kStrings;
  int& next_atom = atoms.*AtomTable::kNext;
  atom_map.reserve(atom_map.size() + macros.size());
  bool same_atoms = true;
  TPpToken token;
  const glslang::pool_allocator<char> pool(glslang::GetThreadPoolAllocator());  // one for every name
  for (size_t m = 0; m < macros.size(); ++m) {
    if (chosen != nullptr && !(*chosen)[m]) continue;
    const Macro& macro = macros[m];
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

void index_names(Entry& entry) {
  for (uint32_t m = 0; m < entry.macros.size(); ++m) {
    const std::string& name = entry.macros[m].name;
    entry.by_name.emplace(name, m);
    if (!name.empty()) entry.first_chars[static_cast<unsigned char>(name[0])] = true;
    entry.shortest = std::min(entry.shortest, name.size());
    entry.longest = std::max(entry.longest, name.size());
  }
  entry.named_in_body.resize(entry.macros.size());
  for (uint32_t m = 0; m < entry.macros.size(); ++m) {
    for (const BodyToken& token : entry.macros[m].body) {
      entry.body_pastes |= token.atom == glslang::PpAtomPaste;
      if (token.atom != glslang::PpAtomIdentifier) continue;
      if (auto named = entry.by_name.find(token.name); named != entry.by_name.end())
        entry.named_in_body[m].push_back(named->second);
    }
  }
}

// Whether the preprocessor can form, from `texts` read one after another (TInputScanner runs a parse's strings
// together), a name the texts do not spell: `##` pastes tokens into one, and a backslash before a newline joins the
// lines around it, inside a name too.
bool may_form_names(std::span<const std::string_view> texts) {
  char previous = '\0';
  for (std::string_view text : texts) {
    for (char c : text) {
      if ((previous == '#' && c == '#') || (previous == '\\' && (c == '\n' || c == '\r'))) return true;
      previous = c;
    }
  }
  return false;
}

// Marks the macros `texts` can name: every run of letters, digits and underscores is a name the preprocessor may
// look up, and so is every part of a run that begins with a letter or underscore after a digit (a number ends where a
// name may begin: `1u` then `GL_ES` in `1uGL_ES`). Comments are read as text; a name found there only defines a macro
// the shader does not use. A macro marked marks the macros its replacement list names.
std::vector<bool> named_macros(const Entry& entry, std::span<const std::string_view> texts) {
  std::vector<bool> chosen(entry.macros.size(), false);
  std::vector<uint32_t> pending;
  auto mark = [&](std::string_view name) {
    if (name.size() < entry.shortest || name.size() > entry.longest) return;
    if (!entry.first_chars[static_cast<unsigned char>(name[0])]) return;
    if (auto found = entry.by_name.find(name); found != entry.by_name.end() && !chosen[found->second]) {
      chosen[found->second] = true;
      pending.push_back(found->second);
    }
  };
  auto is_name_char = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  };
  auto mark_run = [&](std::string_view run) {
    if (run.empty()) return;
    if (run[0] < '0' || run[0] > '9') {
      mark(run);
      return;
    }
    for (size_t i = 1; i < run.size(); ++i)
      if (run[i] < '0' || run[i] > '9') mark(run.substr(i));
  };
  // A run may go on from one text into the next: it is kept whole in `spanning` until it ends.
  std::string spanning;
  for (std::string_view text : texts) {
    size_t i = 0;
    if (!spanning.empty()) {
      while (i < text.size() && is_name_char(text[i])) ++i;
      spanning.append(text.substr(0, i));
      if (i == text.size()) continue;
      mark_run(spanning);
      spanning.clear();
    }
    while (i < text.size()) {
      if (!is_name_char(text[i])) {
        ++i;
        continue;
      }
      const size_t start = i;
      while (i < text.size() && is_name_char(text[i])) ++i;
      if (i == text.size()) {
        spanning.assign(text.substr(start));
      } else {
        mark_run(text.substr(start, i - start));
      }
    }
  }
  mark_run(spanning);
  while (!pending.empty()) {
    const uint32_t m = pending.back();
    pending.pop_back();
    for (uint32_t named : entry.named_in_body[m]) {
      if (!chosen[named]) {
        chosen[named] = true;
        pending.push_back(named);
      }
    }
  }
  return chosen;
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
  index_names(entry);
}

struct Cache {
  std::mutex mutex;
  std::vector<std::unique_ptr<Entry>> entries;
  std::atomic<int64_t> every_macro{0};
  std::atomic<int64_t> named_only{0};
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
                              glslang::TPpContext& pp, std::optional<std::span<const std::string_view>> later_texts) {
  const Entry& entry = cached_entry(preamble, context);
  if (!entry.usable) return false;
  if (!later_texts || entry.body_pastes || may_form_names(*later_texts)) {
    define_macros(entry.macros, pp);
    cache().every_macro.fetch_add(1, std::memory_order_relaxed);
  } else {
    const std::vector<bool> chosen = named_macros(entry, *later_texts);
    define_macros(entry.macros, pp, &chosen);
    cache().named_only.fetch_add(1, std::memory_order_relaxed);
  }
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
  stats.every_macro = c.every_macro.load(std::memory_order_relaxed);
  stats.named_only = c.named_only.load(std::memory_order_relaxed);
  return stats;
}

}  // namespace bismuth::translator
