// The front's GLSL lexer (translator/src/glsl_lexer.hpp): its tokens are views into the text the caller passed,
// also when the text's tokens come from the lexer's memory of texts this thread lexed before.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "glsl_lexer.hpp"

using bismuth::translator::GlslToken;
using bismuth::translator::lex_glsl;

namespace {

const char* kShader =
    "#version 450\n"
    "#extension GL_ARB_compute_variable_group_size : require\n"
    "layout(local_size_variable) in; /* a\n comment */\n"
    "void main() { uint x = 0x1Fu + 2u; float y = .5e-3; }\n";

bool inside(std::string_view view, const std::string& text) {
  return view.data() >= text.data() && view.data() + view.size() <= text.data() + text.size();
}

void check_same_tokens(const std::vector<GlslToken>& a, const std::vector<GlslToken>& b) {
  REQUIRE(a.size() == b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    CHECK(a[i].kind == b[i].kind);
    CHECK(a[i].text == b[i].text);
    CHECK(a[i].offset == b[i].offset);
    CHECK(a[i].line == b[i].line);
    CHECK(a[i].column == b[i].column);
  }
}

}  // namespace

TEST_CASE("Lexing the same text from two buffers gives each buffer its own views") {
  const std::string first = kShader;
  const std::string second = kShader;  // same characters, another buffer
  const auto a = lex_glsl(first);
  const auto b = lex_glsl(second);
  check_same_tokens(a, b);
  for (const GlslToken& t : a) CHECK(inside(t.text, first));
  for (const GlslToken& t : b) CHECK(inside(t.text, second));
  for (const GlslToken& t : b) CHECK(std::string_view(second).substr(t.offset, t.text.size()) == t.text);
}

TEST_CASE("The lexer splits identifiers, numbers, punctuation and whole directive lines, skipping comments") {
  const std::string text = kShader;
  const auto tokens = lex_glsl(text);
  REQUIRE(tokens.size() > 3);
  CHECK(tokens[0].kind == GlslToken::Kind::Directive);
  CHECK(tokens[0].text == "#version 450");
  CHECK(tokens[1].text == "#extension GL_ARB_compute_variable_group_size : require");
  CHECK(tokens[2].kind == GlslToken::Kind::Identifier);
  CHECK(tokens[2].text == "layout");
  CHECK(tokens[2].line == 3);
  CHECK(tokens[2].column == 1);
  bool saw_hex = false, saw_float = false, saw_comment = false, saw_main = false;
  for (const GlslToken& t : tokens) {
    saw_hex |= t.kind == GlslToken::Kind::Number && t.text == "0x1Fu";
    saw_float |= t.kind == GlslToken::Kind::Number && t.text == ".5e-3";
    saw_comment |= t.text == "comment";
    if (t.text == "main") {
      saw_main = true;
      CHECK(t.line == 5);  // the block comment's line break counts
      CHECK(t.column == 6);
    }
  }
  CHECK(saw_hex);
  CHECK(saw_float);
  CHECK_FALSE(saw_comment);
  CHECK(saw_main);
}

TEST_CASE("A text lexes the same after many other texts") {
  const std::string text = kShader;
  const auto before = lex_glsl(text);
  for (int i = 0; i < 40; ++i) {
    const std::string other = "uint v" + std::to_string(i) + " = " + std::to_string(i) + "u;";
    const auto tokens = lex_glsl(other);
    REQUIRE(tokens.size() == 5);
    CHECK(tokens[1].text == "v" + std::to_string(i));
  }
  const std::string copy = kShader;
  const auto after = lex_glsl(copy);
  check_same_tokens(before, after);
  for (const GlslToken& t : after) CHECK(inside(t.text, copy));
}
