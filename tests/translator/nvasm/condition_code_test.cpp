// Condition codes against NV_gpu_program4's rules, row by row. The flags each .CC instruction sets are computed
// here from the spec's words (section "Condition Code Registers": a float result sets SF when it is negative or
// NaN and ZF when it is zero or NaN, OF and CF cleared; an integer result sets SF from its sign bit and ZF when it
// is zero, and the additions set OF on signed overflow and CF on a carry out, a subtraction CF when there is no
// borrow), and each test of Table X.16 "Condition code tests" is evaluated from its expression:
//   EQ  !SF && ZF            NE  SF || !ZF            LT  (SF && !ZF) ^ OF     GE  !(SF ^ OF)
//   LE  SF ^ (ZF || OF)      GT  (!SF ^ OF) && !ZF    NAN SF && ZF             LEG !SF || !ZF
//   CF  CF     NCF !CF       OF  OF     NOF !OF       AB  CF && !ZF            BLE !CF || ZF
//   SF  SF     NSF !SF       ZF  ZF     NZF !ZF       TR  true                 FL  false
// with a 0 or 1 suffix naming CC0 or CC1. The device must pass every row for every state.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <sstream>

#include "program_runner.hpp"

using namespace bismuth::test::nvasm_run;

namespace {

struct Flags {
  bool sf = false, zf = false, of = false, cf = false;
};

Flags float_flags(float v) {
  Flags f;
  f.sf = v < 0.0f || std::isnan(v);
  f.zf = v == 0.0f || std::isnan(v);
  return f;
}

Flags int_flags(uint32_t r) {
  Flags f;
  f.sf = (r >> 31) != 0;
  f.zf = r == 0;
  return f;
}

// r = a + b: OF when both operands have the sign r lacks, CF on a carry out of bit 31.
Flags add_flags(uint32_t a, uint32_t b) {
  const uint32_t r = a + b;
  Flags f = int_flags(r);
  f.of = (((a ^ r) & (b ^ r)) >> 31) != 0;
  f.cf = r < a;
  return f;
}

// r = a - b: OF when the operands' signs differ and r's differs from a's, CF when there is no borrow (a >= b).
Flags sub_flags(uint32_t a, uint32_t b) {
  const uint32_t r = a - b;
  Flags f = int_flags(r);
  f.of = (((a ^ r) & (a ^ b)) >> 31) != 0;
  f.cf = a >= b;
  return f;
}

struct Rule {
  const char* name;
  std::function<bool(const Flags&)> passes;
};

const std::vector<Rule>& rules() {
  static const std::vector<Rule> table = {
      {"EQ", [](const Flags& f) { return !f.sf && f.zf; }},
      {"NE", [](const Flags& f) { return f.sf || !f.zf; }},
      {"LT", [](const Flags& f) { return (f.sf && !f.zf) != f.of; }},
      {"GE", [](const Flags& f) { return !(f.sf != f.of); }},
      {"LE", [](const Flags& f) { return f.sf != (f.zf || f.of); }},
      {"GT", [](const Flags& f) { return (!f.sf != f.of) && !f.zf; }},
      {"NAN", [](const Flags& f) { return f.sf && f.zf; }},
      {"LEG", [](const Flags& f) { return !f.sf || !f.zf; }},
      {"CF", [](const Flags& f) { return f.cf; }},
      {"NCF", [](const Flags& f) { return !f.cf; }},
      {"OF", [](const Flags& f) { return f.of; }},
      {"NOF", [](const Flags& f) { return !f.of; }},
      {"AB", [](const Flags& f) { return f.cf && !f.zf; }},
      {"BLE", [](const Flags& f) { return !f.cf || f.zf; }},
      {"SF", [](const Flags& f) { return f.sf; }},
      {"NSF", [](const Flags& f) { return !f.sf; }},
      {"ZF", [](const Flags& f) { return f.zf; }},
      {"NZF", [](const Flags& f) { return !f.zf; }},
      {"TR", [](const Flags&) { return true; }},
      {"FL", [](const Flags&) { return false; }},
  };
  return table;
}

// One way of setting the flags of component x: instructions writing R0.x with `$CC` where the .CC modifier goes,
// and the flags the spec gives.
struct State {
  std::string what;
  std::string code;
  Flags flags;
};

std::vector<State> states() {
  const uint32_t min_int = 0x80000000u, max_int = 0x7FFFFFFFu;
  return {
      {"float positive", "ADD.F$CC R0.x, {1.5}.x, {0.25}.x;\n", float_flags(1.75f)},
      {"float -0.0 (zero, not negative)", "MUL.F$CC R0.x, {0}.x, {-1}.x;\n", float_flags(-0.0f)},
      {"float negative", "ADD.F$CC R0.x, {-1}.x, {0.5}.x;\n", float_flags(-0.5f)},
      {"float NaN", "MOV.F R1.x, {0}.x;\nDIV.F$CC R0.x, R1.x, R1.x;\n", float_flags(std::nanf(""))},
      {"ADD.S overflow to negative", "ADD.S$CC R0.x, R1.y, {1}.x;\n", add_flags(max_int, 1)},
      {"ADD.S overflow to zero", "ADD.S$CC R0.x, R1.z, R1.z;\n", add_flags(min_int, min_int)},
      {"ADD.U carry to zero", "ADD.U$CC R0.x, R1.w, {1}.x;\n", add_flags(0xFFFFFFFFu, 1)},
      {"ADD.U carry, negative", "ADD.U$CC R0.x, R1.w, R1.w;\n", add_flags(0xFFFFFFFFu, 0xFFFFFFFFu)},
      {"ADD.S overflow to positive with carry", "ADD.S$CC R0.x, R1.z, R1.w;\n", add_flags(min_int, 0xFFFFFFFFu)},
      {"SUB.S positive, no borrow", "SUB.S$CC R0.x, {5}.x, {3}.x;\n", sub_flags(5, 3)},
      {"SUB.S negative, borrow", "SUB.S$CC R0.x, {3}.x, {5}.x;\n", sub_flags(3, 5)},
      {"SUB.S overflow", "SUB.S$CC R0.x, R1.z, {1}.x;\n", sub_flags(min_int, 1)},
      {"SUB.U equal", "SUB.U$CC R0.x, {7}.x, {7}.x;\n", sub_flags(7, 7)},
      // "Other instructions clear OF and CF": a MOV after an overflowing ADD leaves only ZF.
      {"MOV.S after ADD.S overflow", "ADD.S$CC R0.x, R1.z, R1.z;\nMOV.S$CC R0.x, {0}.x;\n", int_flags(0)},
  };
}

}  // namespace

TEST_CASE("condition codes: every test of NV_gpu_program4 Table X.16 on every kind of flags, CC0 and CC1",
          "[nvasm][cc]") {
  const auto& table = rules();
  const auto all = states();
  // Three spellings: .CC with plain tests, .CC1 with the 1 suffix, .CC0 with the 0 suffix.
  const char* modifiers[3] = {".CC", ".CC1", ".CC0"};
  const char* suffixes[3] = {"", "1", "0"};
  std::ostringstream body;
  body << "MOV.U R1, {0, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF};\n";
  uint32_t word = 0;
  for (size_t s = 0; s < all.size(); ++s) {
    const int v = static_cast<int>(s % 3);
    std::string code = all[s].code;
    for (size_t at; (at = code.find("$CC")) != std::string::npos;) code.replace(at, 3, modifiers[v]);
    body << code;
    for (const Rule& rule : table) {
      body << "MOV.U R2.x, {0}.x;\nMOV.U R2.x (" << rule.name << suffixes[v] << ".x), {1}.x;\n"
           << "STB.U32 R2.x, out[" << 4 * word++ << "];\n";
    }
  }
  Run r;
  r.source = single(body.str());
  r.words = word;
  const auto out = run(r);
  word = 0;
  for (size_t s = 0; s < all.size(); ++s) {
    const Flags& f = all[s].flags;
    for (const Rule& rule : table) {
      INFO(all[s].what << " (SF " << f.sf << " ZF " << f.zf << " OF " << f.of << " CF " << f.cf << "), " << rule.name
                       << suffixes[s % 3]);
      CHECK(out[word++] == (rule.passes(f) ? 1u : 0u));
    }
  }
}

TEST_CASE("condition codes: integer MAD.CC sets OF and CF from its final addition", "[nvasm][cc]") {
  // MAD computes a * b + c; the product's low 32 bits then add to c, and .CC reports that addition as ADD.CC does.
  struct Case {
    const char* type;
    uint32_t a, b, c;
  };
  const std::vector<Case> cases = {
      {"S", 0x10000u, 0x8000u, 0x80000000u},  // 0x80000000 + 0x80000000: 0, overflow and carry
      {"U", 0xFFFFu, 0x10001u, 1u},           // 0xFFFFFFFF + 1: 0, carry only
      {"S", 0x40000000u, 1u, 0x40000000u},    // 0x40000000 + 0x40000000: negative, overflow, no carry
      {"S", 3u, 0xFFFFFFFFu, 5u},             // -3 + 5 = 2: carry (unsigned wrap), no overflow
      {"U", 7u, 6u, 8u},                      // 50: nothing
  };
  const char* tests[4] = {"SF", "ZF", "OF", "CF"};
  std::ostringstream body;
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    body << "MOV.U R1, {" << c.a << ", " << c.b << ", " << c.c << ", 0};\n"
         << "MAD." << c.type << ".CC R0.x, R1.x, R1.y, R1.z;\nMOV.U R2, {0, 0, 0, 0};\n";
    const char* components = "xyzw";
    for (int t = 0; t < 4; ++t) body << "MOV.U R2." << components[t] << " (" << tests[t] << ".x), {1}.x;\n";
    body << "STB.U32X4 R2, out[" << 16 * i << "];\nSTB.U32 R0.x, out[" << 16 * cases.size() + 4 * i << "];\n";
  }
  Run r;
  r.source = single(body.str());
  r.words = static_cast<uint32_t>(5 * cases.size());
  const auto out = run(r);
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    const uint32_t product = c.a * c.b;
    const Flags f = add_flags(product, c.c);
    INFO("MAD." << c.type << " " << c.a << " * " << c.b << " + " << c.c);
    CHECK(out[4 * cases.size() + i] == product + c.c);
    CHECK(out[4 * i + 0] == uint32_t(f.sf));
    CHECK(out[4 * i + 1] == uint32_t(f.zf));
    CHECK(out[4 * i + 2] == uint32_t(f.of));
    CHECK(out[4 * i + 3] == uint32_t(f.cf));
  }
}
