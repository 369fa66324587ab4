#include "nesting_limits.hpp"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include "glsl_lexer.hpp"

namespace bismuth::translator {

namespace {

// GLSL's operators of two and three characters (GLSL 4.60 §5.1), longest first: adjacent punctuation is munched
// into them so `a && b` counts one operator, as glslang's tree has one node.
constexpr std::string_view kLongOperators[] = {"<<=", ">>=", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "^^",
                                               "++",  "--",  "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^="};

constexpr long long kSaturated = kMaxExpressionDepth + 1;

bool is_operator_char(char c) {
  return std::string_view("+-*/%<>=!~&|^.?").find(c) != std::string_view::npos;
}

bool is_control_keyword(std::string_view t) {
  return t == "if" || t == "for" || t == "while" || t == "do" || t == "switch";
}

// A '(' after one of these groups an expression; after any other identifier it opens a call's (or a
// constructor's, or a layout qualifier's) argument list.
bool is_non_call_keyword(std::string_view t) {
  return is_control_keyword(t) || t == "return" || t == "else" || t == "case";
}

bool is_opener(std::string_view t) {
  return t == "(" || t == "[" || t == "{";
}
bool is_closer(std::string_view t) {
  return t == ")" || t == "]" || t == "}";
}

// Length in tokens of the operator starting at tokens[i] (adjacent punctuation munched into GLSL's longest
// operator), 0 when tokens[i] starts none. Only tokens before `end` take part.
size_t operator_length(const std::vector<GlslToken>& tokens, size_t i, size_t end) {
  const GlslToken& t = tokens[i];
  if (t.kind != GlslToken::Kind::Punctuation || !is_operator_char(t.text[0])) return 0;
  for (std::string_view op : kLongOperators) {
    if (i + op.size() > end) continue;
    bool match = true;
    for (size_t k = 0; k < op.size() && match; ++k) {
      const GlslToken& c = tokens[i + k];
      match = c.kind == GlslToken::Kind::Punctuation && c.text[0] == op[k] && c.offset == t.offset + k;
    }
    if (match) return op.size();
  }
  return 1;
}

// The directive's tokens after '#'.
std::vector<GlslToken> directive_parts(const GlslToken& directive) {
  return lex_glsl(directive.text.substr(1));
}

// ---- macros ---------------------------------------------------------------------------------------------------

struct Macro {
  int own = 0;                          // operators, opening brackets and control keywords in the body
  std::vector<std::string_view> names;  // identifiers in the body, parameters excepted (macros among them expand)
  bool function_like = false;
  bool regular = true;  // brackets balanced, no '#' or '##'
};

// Every `#define` of the source, and what each may expand to: an upper bound of the operators, opening brackets
// and control keywords in its full expansion — its own plus those of every macro its body names, each time it
// names it. Without function-like macros that is exact up to counting; a macro expanding itself (which the
// preprocessor stops, GLSL 4.60 §3.3) is reported as a cycle.
class Macros {
 public:
  explicit Macros(const std::vector<GlslToken>& tokens) {
    for (const GlslToken& token : tokens) {
      if (token.kind == GlslToken::Kind::Directive) add(directive_parts(token));
    }
  }

  const Macro* find(std::string_view name) const {
    auto m = macros_.find(name);
    return m == macros_.end() ? nullptr : &m->second;
  }

  // The expansion bound of `name` (0 for a name that is no macro); saturates just above kMaxExpressionDepth.
  long long cost_of(std::string_view name) {
    if (!macros_.contains(name)) return 0;
    if (auto known = costs_.find(name); known != costs_.end()) return known->second == kInProgress ? 0 : known->second;
    // Iterative depth-first walk: macro chains can be as long as the source has lines.
    struct Frame {
      std::string_view name;
      size_t next = 0;
      long long total = 0;
    };
    std::vector<Frame> stack{{name, 0, macros_.at(name).own}};
    costs_[name] = kInProgress;
    while (!stack.empty()) {
      Frame& frame = stack.back();
      const Macro& m = macros_.at(frame.name);
      if (frame.next < m.names.size()) {
        const std::string_view callee = m.names[frame.next++];
        if (!macros_.contains(callee)) continue;
        auto known = costs_.find(callee);
        if (known == costs_.end()) {
          costs_[callee] = kInProgress;
          stack.push_back({callee, 0, macros_.at(callee).own});
        } else if (known->second == kInProgress) {
          cycle_ = true;
        } else {
          frame.total = std::min(frame.total + known->second, kSaturated);
        }
        continue;
      }
      const long long total = std::min(frame.total, kSaturated);
      costs_[frame.name] = total;
      stack.pop_back();
      if (!stack.empty()) stack.back().total = std::min(stack.back().total + total, kSaturated);
    }
    return costs_.at(name);
  }

  // Whether counting the source's tokens with cost_of() bounds the depth of its expansion: no function-like macro
  // (an argument used twice doubles a chain it joins), none expanding itself, all with balanced brackets and no
  // token pasting.
  bool countable() {
    for (const auto& [name, m] : macros_) {
      if (m.function_like || !m.regular) return false;
      cost_of(name);
    }
    return !cycle_;
  }

 private:
  void add(const std::vector<GlslToken>& parts) {
    if (parts.size() < 2 || parts[0].text != "define" || parts[1].kind != GlslToken::Kind::Identifier) return;
    Macro m;
    std::vector<std::string_view> parameters;
    size_t body = 2;
    // A function-like macro's '(' follows its name without a space.
    if (parts.size() > 2 && parts[2].text == "(" && parts[2].offset == parts[1].offset + parts[1].text.size()) {
      m.function_like = true;
      for (body = 3; body < parts.size() && parts[body].text != ")"; ++body) {
        if (parts[body].kind == GlslToken::Kind::Identifier) parameters.push_back(parts[body].text);
      }
      ++body;
    }
    int open = 0;
    for (size_t i = body; i < parts.size();) {
      const GlslToken& t = parts[i];
      if (t.kind == GlslToken::Kind::Identifier) {
        if (is_control_keyword(t.text)) ++m.own;
        if (std::find(parameters.begin(), parameters.end(), t.text) == parameters.end()) m.names.push_back(t.text);
      } else if (is_opener(t.text)) {
        ++m.own;
        ++open;
      } else if (is_closer(t.text)) {
        m.regular &= --open >= 0;
      } else if (t.text == "#") {
        m.regular = false;
      }
      const size_t length = operator_length(parts, i, parts.size());
      m.own += length > 0;
      i += std::max<size_t>(length, 1);
    }
    m.regular &= open == 0;
    // A name defined twice (after #undef) may expand to either body: keep what bounds both. The views point into
    // the source (the parts lex a view of the directive, itself a view of the source).
    auto [slot, inserted] = macros_.try_emplace(parts[1].text, m);
    if (!inserted) {
      slot->second.own = std::max(slot->second.own, m.own);
      slot->second.names.insert(slot->second.names.end(), m.names.begin(), m.names.end());
      slot->second.function_like |= m.function_like;
      slot->second.regular &= m.regular;
    }
  }

  static constexpr long long kInProgress = -1;
  std::unordered_map<std::string_view, Macro> macros_;
  std::unordered_map<std::string_view, long long> costs_;
  bool cycle_ = false;
};

// ---- the checks -----------------------------------------------------------------------------------------------

class Checker {
 public:
  Checker(std::string_view source_name, bool expanded) : source_name_(source_name), expanded_(expanded) {}

  NestingReport run(std::string_view source) {
    const std::vector<GlslToken> tokens = lex_glsl(source);
    Macros macros(tokens);
    if (!expanded_) {
      bool conditional = false;
      for (const GlslToken& token : tokens) {
        if (token.kind == GlslToken::Kind::Directive) conditional |= check_directive(token, macros);
      }
      report_.needs_expansion = conditional || !macros.countable();
    }
    if (!report_.error) check_code(tokens, report_.needs_expansion ? nullptr : &macros);
    return report_;
  }

 private:
  void exceeded(const GlslToken& at, std::string message) {
    if (report_.error) return;
    if (expanded_) message += " (counted after macro expansion)";
    report_.error =
        Diagnostic{Diagnostic::Severity::Error, std::string(source_name_), at.line, at.column, std::move(message)};
  }
  void nesting_exceeded(const GlslToken& at, std::string_view what) {
    exceeded(at, std::string(what) + " nests deeper than " + std::to_string(kMaxNestingDepth) +
                     " levels of parentheses, brackets, braces and control statements (the GLSL front's limit)");
  }
  void expression_exceeded(const GlslToken& at, std::string_view what) {
    exceeded(at, std::string(what) + " is deeper than " + std::to_string(kMaxExpressionDepth) +
                     " levels of operators and nesting (the GLSL front's limit; split it into several statements)");
  }

  // An #if/#elif expression: glslang's preprocessor evaluates it recursively, a level per parenthesis and unary
  // operator, its macros expanded. Its operators and parentheses, the macros' expansion bounds added, bound that.
  // Returns whether the directive compiles code conditionally.
  bool check_directive(const GlslToken& directive, Macros& macros) {
    const std::vector<GlslToken> parts = directive_parts(directive);
    if (parts.empty()) return false;
    const std::string_view name = parts[0].text;
    const bool conditional = name == "if" || name == "ifdef" || name == "ifndef" || name == "elif" || name == "else";
    if (name != "if" && name != "elif") return conditional;
    long long total = 0;
    int depth = 0;
    for (size_t i = 1; i < parts.size();) {
      const std::string_view text = parts[i].text;
      if (text == "(" && ++depth > kMaxNestingDepth) {
        nesting_exceeded(directive, "#" + std::string(name));
        return conditional;
      }
      if (text == ")") depth = std::max(depth - 1, 0);
      if (parts[i].kind == GlslToken::Kind::Identifier) total += macros.cost_of(text);
      const size_t length = operator_length(parts, i, parts.size());
      total += text == "(" || length > 0;
      i += std::max<size_t>(length, 1);
      report_.directive_depth = std::max<int>(report_.directive_depth, static_cast<int>(std::min(total, kSaturated)));
      if (total > kMaxExpressionDepth) {
        expression_exceeded(directive, "the #" + std::string(name) + " expression, its macros expanded,");
        return conditional;
      }
    }
    return conditional;
  }

  struct Group {
    enum class Kind { Block, Initializer, Call, Parentheses, Brackets };
    Kind kind;
    long long base;       // expression depth of the group's own node
    int nesting;          // nesting depth of the group
    long long chain = 0;  // operators so far in the current element (statement, argument, expression)
    int control = 0;      // control statements whose body is still open in the current statement
  };

  // The code: the depth of each token is that of its group plus the group's open control statements and the
  // operators before it in its statement, argument or expression. `macros`, when given, adds each object-like
  // macro's expansion bound where the code names it.
  void check_code(const std::vector<GlslToken>& tokens, Macros* macros) {
    std::vector<Group> groups{{Group::Kind::Block, 0, 0}};
    auto next_is_else = [&](size_t i) { return i + 1 < tokens.size() && tokens[i + 1].text == "else"; };
    // A statement ended at tokens[i]: its control statements end with it unless an `else` continues the `if`.
    auto end_statement = [&](Group& g, size_t i) {
      g.chain = 0;
      if (!next_is_else(i)) g.control = 0;
    };
    const GlslToken* previous = nullptr;
    for (size_t i = 0; i < tokens.size(); ++i) {
      const GlslToken& t = tokens[i];
      if (t.kind == GlslToken::Kind::Directive) continue;
      Group& g = groups.back();
      const std::string_view text = t.text;
      if (t.kind == GlslToken::Kind::Identifier) {
        if (is_control_keyword(text)) ++g.control;
        if (macros != nullptr) g.chain = std::min(g.chain + macros->cost_of(text), kSaturated);
      } else if (is_opener(text)) {
        Group::Kind kind = Group::Kind::Brackets;
        if (text == "(") {
          const bool call = previous != nullptr &&
                            ((previous->kind == GlslToken::Kind::Identifier && !is_non_call_keyword(previous->text)) ||
                             previous->text == "]");
          kind = call ? Group::Kind::Call : Group::Kind::Parentheses;
        } else if (text == "{") {
          const bool initializer = g.kind == Group::Kind::Initializer || (previous != nullptr && previous->text == "=");
          kind = initializer ? Group::Kind::Initializer : Group::Kind::Block;
        }
        // Indexing is a node of its own: `a[0][0]...` is a chain as deep as it has brackets.
        if (text == "[") g.chain = std::min(g.chain + 1, kSaturated);
        groups.push_back({kind, g.base + g.control + g.chain + 1, g.nesting + g.control + 1});
      } else if (is_closer(text)) {
        // Closers are not matched against their opener: glslang reports unbalanced source, which never gets as
        // far as a tree walk. (Conditional code, where a branch not compiled could close a group, is checked
        // after preprocessing.)
        if (groups.size() > 1) {
          const Group::Kind closed = g.kind;
          groups.pop_back();
          if (closed == Group::Kind::Block) end_statement(groups.back(), i);
        }
      } else if (text == ";") {
        end_statement(g, i);
      } else if (text == ",") {
        if (g.kind == Group::Kind::Call || g.kind == Group::Kind::Initializer) {
          g.chain = 0;
        } else {
          ++g.chain;
        }
      } else if (const size_t length = operator_length(tokens, i, tokens.size()); length > 0) {
        ++g.chain;
        i += length - 1;
      }
      const Group& top = groups.back();
      const long long depth = top.base + top.control + top.chain;
      report_.expression_depth = std::max<int>(report_.expression_depth, static_cast<int>(std::min(depth, kSaturated)));
      if (top.nesting + top.control > kMaxNestingDepth) return nesting_exceeded(t, "the code");
      if (depth > kMaxExpressionDepth) return expression_exceeded(t, "the expression");
      previous = &tokens[i];
    }
  }

  std::string_view source_name_;
  bool expanded_;
  NestingReport report_;
};

}  // namespace

NestingReport check_nesting_limits(std::string_view source, std::string_view source_name, bool expanded) {
  return Checker(source_name, expanded).run(source);
}

size_t NestingReport::stack_bytes() const {
  return kBaseStackBytes + kStackBytesPerLevel * static_cast<size_t>(expression_depth) +
         kStackBytesPerDirectiveLevel * static_cast<size_t>(directive_depth);
}

}  // namespace bismuth::translator
