#include "parser.hpp"

#include <algorithm>

#include "lexer.hpp"

namespace bismuth::nvasm::detail {

bool Parser::run() {
  out_.subroutines.push_back(Subroutine{"", 0, {}});
  while (true) {
    const Token& t = peek();
    if (t.kind == Tok::End) return error(t.offset, "unexpected end of program, expected END");
    if (t.kind != Tok::Ident) return error(t.offset, "unexpected '" + std::string(t.text) + "', expected a statement");
    if (t.text == "END") {
      end_offset_ = t.offset;
      break;
    }
    if (!statement()) return false;
  }
  return finish();
}

bool Parser::statement() {
  const Token& t = peek();
  if (is_punct(':', 1)) return label();
  const std::string_view word = t.text;
  if (word == "OPTION") return option();
  if (word == "GROUP_SIZE") return group_size();
  if (word == "SHARED_MEMORY") return shared_memory();
  if (word == "TEMP") return temp_decl(false, 1);
  if (word == "LONG" || word == "SHORT" || word == "INT" || word == "UINT" || word == "FLOAT") {
    return modified_declaration();
  }
  if (word == "PARAM") return param_decl();
  if (word == "STORAGE") return storage_decl();
  if (word == "SHARED") return shared_decl();
  if (word == "ATTRIB") return attrib_decl();
  if (word == "ALIAS") return alias_decl();
  if (word == "CBUFFER") return buffer_decl(BufferDecl::Kind::Bytes);
  if (word == "BUFFER") return buffer_decl(BufferDecl::Kind::Words);
  if (word == "BUFFER4") return buffer_decl(BufferDecl::Kind::Vec4);
  if (word == "TEXTURE") return texture_decl(false);
  if (word == "IMAGE") return texture_decl(true);
  if (word == "COUNTER") return counter_decl();
  if (word == "THREAD_MEMORY") {
    // Named in NVIDIA's compiler output for other stages; NVIDIA's driver (580) itself answers "invalid statement"
    // for it in a !!NVcp5.0 program, so no compute meaning is known to reproduce.
    return error(t.offset, "THREAD_MEMORY declarations are not supported in compute programs (NVIDIA's driver "
                           "refuses them too); declare a TEMP array for per-invocation memory");
  }
  if (word == "OUTPUT") {
    return error(t.offset, std::string(word) + " declarations are not supported by this assembler");
  }
  return instruction();
}

bool Parser::label() {
  const Token& name = next();
  next();  // ':'
  if (!open_blocks_.empty()) {
    return error(name.offset, "label '" + std::string(name.text) + "' inside an IF or REP block");
  }
  if (labels_.count(std::string(name.text))) {
    return error(name.offset, "label '" + std::string(name.text) + "' is already defined");
  }
  labels_[std::string(name.text)] = out_.subroutines.size();
  out_.subroutines.push_back(Subroutine{std::string(name.text), name.offset, {}});
  return true;
}

bool Parser::finish() {
  if (!open_blocks_.empty()) {
    const Block& b = open_blocks_.back();
    return error(b.offset, b.op == Op::IF ? "IF without a matching ENDIF" : "REP without a matching ENDREP");
  }
  if (first_shared_decl_ && !out_.has_shared_memory_decl) {
    return error(*first_shared_decl_, "SHARED needs a SHARED_MEMORY declaration");
  }
  for (const SharedDecl& s : out_.shareds) {
    if (s.base == 0 && s.last == UINT32_MAX) continue;  // the whole memory (program.sharedmem, or [0] on)
    const uint32_t last = s.last == UINT32_MAX ? s.base : s.last;
    if (last >= out_.shared_memory) {
      return error(s.binding_offset, "invalid shared memory offset: '" + s.name + "' binds bytes past SHARED_MEMORY " +
                                         std::to_string(out_.shared_memory));
    }
  }
  if (!out_.variable_group_size && !out_.group_size) {
    return error(end_offset_,
                 "missing GROUP_SIZE declaration (required unless OPTION ARB_compute_variable_group_size)");
  }
  for (const auto& call : calls_) {
    auto it = labels_.find(call.label);
    if (it == labels_.end()) return error(call.offset, "undefined label '" + call.label + "'");
    out_.subroutines[call.subroutine].body[call.instruction].label = static_cast<uint32_t>(it->second);
  }
  auto main = labels_.find("main");
  out_.entry = main == labels_.end() ? 0 : static_cast<uint32_t>(main->second);
  return check_recursion();
}

// SPIR-V has no recursion: a call cycle is a load error, reported at the call that closes it.
bool Parser::check_recursion() {
  const size_t n = out_.subroutines.size();
  std::vector<uint8_t> state(n, 0);  // 0 new, 1 on stack, 2 done
  struct Frame {
    size_t sub;
    size_t next_call;
  };
  std::vector<std::vector<std::pair<size_t, size_t>>> edges(n);  // (callee, call offset)
  for (const auto& call : calls_) {
    const Instruction& inst = out_.subroutines[call.subroutine].body[call.instruction];
    edges[call.subroutine].push_back({inst.label, call.offset});
  }
  // The size of each subroutine with its callees inlined (the optimizer inlines every call): bounded, so a
  // small program of calls that fan out cannot make the translation explode.
  std::vector<uint64_t> inlined(n, 0);
  constexpr uint64_t kMaxInlined = 1u << 17;
  for (size_t root = 0; root < n; ++root) {
    if (state[root]) continue;
    std::vector<Frame> stack{{root, 0}};
    state[root] = 1;
    while (!stack.empty()) {
      Frame& f = stack.back();
      if (f.next_call == edges[f.sub].size()) {
        uint64_t total = out_.subroutines[f.sub].body.size() + 1;
        for (const auto& [callee, offset] : edges[f.sub]) total = std::min(kMaxInlined + 1, total + inlined[callee]);
        inlined[f.sub] = total;
        if (total > kMaxInlined) {
          return error(out_.subroutines[f.sub].offset,
                       "subroutine calls expand to more than " + std::to_string(kMaxInlined) +
                           " instructions once inlined");
        }
        state[f.sub] = 2;
        stack.pop_back();
        continue;
      }
      const auto [callee, offset] = edges[f.sub][f.next_call++];
      if (state[callee] == 1) {
        return error(offset, "recursive call to subroutine '" + out_.subroutines[callee].name +
                                 "' (SPIR-V cannot express recursion)");
      }
      if (state[callee] == 0) {
        state[callee] = 1;
        stack.push_back({callee, 0});
      }
    }
  }
  return true;
}

bool parse_program(std::string_view source, ParsedProgram& out, Failure& failure) {
  constexpr std::string_view kHeader = "!!NVcp5.0";
  if (source.substr(0, kHeader.size()) != kHeader) {
    failure = {0, "program must begin with !!NVcp5.0"};
    return false;
  }
  if (source.size() > kHeader.size() && is_ident_char(source[kHeader.size()])) {
    failure = {0, "program must begin with !!NVcp5.0"};
    return false;
  }
  std::vector<Token> tokens;
  Lexer lexer(source);
  if (!lexer.run(kHeader.size(), tokens, failure)) return false;
  Parser parser(std::move(tokens), out, failure);
  return parser.run();
}

}  // namespace bismuth::nvasm::detail
