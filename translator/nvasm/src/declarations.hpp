// The declaration statements of a !!NVcp5.0 program (OPTION, GROUP_SIZE, SHARED_MEMORY, TEMP, PARAM, STORAGE,
// CBUFFER / BUFFER / BUFFER4, SHARED, ATTRIB, ALIAS), the symbol table they fill, and the constants and bindings
// (literals, constant vectors, program.local / program.env items, invocation / state bindings) that instruction
// operands use too.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ast.hpp"
#include "token_reader.hpp"

namespace bismuth::nvasm::detail {

struct Symbol {
  enum class Kind : uint8_t { Temp, Param, Storage, Shared, Builtin, Buffer, Texture, Counter, SubroutineType,
                              SubroutineVar } kind;
  uint32_t id = 0;
  Builtin builtin = Builtin::LocalId;
};

class DeclarationParser : public TokenReader {
 public:
  DeclarationParser(std::vector<Token> tokens, ParsedProgram& out, Failure& failure)
      : TokenReader(std::move(tokens), failure), out_(out) {}

 protected:
  // Declaration statements; the current token is the keyword.
  bool option();
  bool group_size();
  bool shared_memory();
  bool temp_decl(bool is_long, int words);
  bool param_decl();
  // SHORT / LONG / INT / UINT / FLOAT before TEMP or PARAM (NV_gpu_program4 <varMods>); the current token is the
  // first modifier.
  bool modified_declaration();
  bool storage_decl();
  bool buffer_decl(BufferDecl::Kind kind);
  bool shared_decl();
  bool attrib_decl();
  bool alias_decl();
  bool texture_decl(bool image);
  // declarations_counter.cpp: COUNTER (NV_shader_atomic_counters)
  bool counter_decl();
  bool has_option(std::string_view name) const {
    return std::find(out_.options.begin(), out_.options.end(), name) != out_.options.end();
  }
  // declarations_subroutine.cpp: SUBROUTINETYPE and SUBROUTINE (ARB_shader_subroutine, NV_gpu_program5 interaction)
  bool subroutine_type_decl();
  bool subroutine_decl();
  bool end_statement() { return expect(';'); }

  // Pieces operands share with declarations.
  bool literal(Literal& lit);
  bool constant_vector(std::array<Literal, 4>& v);
  bool param_item(std::vector<ParamElement>& elements);
  bool builtin_binding(Builtin& b);
  void note_thread_group(size_t at) { out_.first_thread_group_use = std::min(out_.first_thread_group_use, at); }

  ParsedProgram& out_;
  std::unordered_map<std::string, Symbol> symbols_;
  bool seen_declaration_ = false;  // OPTION must come before any declaration or instruction
  std::optional<size_t> first_shared_decl_;
  uint64_t temp_bytes_ = 0;  // TEMP registers declared so far, bytes per invocation
  // The variable modifiers of the declaration being read.
  bool short_modifier_ = false;
  VarType var_type_ = VarType::Any;
  bool integer_constants_ = false;  // an INT / UINT PARAM: its constants must be integers
  // A label a SUBROUTINETYPE statement names, resolved once every label is known.
  struct TypeLabel {
    uint32_t type;
    std::string label;
    size_t offset;
  };
  std::vector<TypeLabel> type_labels_;

 private:
  bool declare(std::string_view name, size_t at, Symbol symbol);
  // `[n]` or `[]` after a name; n in 1..max_size (0: the declarations' usual bound, 4096).
  bool optional_array_size(bool& is_array, uint32_t& size, bool& sized, uint32_t max_size = 0);
  bool second_dimension(bool& present, uint32_t max_size);
  void note_param_index(ParamElement::Kind kind, uint32_t index);
  bool storage_item(std::vector<uint32_t>& list);
  bool buffer_item(BufferDecl& decl, bool& ranged);
  bool unit_item(std::vector<uint32_t>& units, bool image);
  bool counter_item(CounterDecl& decl, bool& whole, size_t& binding_at);
  bool subroutine_item(std::vector<uint32_t>& params, uint32_t type);
};

}  // namespace bismuth::nvasm::detail
