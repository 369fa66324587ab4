// COUNTER declarations (NV_shader_atomic_counters). The spec's grammar (Section 2.X.2):
//   <COUNTER_statement>   ::= "COUNTER" <establishName> <counterSingleInit>
//                           | "COUNTER" <establishName> <optArraySize> <counterMultipleInit>
//   <counterMultipleInit> ::= "{" <counterItemList> "}"
// with counters bound as `program.counter[b]` (a whole GL atomic counter buffer binding) or `program.counter[b][i]`
// (counter i of it). What NVIDIA's driver 580 does with them (tests/data/nv_reference) decides the rest: the index
// counts 32-bit counters from the start of the binding, a whole binding needs an unsized array ("full counter buffer
// binding supported only for unsized array variables"), binding ranges `program.counter[a..b]` do not load, and
// without OPTION NV_shader_atomic_counters the statement is invalid.
#include "bismuth/nvasm/assembler.hpp"
#include "declarations.hpp"

namespace bismuth::nvasm::detail {
namespace {

// Counter i of a binding: i below 2^28 (a 1 GiB buffer of counters; accesses past the bound range are undefined, as
// for storage buffers, and never reach other memory on a robust device).
constexpr uint64_t kMaxCounterIndex = (uint64_t(1) << 28) - 1;
// The counters an array of single counters may list (GL's MAX_COMPUTE_ATOMIC_COUNTERS in the GL shim).
constexpr uint32_t kMaxCounterList = 1024;

}  // namespace

// program.counter[b] (whole = true) or program.counter[b][i].
bool DeclarationParser::counter_item(CounterDecl& decl, bool& whole, size_t& binding_at) {
  const size_t at = peek().offset;
  binding_at = at;
  std::string_view word;
  if (!expect_ident(word, "program.counter")) return false;
  if (word != "program") return error(at, "unexpected '" + std::string(word) + "', expected program.counter");
  if (!expect('.')) return false;
  const size_t wat = peek().offset;
  if (!expect_ident(word, "counter")) return false;
  if (word != "counter") return error(wat, "invalid counter binding 'program." + std::string(word) + "'");
  if (!expect('[')) return false;
  uint64_t binding = 0;
  const size_t bat = peek().offset;
  if (!expect_uint(binding, "a counter buffer binding")) return false;
  if (peek().kind == Tok::DotDot) {
    return error(peek().offset,
                 "counter buffer binding ranges (program.counter[a..b]) are not supported (NVIDIA's "
                 "driver refuses them too); declare one COUNTER array per binding");
  }
  if (binding >= kMaxCounterBuffers) {
    return error(bat, "invalid counter buffer binding " + std::to_string(binding) + " (program.counter[0.." +
                          std::to_string(kMaxCounterBuffers - 1) + "], GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS)");
  }
  if (!expect(']')) return false;
  if (!decl.whole && !decl.words.empty() && decl.binding != binding) {
    return error(at, "COUNTER '" + decl.name +
                         "' lists counters of more than one program.counter binding (not "
                         "supported; declare one COUNTER per binding)");
  }
  decl.binding = static_cast<uint32_t>(binding);
  whole = !accept('[');
  if (whole) return true;
  uint64_t index = 0;
  const size_t iat = peek().offset;
  if (!expect_uint(index, "a counter index")) return false;
  if (peek().kind == Tok::DotDot) {
    return error(peek().offset,
                 "counter ranges (program.counter[b][i..j]) are not supported; bind the whole "
                 "binding (COUNTER c[] = { program.counter[b] };) and index it");
  }
  if (index > kMaxCounterIndex) return error(iat, "counter index " + std::to_string(index) + " is out of range");
  decl.words.push_back(static_cast<uint32_t>(index));
  return expect(']');
}

bool DeclarationParser::counter_decl() {
  const size_t keyword_at = next().offset;
  if (!has_option("NV_shader_atomic_counters")) {
    // NVIDIA's driver: "invalid statement" (the grammar rule exists only with the option).
    return error(keyword_at, "COUNTER declarations need OPTION NV_shader_atomic_counters");
  }
  std::string_view name;
  const size_t at = peek().offset;
  if (!expect_ident(name, "a counter name")) return false;
  CounterDecl decl;
  decl.name = std::string(name);
  bool sized = false;
  uint32_t size = 0;
  if (!optional_array_size(decl.is_array, size, sized, kMaxCounterList)) return false;
  if (!expect('=')) return false;
  bool whole = false;
  size_t binding_at = 0;
  const bool braces = accept('{');
  while (true) {
    bool item_whole = false;
    if (!counter_item(decl, item_whole, binding_at)) return false;
    if (item_whole || whole) {
      // NVIDIA: "full counter buffer binding supported only for unsized array variables", and one binding per
      // variable.
      if (!decl.is_array || sized || !decl.words.empty() || whole) {
        return error(binding_at,
                     "a whole counter buffer binding (program.counter[b]) is supported only for unsized "
                     "array variables of that one binding ('" +
                         decl.name + "[]')");
      }
      whole = true;
    }
    if (!braces || !accept(',')) break;
    if (decl.words.size() >= kMaxCounterList) return error(at, "COUNTER array '" + decl.name + "' is too large");
  }
  if (braces && !expect('}', "',' or '}'")) return false;
  decl.whole = whole;
  if (!decl.is_array && decl.words.size() != 1) {
    return error(at,
                 "COUNTER '" + decl.name + "' binds more than one counter; declare an array ('" + decl.name + "[]')");
  }
  if (sized && decl.words.size() != size) {
    return error(at, "COUNTER array '" + decl.name + "' declares " + std::to_string(size) + " counters but binds " +
                         std::to_string(decl.words.size()));
  }
  if (!declare(name, at, {Symbol::Kind::Counter, static_cast<uint32_t>(out_.counters.size())})) return false;
  out_.counters.push_back(std::move(decl));
  return end_statement();
}

}  // namespace bismuth::nvasm::detail
