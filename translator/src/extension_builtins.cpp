#include "extension_builtins.hpp"

#include <algorithm>
#include <vector>

#include "glsl_lexer.hpp"
#include "version_rewrite.hpp"

namespace bismuth::translator {

namespace {

constexpr std::string_view kInt64 = "GL_ARB_gpu_shader_int64";

// The desktop version an ES shader's Vulkan compile is parsed at when it needs built-ins glslang has for desktop
// only: the lowest where glslang declares every one of them (the clocks, 4.50), and one that has everything GLSL ES
// 3.20 has for compute shaders.
constexpr int kEsCompileDesktopVersion = 450;

// One name glslang's Vulkan compile does not know, and the function of the same meaning it does know (never
// wider, so the replacement is padded with spaces).
struct Rename {
  std::string_view from;
  std::string_view to;
};

// One extension whose built-ins glslang lacks at some versions.
struct ShimmedExtension {
  std::string_view name;
  bool es = false;                      // the profile the extension belongs to
  bool glslang_knows_name = true;       // false: the directive is blanked and the macro defined by the front
  int first_version = 0;                // glslang declares the built-ins from this version (0: never)
  int last_version = 0;                 // ... up to this one (0: no upper bound)
  int compile_version = 0;              // the Vulkan compile parses at this version at least (0: any)
  bool declarations_use_int64 = false;  // the prototypes name int64 types
  std::string (*declarations)(bool doubles) = nullptr;  // doubles: the shader has double types
  std::vector<Rename> renames = {};                     // for the Vulkan compile
  std::string_view compile_extension = {};  // enabled in the Vulkan compile's preamble where the renames need it
  // GLSL ES too (a desktop entry whose spec allows ES; glslang declares it for desktop only): the ES check gets
  // `es_declarations` and stand-ins for `es_float_atomics`, the ES Vulkan compile is desktop GLSL at
  // kEsCompileDesktopVersion.
  bool es_through_desktop = false;
  std::string (*es_declarations)() = nullptr;
  std::vector<std::string_view> es_float_atomics = {};  // atomic memory functions the extension gives a float form
};

const char* const kVecSizes[] = {"", "2", "3", "4"};

// "T f(T a, ...)" for T in the scalar and vector forms of `scalar` / `vec` (float/vec, int/ivec, ...).
template <typename F>
void for_gen_types(std::string_view scalar, std::string_view vec, F&& f) {
  for (const char* n : kVecSizes) f(*n == '\0' ? std::string(scalar) : std::string(vec) + n);
}

// GL_ARB_shader_group_vote (GLSL 4.60 §8.18 keeps the same functions without the suffix).
std::string group_vote_declarations(bool) {
  return "bool anyInvocationARB(bool value);\n"
         "bool allInvocationsARB(bool value);\n"
         "bool allInvocationsEqualARB(bool value);\n";
}

// GL_EXT_shader_group_vote, the OpenGL ES extension with the same three functions.
std::string ext_group_vote_declarations(bool) {
  return "bool anyInvocationEXT(bool value);\n"
         "bool allInvocationsEXT(bool value);\n"
         "bool allInvocationsEqualEXT(bool value);\n";
}

// GL_ARB_shader_ballot: the functions, and its built-in variables as values of their types (the check only
// type-checks; they are not l-values there either).
std::string ballot_declarations(bool) {
  std::string d = "uint64_t ballotARB(bool value);\n";
  for (auto [scalar, vec] : {std::pair{"float", "vec"}, {"int", "ivec"}, {"uint", "uvec"}}) {
    for_gen_types(scalar, vec, [&](const std::string& t) {
      d += t + " readInvocationARB(" + t + " data, uint index);\n";
      d += t + " readFirstInvocationARB(" + t + " data);\n";
    });
  }
  d += "#define gl_SubGroupSizeARB uint(0u)\n#define gl_SubGroupInvocationARB uint(0u)\n";
  for (const char* mask : {"Eq", "Ge", "Gt", "Le", "Lt"}) {
    d += std::string("#define gl_SubGroup") + mask + "MaskARB uint64_t(0ul)\n";
  }
  return d;
}

// GL_ARB_gpu_shader_int64's built-in functions (its §8.3, 8.7 additions); those on doubles only where the shader
// has doubles (GLSL 4.00 or GL_ARB_gpu_shader_fp64).
std::string int64_declarations(bool doubles) {
  std::string d;
  for (auto [scalar, vec] : {std::pair{"int64_t", "i64vec"}, {"uint64_t", "u64vec"}}) {
    const bool is_signed = std::string_view(scalar) == "int64_t";
    for (const char* n : kVecSizes) {
      const std::string t = *n == '\0' ? std::string(scalar) : std::string(vec) + n;
      const std::string b = *n == '\0' ? "bool" : std::string("bvec") + n;
      const std::string dt = *n == '\0' ? "double" : std::string("dvec") + n;
      if (is_signed) d += t + " abs(" + t + " x);\n" + t + " sign(" + t + " x);\n";
      if (doubles && is_signed) {
        d += t + " doubleBitsToInt64(" + dt + " value);\n" + dt + " int64BitsToDouble(" + t + " value);\n";
      } else if (doubles) {
        d += t + " doubleBitsToUint64(" + dt + " value);\n" + dt + " uint64BitsToDouble(" + t + " value);\n";
      }
      d += t + " min(" + t + " x, " + t + " y);\n" + t + " max(" + t + " x, " + t + " y);\n";
      d += t + " clamp(" + t + " x, " + t + " minVal, " + t + " maxVal);\n";
      d += t + " mix(" + t + " x, " + t + " y, " + b + " a);\n";
      if (*n == '\0') continue;
      d += t + " min(" + t + " x, " + scalar + " y);\n" + t + " max(" + t + " x, " + scalar + " y);\n";
      d += t + " clamp(" + t + " x, " + scalar + " minVal, " + scalar + " maxVal);\n";
      for (const char* cmp : {"lessThan", "lessThanEqual", "greaterThan", "greaterThanEqual", "equal", "notEqual"}) {
        d += b + " " + cmp + "(" + t + " x, " + t + " y);\n";
      }
    }
  }
  d += "int64_t packInt2x32(ivec2 v);\nuint64_t packUint2x32(uvec2 v);\n";
  d += "ivec2 unpackInt2x32(int64_t v);\nuvec2 unpackUint2x32(uint64_t v);\n";
  return d;
}

// GL_NV_shader_atomic_int64 (and its Vulkan-GLSL twin GL_EXT_shader_atomic_int64): the atomic memory functions
// on 64-bit integers. The check cannot say "buffer or shared variable only" for them; the Vulkan compile, with
// glslang's own declarations, does.
std::string atomic_int64_declarations(bool) {
  std::string d;
  for (const char* t : {"int64_t", "uint64_t"}) {
    const std::string type(t);
    for (const char* f : {"Add", "Min", "Max", "And", "Or", "Xor", "Exchange"}) {
      d += type + " atomic" + f + "(inout " + type + " mem, " + type + " data);\n";
    }
    d += type + " atomicCompSwap(inout " + type + " mem, " + type + " compare, " + type + " data);\n";
  }
  return d;
}

// GL_ARB_shader_clock (its §8.19 "Timing Functions"); clockARB returns uint64_t, so the prototypes name int64.
std::string shader_clock_declarations(bool) {
  return "uvec2 clock2x32ARB();\nuint64_t clockARB();\n";
}

// GL_EXT_shader_realtime_clock: the same pair for the device-wide clock.
std::string realtime_clock_declarations(bool) {
  return "uvec2 clockRealtime2x32EXT();\nuint64_t clockRealtimeEXT();\n";
}

// The clocks' 32-bit forms for a GLSL ES check (GLSL ES has no 64-bit integer type, so no clockARB /
// clockRealtimeEXT there).
std::string es_shader_clock_declarations() {
  return "uvec2 clock2x32ARB();\n";
}
std::string es_realtime_clock_declarations() {
  return "uvec2 clockRealtime2x32EXT();\n";
}

// GLSL ES 3.20 §6.1: "It is a compile-time error to ... overload built-in functions", so the ES check cannot add
// a float atomicAdd beside glslang's integer ones. It calls every use of the function by a stand-in of the same
// width instead and declares the stand-in with the integer overloads of GLSL ES 3.20 §8.11 and the float one.
struct FloatAtomicStandIn {
  std::string_view builtin;
  std::string_view stand_in;
};
constexpr FloatAtomicStandIn kFloatAtomicStandIns[] = {
    {"atomicAdd", "bsm_AtAdd"},
    {"atomicMin", "bsm_AtMin"},
    {"atomicMax", "bsm_AtMax"},
    {"atomicExchange", "bsm_AtExchange"},
    {"atomicCompSwap", "bsm_AtCompSwap"},
};

std::string stand_in_declarations(const FloatAtomicStandIn& f) {
  std::string d;
  const bool compare = f.builtin == "atomicCompSwap";  // (mem, compare, data)
  for (const char* t : {"int", "uint", "float"}) {
    const std::string type(t), name(f.stand_in);
    d += type + " " + name + "(inout " + type + " mem, " + (compare ? type + " compare, " : std::string()) + type +
         " data);\n";
  }
  return d;
}

// INTEL_shader_atomic_float_minmax's atomicCompSwap on float, for a desktop GL-rules check (GLSL 4.60 lets a
// prototype overload a built-in; no glslang version declares this one).
constexpr std::string_view kFloatCompareSwapPrototype =
    "float atomicCompSwap(inout float mem, float compare, float data);\n";

// GL_EXT_shader_atomic_float (what GL_NV_shader_atomic_float becomes, nv_extension_rewrite.cpp): atomicAdd and
// atomicExchange on float. As for the 64-bit atomics, the Vulkan compile says "buffer or shared variable only".
std::string atomic_float_declarations(bool) {
  return "float atomicAdd(inout float mem, float data);\nfloat atomicExchange(inout float mem, float data);\n";
}

// GL_EXT_shader_atomic_float2 (what GL_INTEL_shader_atomic_float_minmax becomes, device_extensions.cpp): atomicMin
// and atomicMax on float; INTEL's atomicExchange comes from GL_EXT_shader_atomic_float, which the device check
// enables in the preamble, out of this scan's sight, so it is declared here too (a repeated prototype is allowed).
std::string atomic_float_minmax_declarations(bool) {
  return "float atomicMin(inout float mem, float data);\nfloat atomicMax(inout float mem, float data);\n"
         "float atomicExchange(inout float mem, float data);\n";
}

constexpr const char* kCounterOps[] = {"Add", "Subtract", "Min", "Max", "And", "Or", "Xor", "Exchange"};

// GL_ARB_shader_atomic_counter_ops (GLSL 4.60 §8.10 keeps them without the suffix).
std::string counter_ops_declarations(bool) {
  std::string d;
  for (const char* f : kCounterOps) d += std::string("uint atomicCounter") + f + "ARB(atomic_uint c, uint data);\n";
  d += "uint atomicCounterCompSwapARB(atomic_uint c, uint compare, uint data);\n";
  return d;
}

std::vector<Rename> counter_ops_renames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const char* f : kCounterOps) n.push_back(std::string("atomicCounter") + f);
    n.push_back("atomicCounterCompSwap");
    return n;
  }();
  static const std::vector<std::string> arb_names = [] {
    std::vector<std::string> n;
    for (const std::string& name : names) n.push_back(name + "ARB");
    return n;
  }();
  std::vector<Rename> renames;
  for (size_t i = 0; i < names.size(); ++i) renames.push_back({arb_names[i], names[i]});
  return renames;
}

const std::vector<ShimmedExtension>& shimmed_extensions() {
  static const std::vector<ShimmedExtension> table = {
      {.name = "GL_ARB_shader_group_vote",
       .first_version = 430,
       .compile_version = 430,
       .declarations = group_vote_declarations},
      {.name = "GL_ARB_shader_ballot",
       .first_version = 450,
       .compile_version = 450,
       .declarations_use_int64 = true,
       .declarations = ballot_declarations},
      {.name = kInt64,
       .first_version = 450,
       .compile_version = 450,
       .declarations_use_int64 = true,
       .declarations = int64_declarations},
      {.name = "GL_NV_shader_atomic_int64",
       .first_version = 440,
       .compile_version = 440,
       .declarations_use_int64 = true,
       .declarations = atomic_int64_declarations},
      {.name = "GL_EXT_shader_atomic_int64",
       .first_version = 440,
       .compile_version = 440,
       .declarations_use_int64 = true,
       .declarations = atomic_int64_declarations},
      // glslang declares the ARB names for GL at 450 only, and its relaxed Vulkan rules turn only the core
      // names (GLSL 4.60) into storage-buffer atomics.
      {.name = "GL_ARB_shader_atomic_counter_ops",
       .first_version = 450,
       .last_version = 450,
       .compile_version = 460,
       .declarations = counter_ops_declarations,
       .renames = counter_ops_renames()},
      // glslang declares the clocks for desktop GLSL from 450 only (never for ES), the float atomics from 440.
      // GLSL ES (EXT_shader_realtime_clock revision 3: ESSL 3.10; INTEL_shader_atomic_float_minmax: "OpenGL ES 3.1
      // ... is required"): the ES Vulkan compile is desktop GLSL 4.50, where glslang has them all.
      {.name = "GL_ARB_shader_clock",
       .first_version = 450,
       .compile_version = 450,
       .declarations_use_int64 = true,
       .declarations = shader_clock_declarations,
       .es_through_desktop = true,
       .es_declarations = es_shader_clock_declarations},
      {.name = "GL_EXT_shader_realtime_clock",
       .first_version = 450,
       .compile_version = 450,
       .declarations_use_int64 = true,
       .declarations = realtime_clock_declarations,
       .es_through_desktop = true,
       .es_declarations = es_realtime_clock_declarations},
      {.name = "GL_EXT_shader_atomic_float",
       .first_version = 440,
       .compile_version = 440,
       .declarations = atomic_float_declarations,
       .es_through_desktop = true,
       .es_float_atomics = {"atomicAdd", "atomicExchange"}},
      {.name = "GL_EXT_shader_atomic_float2",
       .first_version = 440,
       .compile_version = 440,
       .declarations = atomic_float_minmax_declarations,
       .es_through_desktop = true,
       .es_float_atomics = {"atomicMin", "atomicMax", "atomicExchange"}},
      // GL_ARB_arrays_of_arrays (GLSL 1.20+; core in 4.30): glslang does not know the name; it allows arrays of
      // arrays from 430, which the version rewrite raises a shader that enables it to. No built-ins.
      {.name = "GL_ARB_arrays_of_arrays", .glslang_knows_name = false},
      {.name = "GL_EXT_shader_group_vote",
       .es = true,
       .glslang_knows_name = false,
       .declarations = ext_group_vote_declarations,
       .renames = {{"anyInvocationEXT", "subgroupAny"},
                   {"allInvocationsEXT", "subgroupAll"},
                   {"allInvocationsEqualEXT", "subgroupAllEqual"}},
       .compile_extension = "GL_KHR_shader_subgroup_vote"},
  };
  return table;
}

struct Directive {
  const GlslToken* token;
  std::string_view name;
  bool enables;  // enable, require or warn
};

std::vector<Directive> extension_directives(const std::vector<GlslToken>& tokens) {
  std::vector<Directive> directives;
  for (const GlslToken& token : tokens) {
    if (token.kind != GlslToken::Kind::Directive) continue;
    const std::vector<GlslToken> parts = lex_glsl(token.text.substr(1));
    if (parts.size() != 4 || parts[0].text != "extension" || parts[2].text != ":") continue;
    const std::string_view behavior = parts[3].text;
    directives.push_back({&token, parts[1].text, behavior == "enable" || behavior == "require" || behavior == "warn"});
  }
  return directives;
}

// The extension is on at the end of the shader: its last directive enables it. (Built-ins are declared once for
// the whole shader; glslang and the rules of each parse see the user's directives where the user wrote them.)
bool enabled_anywhere(const std::vector<Directive>& directives, std::string_view name) {
  bool on = false;
  for (const Directive& d : directives) {
    if (d.name == name) on = d.enables;
  }
  return on;
}

bool glslang_declares(const ShimmedExtension& e, int version) {
  return e.first_version != 0 && version >= e.first_version && (e.last_version == 0 || version <= e.last_version);
}

// Each identifier of `tokens` (the lexed `text`) that `renames` names — in code and in the bodies of #define
// directives, where a macro may call the function — replaced by its new name padded with spaces to the same width
// (so offsets stay valid in any order).
void apply_renames(std::string& text, const std::vector<GlslToken>& tokens, const std::vector<Rename>& renames) {
  if (renames.empty()) return;
  auto rename_at = [&](size_t offset, std::string_view name) {
    auto rename = std::find_if(renames.begin(), renames.end(), [&](const Rename& r) { return r.from == name; });
    if (rename == renames.end()) return;
    std::string replacement(rename->to);
    replacement.resize(rename->from.size(), ' ');
    text.replace(offset, name.size(), replacement);
  };
  for (const GlslToken& token : tokens) {
    if (token.kind == GlslToken::Kind::Identifier) {
      rename_at(token.offset, token.text);
    } else if (token.kind == GlslToken::Kind::Directive) {
      const std::vector<GlslToken> parts = lex_glsl(token.text.substr(1));
      if (parts.empty() || parts[0].text != "define") continue;
      for (size_t i = 2; i < parts.size(); ++i) {  // after the macro's own name
        if (parts[i].kind == GlslToken::Kind::Identifier) rename_at(token.offset + 1 + parts[i].offset, parts[i].text);
      }
    }
  }
}

void blank(std::string& text, size_t offset, size_t length) {
  text.replace(offset, length, std::string(length, ' '));
}

}  // namespace

ExtensionBuiltins shim_extension_builtins(std::string_view source, int glslang_version, int user_version, bool es,
                                          bool float_compare_swap) {
  ExtensionBuiltins result;
  result.check_source = std::string(source);
  result.compile_source = std::string(source);
  result.compile_version = glslang_version;
  if (glslang_version == 0) return result;  // no #version glslang reads: it reports that itself

  const std::vector<GlslToken> tokens = lex_glsl(source);
  const std::vector<Directive> directives = extension_directives(tokens);
  std::string declarations;
  bool declarations_use_int64 = false;
  const bool doubles = !es && (user_version >= 400 || enabled_anywhere(directives, "GL_ARB_gpu_shader_fp64"));
  std::vector<Rename> renames;
  std::vector<Rename> check_renames;  // GLSL ES float atomics: the built-in -> its stand-in
  for (const ShimmedExtension& e : shimmed_extensions()) {
    const bool applies = es ? (e.es || e.es_through_desktop) : !e.es;
    if (!applies || !enabled_anywhere(directives, e.name)) continue;
    if (es && e.es_through_desktop) {
      if (e.es_declarations != nullptr) declarations += e.es_declarations();
      std::vector<std::string_view> float_atomics = e.es_float_atomics;
      if (float_compare_swap && e.name == "GL_EXT_shader_atomic_float2") float_atomics.push_back("atomicCompSwap");
      for (std::string_view f : float_atomics) {
        auto stand_in = std::find_if(std::begin(kFloatAtomicStandIns), std::end(kFloatAtomicStandIns),
                                     [&](const FloatAtomicStandIn& s) { return s.builtin == f; });
        const bool seen =
            std::any_of(check_renames.begin(), check_renames.end(), [&](const Rename& r) { return r.from == f; });
        if (stand_in == std::end(kFloatAtomicStandIns) || seen) continue;
        check_renames.push_back({stand_in->builtin, stand_in->stand_in});
        result.check_stand_ins.emplace_back(stand_in->stand_in, stand_in->builtin);
        declarations += stand_in_declarations(*stand_in);
      }
      result.compile_as_desktop = true;
      continue;
    }
    if (!e.glslang_knows_name) {
      const std::string macro = "#define " + std::string(e.name) + " 1\n";
      result.check_preamble += macro;
      result.compile_preamble += macro;
      for (const Directive& d : directives) {
        if (d.name != e.name) continue;
        blank(result.check_source, d.token->offset, d.token->text.size());
        blank(result.compile_source, d.token->offset, d.token->text.size());
      }
    }
    if (e.declarations != nullptr && !glslang_declares(e, glslang_version)) {
      declarations += e.declarations(doubles);
      declarations_use_int64 |= e.declarations_use_int64;
    }
    if (float_compare_swap && e.name == "GL_EXT_shader_atomic_float2") declarations += kFloatCompareSwapPrototype;
    if (!es && e.compile_version > result.compile_version) result.compile_version = e.compile_version;
    renames.insert(renames.end(), e.renames.begin(), e.renames.end());
    if (!e.compile_extension.empty()) {
      result.compile_preamble += "#extension " + std::string(e.compile_extension) + " : enable\n";
    }
  }
  if (declarations_use_int64) {
    // The prototypes need the int64 types; the shader's own directives decide whether it may name them.
    declarations = "#extension " + std::string(kInt64) + " : enable\n" + declarations + "#extension " +
                   std::string(kInt64) + " : disable\n";
  }
  result.check_declarations = std::move(declarations);

  // glslang's relaxed Vulkan rules turn atomicCounterDecrement(c) into atomicAdd(c, -1) - 1 with int constants,
  // which GLSL ES (no implicit int -> uint conversion) rejects. The GL check has applied ES's rules already.
  if (es && std::any_of(tokens.begin(), tokens.end(), [](const GlslToken& t) {
        return t.kind == GlslToken::Kind::Identifier && t.text == "atomicCounterDecrement";
      })) {
    result.compile_preamble += "#extension GL_EXT_shader_implicit_conversions : enable\n";
  }

  apply_renames(result.compile_source, tokens, renames);
  apply_renames(result.check_source, tokens, check_renames);
  if (result.compile_as_desktop) {
    // Desktop GLSL does not define GL_ES (GLSL ES 3.20 §3.4 does); the ES shader may test it.
    result.compile_preamble += "#define GL_ES 1\n";
    result.compile_version = kEsCompileDesktopVersion;
    result.compile_source = set_glslang_desktop_version(result.compile_source, result.compile_version, user_version);
  } else if (result.compile_version != glslang_version) {
    result.compile_source = set_glslang_version(result.compile_source, result.compile_version, user_version);
  }
  return result;
}

std::string restore_builtin_names(std::string message, const ExtensionBuiltins& builtins) {
  for (const auto& [stand_in, builtin] : builtins.check_stand_ins) {
    for (size_t at = message.find(stand_in); at != std::string::npos; at = message.find(stand_in, at)) {
      message.replace(at, stand_in.size(), builtin);
      at += builtin.size();
    }
  }
  return message;
}

}  // namespace bismuth::translator
