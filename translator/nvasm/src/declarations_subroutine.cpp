// SUBROUTINETYPE and SUBROUTINE declarations: ARB_shader_subroutine's "Dependencies on NV_gpu_program5", which
// extends the NV_gpu_program4 grammar of every NV_gpu_program5 header (no OPTION needed):
//   <SUBROUTINETYPE_statement> ::= "SUBROUTINETYPE" <establishName> "{" <labelInitList> "}"
//   <SUBROUTINE_statement>     ::= "SUBROUTINE" <establishedName> <establishName> "=" <progSubroutineParam>
//                                | "SUBROUTINE" <establishedName> <establishName> <optArraySize> "="
//                                  "{" <progSubroutineInitList> "}"
// The labels a type names are resolved at the end of the program (Parser::finish), as CAL targets are.
#include "declarations.hpp"

namespace bismuth::nvasm::detail {

// "SUBROUTINETYPE Hero { batman, robin }; creates a SUBROUTINETYPE named "Hero" (if it does not already exist) and
// adds the subroutines whose labels are "batman" and "robin" to the SUBROUTINETYPE."
bool DeclarationParser::subroutine_type_decl() {
  next();
  const size_t at = peek().offset;
  std::string_view name;
  if (!expect_ident(name, "a subroutine type name")) return false;
  uint32_t type;
  auto it = symbols_.find(std::string(name));
  if (it != symbols_.end() && it->second.kind == Symbol::Kind::SubroutineType) {
    type = it->second.id;
  } else {
    type = static_cast<uint32_t>(out_.subroutine_types.size());
    if (!declare(name, at, {Symbol::Kind::SubroutineType, type})) return false;
    out_.subroutine_types.push_back({std::string(name), {}});
  }
  seen_declaration_ = true;
  if (!expect('{')) return false;
  if (accept('}')) return end_statement();  // <labelInitList> may be empty
  while (true) {
    const size_t lat = peek().offset;
    std::string_view label;
    if (!expect_ident(label, "a label")) return false;
    if (type_labels_.size() >= kMaxSubroutineNum * 16) return error(lat, "too many SUBROUTINETYPE labels");
    type_labels_.push_back({type, std::string(label), lat});
    if (accept('}')) break;
    if (!expect(',', "',' or '}'")) return false;
  }
  return end_statement();
}

// program.subroutine[n] or program.subroutine[a..b]. "A program subroutine parameter may only be assigned to
// subroutine variables of a single SUBROUTINETYPE."
bool DeclarationParser::subroutine_item(std::vector<uint32_t>& params, uint32_t type) {
  const size_t at = peek().offset;
  std::string_view word;
  if (!expect_ident(word, "program.subroutine")) return false;
  if (word != "program") return error(at, "unexpected '" + std::string(word) + "', expected program.subroutine");
  if (!expect('.')) return false;
  const size_t wat = peek().offset;
  if (!expect_ident(word, "subroutine")) return false;
  if (word != "subroutine") return error(wat, "invalid subroutine binding 'program." + std::string(word) + "'");
  if (!expect('[')) return false;
  uint64_t first = 0, last = 0;
  const size_t iat = peek().offset;
  if (!expect_uint(first, "a subroutine parameter index")) return false;
  last = first;
  if (peek().kind == Tok::DotDot) {
    next();
    if (!expect_uint(last, "a subroutine parameter index")) return false;
  }
  if (last < first || last >= kMaxSubroutineParameters) {
    return error(iat, "invalid subroutine parameter index range (program.subroutine[0.." +
                          std::to_string(kMaxSubroutineParameters - 1) + "], MAX_PROGRAM_SUBROUTINE_PARAMETERS_NV)");
  }
  for (uint64_t i = first; i <= last; ++i) {
    const auto n = static_cast<uint32_t>(i);
    // Another variable binding the same parameter must have the same type.
    for (const SubroutineVar& v : out_.subroutine_vars) {
      if (v.type != type && std::find(v.params.begin(), v.params.end(), n) != v.params.end()) {
        return error(iat, "program.subroutine[" + std::to_string(n) + "] is already bound to SUBROUTINE '" + v.name +
                              "' of type '" + out_.subroutine_types[v.type].name +
                              "' (a program subroutine parameter may only be assigned to subroutine variables of a "
                              "single SUBROUTINETYPE)");
      }
    }
    params.push_back(n);
    out_.subroutine_param_count = std::max(out_.subroutine_param_count, n + 1);
  }
  return expect(']');
}

bool DeclarationParser::subroutine_decl() {
  next();
  const size_t tat = peek().offset;
  std::string_view type_name;
  if (!expect_ident(type_name, "a SUBROUTINETYPE name")) return false;
  auto it = symbols_.find(std::string(type_name));
  if (it == symbols_.end() || it->second.kind != Symbol::Kind::SubroutineType) {
    return error(tat, "'" + std::string(type_name) + "' is not a SUBROUTINETYPE");
  }
  SubroutineVar var;
  var.type = it->second.id;
  const size_t at = peek().offset;
  std::string_view name;
  if (!expect_ident(name, "a subroutine variable name")) return false;
  var.name = std::string(name);
  bool sized = false;
  uint32_t size = 0;
  if (!optional_array_size(var.is_array, size, sized, kMaxSubroutineParameters)) return false;
  if (!expect('=')) return false;
  if (var.is_array) {
    if (!expect('{')) return false;
    while (true) {
      if (!subroutine_item(var.params, var.type)) return false;
      if (var.params.size() > kMaxSubroutineParameters) return error(at, "SUBROUTINE array is too large");
      if (accept('}')) break;
      if (!expect(',', "',' or '}'")) return false;
    }
    if (sized && var.params.size() != size) {
      return error(at, "SUBROUTINE array '" + var.name + "' declares " + std::to_string(size) +
                           " elements but binds " + std::to_string(var.params.size()));
    }
  } else {
    if (!subroutine_item(var.params, var.type)) return false;
    if (var.params.size() != 1) {
      return error(at, "SUBROUTINE '" + var.name + "' binds more than one parameter; declare an array");
    }
  }
  if (!declare(name, at, {Symbol::Kind::SubroutineVar, static_cast<uint32_t>(out_.subroutine_vars.size())})) {
    return false;
  }
  out_.subroutine_vars.push_back(std::move(var));
  return end_statement();
}

}  // namespace bismuth::nvasm::detail
