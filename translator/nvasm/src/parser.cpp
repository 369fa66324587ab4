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
  // <instLabel> ::= <identifier> | <identifier> "SUBROUTINENUM" "(" <int> ")"
  if (is_punct(':', 1) || (peek(1).kind == Tok::Ident && peek(1).text == "SUBROUTINENUM")) return label();
  const std::string_view word = t.text;
  if (word == "OPTION") return option();
  if (word == "GROUP_SIZE") return group_size();
  if (word == "SHARED_MEMORY") return shared_memory();
  if (word == "TEMP") return temp_decl(false, 1);
  if (word == "LONG" || word == "SHORT" || word == "INT" || word == "UINT" || word == "FLOAT") {
    return modified_declaration();
  }
  if (word == "PARAM") return param_decl();
  if (word == "SUBROUTINETYPE") return subroutine_type_decl();
  if (word == "SUBROUTINE") return subroutine_decl();
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
  int64_t number = -1;
  if (peek().kind == Tok::Ident && peek().text == "SUBROUTINENUM") {
    next();
    if (!expect('(')) return false;
    const size_t nat = peek().offset;
    uint64_t v = 0;
    if (!expect_uint(v, "a SUBROUTINENUM")) return false;
    // "All SUBROUTINENUMs must be greater than or equal to zero, and less than the value of
    // MAX_PROGRAM_SUBROUTINE_NUM_NV."
    if (v >= kMaxSubroutineNum) {
      return error(nat, "SUBROUTINENUM " + std::to_string(v) + " is not below MAX_PROGRAM_SUBROUTINE_NUM_NV (" +
                            std::to_string(kMaxSubroutineNum) + ")");
    }
    // "Functions that will be used for indirect subroutine calls must all be assigned a unique unsigned integer
    // SUBROUTINENUM."
    for (const Subroutine& s : out_.subroutines) {
      if (s.number == static_cast<int64_t>(v)) {
        return error(nat, "SUBROUTINENUM " + std::to_string(v) + " is already assigned to label '" + s.name + "'");
      }
    }
    number = static_cast<int64_t>(v);
    if (!expect(')')) return false;
  }
  if (!expect(':')) return false;
  if (!open_blocks_.empty()) {
    return error(name.offset, "label '" + std::string(name.text) + "' inside an IF or REP block");
  }
  if (labels_.count(std::string(name.text))) {
    return error(name.offset, "label '" + std::string(name.text) + "' is already defined");
  }
  labels_[std::string(name.text)] = out_.subroutines.size();
  out_.subroutines.push_back(Subroutine{std::string(name.text), name.offset, {}, number});
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
  if (!resolve_subroutine_types()) return false;
  auto main = labels_.find("main");
  out_.entry = main == labels_.end() ? 0 : static_cast<uint32_t>(main->second);
  return check_recursion();
}

// The labels of SUBROUTINETYPE statements, and the SUBROUTINE variables CALI calls through.
bool Parser::resolve_subroutine_types() {
  for (const TypeLabel& l : type_labels_) {
    auto it = labels_.find(l.label);
    if (it == labels_.end()) return error(l.offset, "undefined label '" + l.label + "'");
    const Subroutine& sub = out_.subroutines[it->second];
    if (sub.number < 0) {
      return error(l.offset, "label '" + l.label + "' has no SUBROUTINENUM (functions that will be used for "
                             "indirect subroutine calls must all be assigned a unique SUBROUTINENUM)");
    }
    auto& labels = out_.subroutine_types[l.type].labels;
    const auto index = static_cast<uint32_t>(it->second);
    if (std::find(labels.begin(), labels.end(), index) == labels.end()) labels.push_back(index);
  }
  for (const PendingCall& call : indirect_calls_) {
    const Instruction& inst = out_.subroutines[call.subroutine].body[call.instruction];
    const SubroutineVar& var = out_.subroutine_vars[inst.label];
    // ARB_shader_subroutine, issue (2): "Attempting to link a program that calls a function pointer with no
    // potential associations produces a link error."
    if (out_.subroutine_types[var.type].labels.empty()) {
      return error(call.offset, "CALI through '" + var.name + "': SUBROUTINETYPE '" +
                                    out_.subroutine_types[var.type].name + "' has no subroutine");
    }
  }
  return true;
}

// Call cycles (NV_gpu_program4 allows recursion through CAL, bounded by the call stack) and the size of the
// translation. SPIR-V has no recursion: a program with a cycle is emitted once per call depth up to
// MAX_PROGRAM_CALL_DEPTH_NV (codegen_flow.cpp), so its size is that of the depth-bounded call tree. A cycle through
// CALI is a load error: "Programs that may potentially cause infinite recursion through indirect calls will fail
// to compile." (ARB_shader_subroutine, NV_gpu_program5 interaction).
bool Parser::check_recursion() {
  const size_t n = out_.subroutines.size();
  struct Edge {
    size_t callee;
    size_t offset;
    bool indirect;
  };
  std::vector<std::vector<Edge>> edges(n);
  for (const auto& call : calls_) {
    const Instruction& inst = out_.subroutines[call.subroutine].body[call.instruction];
    edges[call.subroutine].push_back({inst.label, call.offset, false});
  }
  // Each CALI is a call of every label of its type: bounded in all, so that the graph stays small.
  constexpr uint64_t kMaxInlined = 1u << 17;
  uint64_t edge_count = calls_.size();
  for (const auto& call : indirect_calls_) {
    const Instruction& inst = out_.subroutines[call.subroutine].body[call.instruction];
    const SubroutineVar& var = out_.subroutine_vars[inst.label];
    edge_count += out_.subroutine_types[var.type].labels.size();
    if (edge_count > kMaxInlined) {
      return error(call.offset, "more than " + std::to_string(kMaxInlined) +
                                    " calls in the program (a CALI counts one per label of its SUBROUTINETYPE)");
    }
    for (uint32_t label : out_.subroutine_types[var.type].labels) {
      edges[call.subroutine].push_back({label, call.offset, true});
    }
  }
  // Strongly connected components (Tarjan's algorithm with an explicit stack: no recursion on input structure).
  std::vector<size_t> index(n, SIZE_MAX), low(n, 0), component(n, SIZE_MAX);
  std::vector<bool> on_stack(n, false);
  std::vector<size_t> stack;
  size_t next_index = 0, components = 0;
  struct Frame {
    size_t sub;
    size_t next_edge;
  };
  for (size_t root = 0; root < n; ++root) {
    if (index[root] != SIZE_MAX) continue;
    std::vector<Frame> frames{{root, 0}};
    index[root] = low[root] = next_index++;
    stack.push_back(root);
    on_stack[root] = true;
    while (!frames.empty()) {
      Frame& f = frames.back();
      if (f.next_edge < edges[f.sub].size()) {
        const size_t callee = edges[f.sub][f.next_edge++].callee;
        if (index[callee] == SIZE_MAX) {
          index[callee] = low[callee] = next_index++;
          stack.push_back(callee);
          on_stack[callee] = true;
          frames.push_back({callee, 0});
        } else if (on_stack[callee]) {
          low[f.sub] = std::min(low[f.sub], index[callee]);
        }
        continue;
      }
      const size_t sub = f.sub;
      frames.pop_back();
      if (!frames.empty()) low[frames.back().sub] = std::min(low[frames.back().sub], low[sub]);
      if (low[sub] == index[sub]) {
        size_t member;
        do {
          member = stack.back();
          stack.pop_back();
          on_stack[member] = false;
          component[member] = components;
        } while (member != sub);
        ++components;
      }
    }
  }
  // A call is part of a cycle when caller and callee are in one component (a self-call included).
  bool recursive = false;
  for (size_t sub = 0; sub < n; ++sub) {
    for (const Edge& e : edges[sub]) {
      if (component[e.callee] != component[sub]) continue;
      if (e.indirect) {
        return error(e.offset, "CALI may call '" + out_.subroutines[e.callee].name + "', which leads back to '" +
                                   out_.subroutines[sub].name +
                                   "' (programs that may potentially cause infinite recursion through indirect "
                                   "calls fail to compile)");
      }
      recursive = true;
    }
  }
  out_.recursive = recursive;
  // The size of each subroutine with its callees inlined (the optimizer inlines every call): bounded, so a small
  // program of calls that fan out cannot make the translation explode.
  auto total_of = [&](size_t sub, const std::vector<uint64_t>& callee_sizes) {
    uint64_t total = out_.subroutines[sub].body.size() + 1;
    for (const Edge& e : edges[sub]) total = std::min(kMaxInlined + 1, total + callee_sizes[e.callee]);
    return total;
  };
  if (recursive) {
    // Depth d (the call stack entries when the subroutine runs) calls depth d + 1; a call past kMaxCallDepth is the
    // overflow (one instruction). Computed from the deepest level up.
    std::vector<uint64_t> deeper(n, 1), level(n, 0);
    for (uint32_t d = kMaxCallDepth + 1; d-- > 0;) {
      for (size_t sub = 0; sub < n; ++sub) level[sub] = total_of(sub, deeper);
      deeper.swap(level);
    }
    if (deeper[out_.entry] > kMaxInlined) {
      return error(out_.subroutines[out_.entry].offset,
                   "recursive subroutine calls expand to more than " + std::to_string(kMaxInlined) +
                       " instructions once inlined to MAX_PROGRAM_CALL_DEPTH_NV (" + std::to_string(kMaxCallDepth) +
                       ") levels");
    }
    return true;
  }
  // No cycle: sizes in reverse topological order (Tarjan numbers components callees first).
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return component[a] < component[b]; });
  std::vector<uint64_t> inlined(n, 0);
  for (size_t sub : order) {
    inlined[sub] = total_of(sub, inlined);
    if (inlined[sub] > kMaxInlined) {
      return error(out_.subroutines[sub].offset, "subroutine calls expand to more than " +
                                                     std::to_string(kMaxInlined) + " instructions once inlined");
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
