#include "device_extensions.hpp"

#include <algorithm>
#include <array>

#include "bismuth/spirv_patch/module.hpp"
#include "glsl_lexer.hpp"

namespace bismuth::translator {

namespace {

// VK_SUBGROUP_FEATURE_* bits, equal to GL's SUBGROUP_FEATURE_*_BIT_KHR (common has no Vulkan header).
constexpr uint32_t kSubgroupBasic = 0x01, kSubgroupVote = 0x02, kSubgroupArithmetic = 0x04, kSubgroupBallot = 0x08,
                   kSubgroupShuffle = 0x10, kSubgroupShuffleRelative = 0x20, kSubgroupClustered = 0x40,
                   kSubgroupQuad = 0x80;

struct DeviceGatedExtension {
  std::string_view name;
  bool (*supported)(const ShaderExtensionSupport&);
  std::string_view needs;             // the device feature, for the message
  bool glslang_defines_macro = true;  // glslang predefines the extension's macro (it knows the extension)
};

template <uint32_t Bit>
bool has_subgroup_feature(const ShaderExtensionSupport& s) {
  return (s.subgroup_features & Bit) != 0;
}

constexpr std::array kGatedExtensions = {
    DeviceGatedExtension{"GL_ARB_shader_clock", [](const ShaderExtensionSupport& s) { return s.subgroup_clock; },
                         "shaderSubgroupClock (VK_KHR_shader_clock)"},
    DeviceGatedExtension{"GL_EXT_shader_realtime_clock", [](const ShaderExtensionSupport& s) { return s.device_clock; },
                         "shaderDeviceClock (VK_KHR_shader_clock)"},
    DeviceGatedExtension{"GL_NV_shader_atomic_float",
                         [](const ShaderExtensionSupport& s) { return s.float32_atomic_add; },
                         "32-bit float atomic add and exchange on buffer and shared variables "
                         "(VK_EXT_shader_atomic_float)",
                         false},
    DeviceGatedExtension{"GL_EXT_shader_atomic_float",
                         [](const ShaderExtensionSupport& s) { return s.float32_atomic_add; },
                         "32-bit float atomic add and exchange on buffer and shared variables "
                         "(VK_EXT_shader_atomic_float)"},
    DeviceGatedExtension{"GL_INTEL_shader_atomic_float_minmax",
                         [](const ShaderExtensionSupport& s) { return s.float32_atomic_min_max; },
                         "32-bit float atomic min, max and exchange on buffer and shared variables "
                         "(VK_EXT_shader_atomic_float2, VK_EXT_shader_atomic_float)",
                         false},
    DeviceGatedExtension{"GL_EXT_shader_atomic_float2",
                         [](const ShaderExtensionSupport& s) { return s.float32_atomic_min_max; },
                         "32-bit float atomic min, max and exchange on buffer and shared variables "
                         "(VK_EXT_shader_atomic_float2, VK_EXT_shader_atomic_float)"},
    DeviceGatedExtension{"GL_NV_compute_shader_derivatives",
                         [](const ShaderExtensionSupport& s) { return s.compute_derivatives; },
                         "computeDerivativeGroupQuads and computeDerivativeGroupLinear "
                         "(VK_NV_compute_shader_derivatives)"},
    DeviceGatedExtension{"GL_EXT_shader_image_load_formatted",
                         [](const ShaderExtensionSupport& s) { return s.image_read_without_format; },
                         "shaderStorageImageReadWithoutFormat"},
    DeviceGatedExtension{"GL_KHR_shader_subgroup_basic", has_subgroup_feature<kSubgroupBasic>,
                         "VK_SUBGROUP_FEATURE_BASIC_BIT in compute"},
    DeviceGatedExtension{"GL_KHR_shader_subgroup_vote", has_subgroup_feature<kSubgroupVote>,
                         "VK_SUBGROUP_FEATURE_VOTE_BIT in compute"},
    DeviceGatedExtension{"GL_KHR_shader_subgroup_arithmetic", has_subgroup_feature<kSubgroupArithmetic>,
                         "VK_SUBGROUP_FEATURE_ARITHMETIC_BIT in compute"},
    DeviceGatedExtension{"GL_KHR_shader_subgroup_ballot", has_subgroup_feature<kSubgroupBallot>,
                         "VK_SUBGROUP_FEATURE_BALLOT_BIT in compute"},
    DeviceGatedExtension{"GL_KHR_shader_subgroup_shuffle", has_subgroup_feature<kSubgroupShuffle>,
                         "VK_SUBGROUP_FEATURE_SHUFFLE_BIT in compute"},
    DeviceGatedExtension{"GL_KHR_shader_subgroup_shuffle_relative", has_subgroup_feature<kSubgroupShuffleRelative>,
                         "VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT in compute"},
    DeviceGatedExtension{"GL_KHR_shader_subgroup_clustered", has_subgroup_feature<kSubgroupClustered>,
                         "VK_SUBGROUP_FEATURE_CLUSTERED_BIT in compute"},
    DeviceGatedExtension{"GL_KHR_shader_subgroup_quad", has_subgroup_feature<kSubgroupQuad>,
                         "VK_SUBGROUP_FEATURE_QUAD_BIT in compute"},
};

// What a conditional directive tests instead of an unsupported extension's macro.
constexpr std::string_view kUndefinedPrefix = "BISMUTH_UNSUPPORTED_";

bool is_conditional(std::string_view directive) {
  return directive == "if" || directive == "ifdef" || directive == "ifndef" || directive == "elif";
}

const DeviceGatedExtension* find_gated(std::string_view name) {
  auto it = std::find_if(kGatedExtensions.begin(), kGatedExtensions.end(),
                         [&](const DeviceGatedExtension& e) { return e.name == name; });
  return it == kGatedExtensions.end() ? nullptr : &*it;
}

}  // namespace

DeviceExtensionCheck check_device_extensions(std::string_view source, const ShaderExtensionSupport& support,
                                             std::string_view source_name) {
  DeviceExtensionCheck result;
  result.source = std::string(source);
  struct Edit {
    size_t offset;
    size_t length;
    std::string text;
  };
  std::vector<Edit> edits;  // in source order; applied back to front
  bool exchange_for_intel = false;

  for (const GlslToken& token : lex_glsl(source)) {
    if (token.kind != GlslToken::Kind::Directive) continue;
    std::vector<GlslToken> parts = lex_glsl(token.text.substr(1));
    if (!parts.empty() && is_conditional(parts[0].text)) {
      // Each extension spec's "New preprocessor #defines" ("#define GL_<name> 1") holds where the extension is
      // supported; an unsupported one has no macro. glslang predefines every extension it knows and refuses to
      // #undef a "GL_" name, so conditionals that test an unsupported one test a name nothing defines instead.
      for (size_t i = 1; i < parts.size(); ++i) {
        const DeviceGatedExtension* gated = find_gated(parts[i].text);
        if (gated == nullptr || gated->supported(support) || !gated->glslang_defines_macro) continue;
        edits.push_back({token.offset + 1 + parts[i].offset, parts[i].text.size(),
                         std::string(kUndefinedPrefix) + std::string(parts[i].text)});
      }
      continue;
    }
    if (parts.size() != 4 || parts[0].text != "extension" || parts[2].text != ":") continue;
    const DeviceGatedExtension* gated = find_gated(parts[1].text);
    if (gated == nullptr) continue;
    const std::string_view behavior = parts[3].text;
    // A behavior GLSL does not have is glslang's error to report.
    if (behavior != "require" && behavior != "enable" && behavior != "warn" && behavior != "disable") continue;
    const size_t name_offset = token.offset + 1 + parts[1].offset;
    const int name_column = token.column + 1 + parts[1].column - 1;
    if (gated->supported(support)) {
      if (gated->name == "GL_INTEL_shader_atomic_float_minmax") {
        // glslang has the same functions under GL_EXT_shader_atomic_float2 (min, max) and
        // GL_EXT_shader_atomic_float (exchange); the latter goes into the preamble, the line has room for one.
        edits.push_back({name_offset, gated->name.size(), "GL_EXT_shader_atomic_float2"});
        exchange_for_intel = exchange_for_intel || behavior != "disable";
        result.float_compare_swap_asked = exchange_for_intel;
      }
      continue;
    }
    // GLSL 4.60 §3.3: "require ... Give a compile-time error on the #extension if the extension extension_name is
    // not supported"; "enable ... Warn on the #extension if the extension extension_name is not supported";
    // warn and disable likewise warn.
    const bool required = behavior == "require";
    result.diagnostics.push_back({required ? Diagnostic::Severity::Error : Diagnostic::Severity::Warning,
                                  std::string(source_name), token.line, name_column,
                                  "extension '" + std::string(gated->name) +
                                      "' is not supported on this device: it needs " + std::string(gated->needs)});
    // Not supported means not enabled: glslang must not see the directive (spaces and newlines keep every position).
    std::string blank(token.text);
    std::replace_if(
        blank.begin(), blank.end(), [](char c) { return c != '\n'; }, ' ');
    edits.push_back({token.offset, token.text.size(), std::move(blank)});
  }
  for (auto edit = edits.rbegin(); edit != edits.rend(); ++edit) {
    result.source.replace(edit->offset, edit->length, edit->text);
  }
  // The macros of supported extensions: glslang lacks some (GL_ARB_shader_clock, the ones it does not know); an
  // identical redefinition of the others is no error.
  for (const DeviceGatedExtension& e : kGatedExtensions) {
    if (e.supported(support)) result.preamble += "#define " + std::string(e.name) + " 1\n";
  }
  if (exchange_for_intel) result.preamble += "#extension GL_EXT_shader_atomic_float : enable\n";
  return result;
}

namespace {

struct Int64AtomicUse {
  bool buffer = false;  // on storage buffers
  bool shared = false;  // on Workgroup variables
};

bool is_atomic(spv::Op op) {
  switch (op) {
    case spv::Op::OpAtomicLoad:
    case spv::Op::OpAtomicStore:
    case spv::Op::OpAtomicExchange:
    case spv::Op::OpAtomicCompareExchange:
    case spv::Op::OpAtomicCompareExchangeWeak:
    case spv::Op::OpAtomicIIncrement:
    case spv::Op::OpAtomicIDecrement:
    case spv::Op::OpAtomicIAdd:
    case spv::Op::OpAtomicISub:
    case spv::Op::OpAtomicSMin:
    case spv::Op::OpAtomicUMin:
    case spv::Op::OpAtomicSMax:
    case spv::Op::OpAtomicUMax:
    case spv::Op::OpAtomicAnd:
    case spv::Op::OpAtomicOr:
    case spv::Op::OpAtomicXor: return true;
    default: return false;
  }
}

// Where the module's 64-bit integer atomics act: the storage class of each atomic's pointer (the result type of the
// instruction that defines it) whose pointee is a 64-bit integer.
Int64AtomicUse int64_atomic_use(const spirv_patch::Module& m) {
  Int64AtomicUse use;
  for (spirv_patch::InstructionHandle h : m.instructions(spirv_patch::Section::Function)) {
    const spv::Op op = m.opcode(h);
    const auto w = m.words(h);
    if (!is_atomic(op)) continue;
    const size_t pointer_word = op == spv::Op::OpAtomicStore ? 1 : 3;  // OpAtomicStore has no result
    if (w.size() <= pointer_word) continue;
    auto pointer = m.definition(w[pointer_word]);
    if (!pointer || m.words(*pointer).size() < 2) continue;
    auto pointer_type = m.definition(m.words(*pointer)[1]);
    if (!pointer_type || m.opcode(*pointer_type) != spv::Op::OpTypePointer) continue;
    auto pointee = m.definition(m.words(*pointer_type)[3]);
    if (!pointee || m.opcode(*pointee) != spv::Op::OpTypeInt || m.words(*pointee)[2] != 64) continue;
    const auto storage = static_cast<spv::StorageClass>(m.words(*pointer_type)[2]);
    use.buffer |= storage == spv::StorageClass::StorageBuffer || storage == spv::StorageClass::Uniform ||
                  storage == spv::StorageClass::PhysicalStorageBuffer;
    use.shared |= storage == spv::StorageClass::Workgroup;
  }
  return use;
}

}  // namespace

std::optional<std::string> unbacked_capability(std::span<const uint32_t> spirv, const ShaderExtensionSupport& support) {
  struct Needed {
    spv::Capability capability;
    const char* name;
    bool backed;
    const char* needs;
  };
  const auto subgroup = [&](uint32_t bit) { return (support.subgroup_features & bit) != 0; };
  const Needed needed[] = {
      {spv::Capability::ShaderClockKHR, "ShaderClockKHR", support.subgroup_clock || support.device_clock,
       "shaderSubgroupClock or shaderDeviceClock"},
      {spv::Capability::AtomicFloat32AddEXT, "AtomicFloat32AddEXT", support.float32_atomic_add,
       "shaderBufferFloat32AtomicAdd and shaderSharedFloat32AtomicAdd"},
      {spv::Capability::AtomicFloat32MinMaxEXT, "AtomicFloat32MinMaxEXT", support.float32_atomic_min_max,
       "shaderBufferFloat32AtomicMinMax and shaderSharedFloat32AtomicMinMax"},
      // 16- and 64-bit float atomics: no GL extension here asks for them and the device never gets them enabled.
      {spv::Capability::AtomicFloat64AddEXT, "AtomicFloat64AddEXT", false, "64-bit float atomic add"},
      {spv::Capability::AtomicFloat16AddEXT, "AtomicFloat16AddEXT", false, "16-bit float atomic add"},
      {spv::Capability::AtomicFloat64MinMaxEXT, "AtomicFloat64MinMaxEXT", false, "64-bit float atomic min/max"},
      {spv::Capability::AtomicFloat16MinMaxEXT, "AtomicFloat16MinMaxEXT", false, "16-bit float atomic min/max"},
      {spv::Capability::ComputeDerivativeGroupQuadsNV, "ComputeDerivativeGroupQuadsNV", support.compute_derivatives,
       "computeDerivativeGroupQuads"},
      {spv::Capability::ComputeDerivativeGroupLinearNV, "ComputeDerivativeGroupLinearNV", support.compute_derivatives,
       "computeDerivativeGroupLinear"},
      {spv::Capability::StorageImageReadWithoutFormat, "StorageImageReadWithoutFormat",
       support.image_read_without_format, "shaderStorageImageReadWithoutFormat"},
      {spv::Capability::StorageImageWriteWithoutFormat, "StorageImageWriteWithoutFormat",
       support.image_write_without_format, "shaderStorageImageWriteWithoutFormat"},
      {spv::Capability::GroupNonUniform, "GroupNonUniform", subgroup(kSubgroupBasic), "VK_SUBGROUP_FEATURE_BASIC_BIT"},
      {spv::Capability::GroupNonUniformVote, "GroupNonUniformVote", subgroup(kSubgroupVote),
       "VK_SUBGROUP_FEATURE_VOTE_BIT"},
      {spv::Capability::GroupNonUniformArithmetic, "GroupNonUniformArithmetic", subgroup(kSubgroupArithmetic),
       "VK_SUBGROUP_FEATURE_ARITHMETIC_BIT"},
      {spv::Capability::GroupNonUniformBallot, "GroupNonUniformBallot", subgroup(kSubgroupBallot),
       "VK_SUBGROUP_FEATURE_BALLOT_BIT"},
      {spv::Capability::GroupNonUniformShuffle, "GroupNonUniformShuffle", subgroup(kSubgroupShuffle),
       "VK_SUBGROUP_FEATURE_SHUFFLE_BIT"},
      {spv::Capability::GroupNonUniformShuffleRelative, "GroupNonUniformShuffleRelative",
       subgroup(kSubgroupShuffleRelative), "VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT"},
      {spv::Capability::GroupNonUniformClustered, "GroupNonUniformClustered", subgroup(kSubgroupClustered),
       "VK_SUBGROUP_FEATURE_CLUSTERED_BIT"},
      {spv::Capability::GroupNonUniformQuad, "GroupNonUniformQuad", subgroup(kSubgroupQuad),
       "VK_SUBGROUP_FEATURE_QUAD_BIT"},
  };
  // A module Module::parse accepts has every OpCapability first (SPIR-V 2.4, "Logical Layout of a Module"): where
  // that leading run holds none this check looks at, the answer is no without parsing the module (every link
  // asks, and almost no program needs any of these).
  bool relevant = false;
  for (size_t offset = 5; offset < spirv.size() && !relevant;) {
    const uint32_t count = spirv[offset] >> 16;
    if (count < 2 || count > spirv.size() - offset ||
        static_cast<spv::Op>(spirv[offset] & 0xffff) != spv::Op::OpCapability) {
      break;
    }
    const auto capability = static_cast<spv::Capability>(spirv[offset + 1]);
    relevant = capability == spv::Capability::Int64Atomics;
    for (const Needed& n : needed) relevant = relevant || (!n.backed && n.capability == capability);
    offset += count;
  }
  if (!relevant) return std::nullopt;
  auto module = spirv_patch::Module::parse(spirv);
  if (!module) return std::nullopt;  // not this check's business: validation reports a bad module
  for (const Needed& n : needed) {
    if (!n.backed && module->has_capability(n.capability)) {
      return "the program needs the SPIR-V capability " + std::string(n.name) + ", which needs " + n.needs +
             " in compute shaders; the device does not have it";
    }
  }
  // Int64Atomics stands for two features, one per storage class: which one a program needs is in its atomics.
  if (module->has_capability(spv::Capability::Int64Atomics)) {
    const Int64AtomicUse use = int64_atomic_use(*module);
    if (use.buffer && !support.int64_buffer_atomics) {
      return std::string("the program uses 64-bit integer atomic operations on buffer variables, which need ") +
             "shaderBufferInt64Atomics; the device does not have it";
    }
    if (use.shared && !support.int64_shared_atomics) {
      return std::string("the program uses 64-bit integer atomic operations on shared variables, which need ") +
             "shaderSharedInt64Atomics; the device does not have it";
    }
  }
  return std::nullopt;
}

}  // namespace bismuth::translator
