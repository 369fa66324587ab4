#include "bismuth/translator/gl_program.hpp"

#include <glslang/Include/Types.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>

#include <algorithm>
#include <charconv>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <unordered_map>

#include "bismuth/spirv_patch/module.hpp"
#include "bismuth/spirv_patch/passes/float_compare_swap.hpp"
#include "block_variables.hpp"
#include "declared_bindings.hpp"
#include "device_extensions.hpp"
#include "diagnostics.hpp"
#include "extension_builtins.hpp"
#include "extension_version_rules.hpp"
#include "glslang_cached_parse.hpp"
#include "glslang_process.hpp"
#include "hlsl_num_waves_rewrite.hpp"
#include "large_stack.hpp"
#include "nesting_limits.hpp"
#include "num_waves_module_form.hpp"
#include "num_waves_rewrite.hpp"
#include "nv_extension_rewrite.hpp"
#include "opaque_uniforms.hpp"
#include "program_reflection.hpp"
#include "resource_limits.hpp"
#include "shared_memory.hpp"
#include "variable_group_size_rewrite.hpp"
#include "version_rewrite.hpp"

namespace bismuth::translator {

namespace {

// The implementation defines the extension's macro whether or not the shader enables it (GLSL 3.3 "Extensions").
constexpr const char* kPreamble = "#define GL_ARB_compute_variable_group_size 1\n";
// Diagnostics name the source string: GL concatenates glShaderSource's strings into string 0.
constexpr std::string_view kSourceName = "0";

constexpr EShMessages kRelaxedVulkanMessages = static_cast<EShMessages>(EShMsgSpvRules | EShMsgVulkanRules);
constexpr EShMessages kHlslMessages = static_cast<EShMessages>(EShMsgSpvRules | EShMsgVulkanRules | EShMsgReadHlsl);

// The variable size as a fixed 1x1x1 for the GL-rules check: plain GL GLSL has no spec-constant sizes.
constexpr std::string_view kCheckSizeLayout = "local_size_x = 1, local_size_y = 1, local_size_z = 1";

void configure_relaxed_vulkan(glslang::TShader& shader, spirv_patch::TargetEnv env, const std::string& preamble) {
  const GlslangTarget target = glslang_target(env);
  shader.setEnvInput(glslang::EShSourceGlsl, EShLangCompute, glslang::EShClientVulkan, 100);
  shader.setEnvInputVulkanRulesRelaxed();
  shader.setEnvClient(glslang::EShClientVulkan, target.client);
  shader.setEnvTarget(glslang::EShTargetSpv, target.spirv);
  shader.setGlobalUniformBlockName(kDefaultUniformBlockName);
  shader.setGlobalUniformSet(GlBindingMap::kDescriptorSet);
  // glslang adds the uniform-buffer shift to the default block's binding too.
  shader.setGlobalUniformBinding(GlBindingMap::kDefaultUniformBlockBinding - GlBindingMap::kUniformBufferBase);
  shader.setAtomicCounterBlockName("gl_AtomicCounterBlock");
  shader.setAtomicCounterBlockSet(GlBindingMap::kDescriptorSet);
  shader.setShiftBinding(glslang::EResUbo, GlBindingMap::kUniformBufferBase);
  shader.setShiftBinding(glslang::EResSsbo, 0);
  // GL gives a block declared without `binding` binding point 0 until the application rebinds it; Vulkan rules
  // demand a binding. glslang numbers such blocks itself (mapIO); the link reads what the user declared before
  // that (DeclaredBindings) and gives every block a Vulkan binding of its own (assign_compact_bindings).
  shader.setAutoMapBindings(true);
  shader.setPreamble(preamble.c_str());
}

// glslang's HLSL front end with GL's binding namespaces: register(uN) keeps binding N (shader storage), register(bN)
// lands in the uniform-buffer range as GLSL's uniform blocks do; the link reads the declared N as the GL binding.
// glslang keeps the pointers: `preamble` and `entry_point` must outlive the shader.
void configure_hlsl(glslang::TShader& shader, spirv_patch::TargetEnv env, const std::string& preamble,
                    const std::string& entry_point) {
  const GlslangTarget target = glslang_target(env);
  shader.setEnvInput(glslang::EShSourceHlsl, EShLangCompute, glslang::EShClientVulkan, 100);
  shader.setEnvClient(glslang::EShClientVulkan, target.client);
  shader.setEnvTarget(glslang::EShTargetSpv, target.spirv);
  shader.setEntryPoint(entry_point.c_str());
  shader.setSourceEntryPoint(entry_point.c_str());
  shader.setShiftBinding(glslang::EResUbo, GlBindingMap::kUniformBufferBase);
  shader.setShiftBinding(glslang::EResUav, 0);
  shader.setShiftBinding(glslang::EResSsbo, 0);
  shader.setAutoMapBindings(true);
  shader.setPreamble(preamble.c_str());
}

// glslang as a GL front end, for GL's rules. glslang keeps the pointers: `text` (the caller's pointer to the
// source) and `preamble` must outlive the shader.
void configure_gl_check(glslang::TShader& shader, const char* const* text, const std::string& preamble) {
  shader.setStrings(text, 1);
  shader.setEnvInput(glslang::EShSourceGlsl, EShLangCompute, glslang::EShClientNone, 0);
  shader.setPreamble(preamble.c_str());
}

// `source` as glslang's preprocessor expands it for the GL check (lines kept; the preamble adds none).
std::string preprocess(const std::string& source, const std::string& preamble) {
  glslang::TShader shader(EShLangCompute);
  const char* text = source.c_str();
  configure_gl_check(shader, &text, preamble);
  glslang::TShader::ForbidIncluder includer;
  std::string expanded;
  // A preprocessing error leaves the rest expanded; the parse that follows reports it.
  shader.preprocess(gl_resource_limits(), 450, ENoProfile, false, false, EShMsgDefault, &expanded, includer);
  return expanded;
}

// What the GL-rules parse found: its diagnostics, its whole log (for a failure without one) and the default-block
// uniforms' declared locations.
struct GlCheckResult {
  bool parsed = false;
  std::vector<Diagnostic> diagnostics;
  std::string log;
  std::unordered_map<std::string, int> uniform_locations;
};

GlCheckResult gl_check(const std::string& source, const std::string& preamble) {
  CachedParseShader shader(EShLangCompute);
  const char* text = source.c_str();
  configure_gl_check(shader, &text, preamble);
  GlCheckResult result;
  result.parsed = shader.parse_cached(gl_resource_limits(), 450, ENoProfile, false, false, EShMsgDefault);
  result.log = shader.getInfoLog();
  result.diagnostics = parse_glslang_log(result.log, source, kSourceName);
  // The GL parse keeps default-block uniforms as variables of their own, with their location qualifiers.
  if (result.parsed) result.uniform_locations = declared_uniform_locations(*shader.getIntermediate());
  return result;
}

}  // namespace

struct GlShader::Impl {
  std::string vulkan_source;    // the rewritten source glslang parsed (it keeps pointers into it)
  std::string preamble;         // glslang keeps a pointer to it too
  std::string vulkan_preamble;  // the preamble of the code-generating parse (kept alive for glslang too)
  std::unique_ptr<glslang::TShader> shader;
  size_t stack_bytes = 0;              // what glslang may need for this shader's depth (a link walks its tree too)
  DeclaredBindings declared_bindings;  // read before any link rewrites the tree's bindings
  spirv_patch::TargetEnv target = spirv_patch::TargetEnv::Vulkan1_1;
  bool hlsl = false;             // compiled from HLSL (GlShaderLanguage::Hlsl)
  std::string entry_point;       // HLSL: the entry function
  bool uses_wave_index = false;  // HLSL: reads the wave-index marker (docs/hlsl.md, "Wave index")

  // The tree a link may use. glslang's link and mapIO write into the trees they link (layout defaults, bindings),
  // and one shader object may be linked again or into several programs, from several threads: the compile's tree
  // serves the first link; later links parse the same rewritten source again into `fresh` (null when that fails,
  // which a source that compiled does not).
  glslang::TShader* tree_for_link(std::unique_ptr<glslang::TShader>& fresh) const {
    {
      std::lock_guard lock(tree_mutex);
      if (!tree_linked) {
        tree_linked = true;
        return shader.get();
      }
    }
    auto cached = std::make_unique<CachedParseShader>(EShLangCompute);
    CachedParseShader& glsl = *cached;
    fresh = std::move(cached);
    const char* text = vulkan_source.c_str();
    fresh->setStrings(&text, 1);
    if (hlsl) {
      configure_hlsl(*fresh, target, vulkan_preamble, entry_point);
      return fresh->parse(gl_resource_limits(), 100, false, kHlslMessages) ? fresh.get() : nullptr;
    }
    configure_relaxed_vulkan(*fresh, target, vulkan_preamble);
    return glsl.parse_cached(gl_resource_limits(), 450, ENoProfile, false, false, kRelaxedVulkanMessages) ? fresh.get()
                                                                                                        : nullptr;
  }

 private:
  mutable std::mutex tree_mutex;
  mutable bool tree_linked = false;
};

GlShader::GlShader() : impl_(std::make_unique<Impl>()) {}
GlShader::~GlShader() = default;

std::shared_ptr<const GlShader> GlShader::compile(std::string_view source, const GlCompileOptions& options) {
  ensure_glslang_initialized();
  std::shared_ptr<GlShader> self(new GlShader());
  self->options_ = options;
  // Depth first: a source beyond the front's limits never reaches glslang (nesting_limits.hpp), and the depth of
  // one within them says how much stack glslang needs. A source whose depth only preprocessing tells gets the
  // stack of the deepest.
  const NestingReport nesting = check_nesting_limits(source, kSourceName);
  if (nesting.error) {
    self->info_log_ = format_gl_info_log({*nesting.error});
    return self;
  }
  const size_t stack = nesting.needs_expansion ? kDeepestSourceStackBytes : nesting.stack_bytes();
  const bool hlsl = options.language == GlShaderLanguage::Hlsl;
  auto compile = [&] {
    self->impl_->stack_bytes = nesting.stack_bytes();
    hlsl ? self->compile_hlsl_source(source) : self->compile_source(source, nesting);
  };
  if (Status ran = run_with_stack(stack, compile); !ran) {
    // An internal failure (an exception, no thread) is a failed compile that says why: never an exception out of
    // glCompileShader, never an empty log.
    self->ok_ = false;
    self->impl_ = std::make_unique<Impl>();
    self->info_log_ = format_gl_info_log(
        {{Diagnostic::Severity::Error, std::string(kSourceName), 1, 1, "internal error: " + ran.error().message}});
  }
  return self;
}

void GlShader::compile_source(std::string_view source, const NestingReport& nesting) {
  impl_->stack_bytes = nesting.stack_bytes();

  // Source-level rewrites: they keep every line where the user wrote it.
  DeviceExtensionCheck device = check_device_extensions(source, options_.extensions, kSourceName);
  NvExtensionRewrite nv = rewrite_nv_extensions(device.source, kSourceName);
  VersionRewrite version = rewrite_compute_version(nv.source, kSourceName);
  ExtensionVersionCheck versions =
      check_extension_versions(version.source, version.user_version, version.es, kSourceName);
  ExtensionBuiltins builtins =
      shim_extension_builtins(versions.source, version.glslang_version, version.user_version, version.es,
                              device.float_compare_swap_asked);
  // GL_BISMUTH_num_waves first: its size becomes spec-constant (or, for the check, fixed) local_size qualifiers the
  // variable-group-size rewrite then takes as a fixed declaration.
  const std::string spec_size_layout = spec_constant_size_layout(kVariableGroupSizeSpecIds);
  NumWavesRewrite waves = rewrite_num_waves(builtins.compile_source, spec_size_layout, kSourceName);
  NumWavesRewrite waves_check = rewrite_num_waves(builtins.check_source, kCheckSizeLayout, kSourceName);
  VariableGroupSizeRewrite vulkan = rewrite_variable_group_size(waves.source, spec_size_layout, kSourceName);
  VariableGroupSizeRewrite check = rewrite_variable_group_size(waves_check.source, kCheckSizeLayout, kSourceName);
  std::vector<Diagnostic> diagnostics = std::move(device.diagnostics);
  diagnostics.insert(diagnostics.end(), nv.diagnostics.begin(), nv.diagnostics.end());
  diagnostics.insert(diagnostics.end(), version.diagnostics.begin(), version.diagnostics.end());
  diagnostics.insert(diagnostics.end(), versions.diagnostics.begin(), versions.diagnostics.end());
  impl_->preamble =
      std::string(kPreamble) + version.preamble + device.preamble + builtins.compile_preamble + waves.preamble;
  // INTEL_shader_atomic_float_minmax's float atomicCompSwap: glslang has no float compare-exchange (SPIR-V has none),
  // so the Vulkan compile declares it as a marker instruction that spirv_patch's lower_float_compare_swap turns into
  // a uint compare-exchange at link (passes/float_compare_swap.hpp).
  if (device.float_compare_swap_asked) impl_->preamble += spirv_patch::kFloatCompareSwapGlslDeclaration;
  // Preprocessing (for the nesting limits) gets no declarations: glslang's output would hold them as extra lines.
  const std::string check_macros =
      std::string(kPreamble) + version.preamble + device.preamble + builtins.check_preamble + waves_check.preamble;
  const std::string check_preamble = check_macros + builtins.check_declarations;
  diagnostics.insert(diagnostics.end(), waves.diagnostics.begin(), waves.diagnostics.end());
  // A num_waves shader that also declares a local size has its error already; the variable-group-size rewrite
  // would only restate it.
  if (!has_errors(waves.diagnostics)) {
    diagnostics.insert(diagnostics.end(), vulkan.diagnostics.begin(), vulkan.diagnostics.end());
  }
  num_waves_ = waves.declaration;
  group_size_ = num_waves_                                             ? GroupSize::NumWaves
                : vulkan.declaration == GroupSizeDeclaration::Variable ? GroupSize::Variable
                : vulkan.declaration == GroupSizeDeclaration::Fixed    ? GroupSize::Fixed
                                                                       : GroupSize::None;
  if (has_errors(diagnostics)) {
    info_log_ = format_gl_info_log(diagnostics);
    return;
  }
  // Function-like macros and conditional code: check what glslang will parse too.
  if (nesting.needs_expansion) {
    const NestingReport expanded = check_nesting_limits(preprocess(check.source, check_macros), kSourceName, true);
    if (expanded.error) {
      info_log_ = format_gl_info_log({*expanded.error});
      return;
    }
    impl_->stack_bytes = std::max(impl_->stack_bytes, expanded.stack_bytes());
  }

  // Two parses: GL's rules — glslang as a GL front end reports what a GL driver reports (and rejects what its
  // relaxed Vulkan mode would not catch before code generation) — and the code-generating parse. They share nothing
  // (each its own source, preamble and TShader), so the GL check runs on a side thread beside the other
  // (large_stack.hpp, run_beside); its result is looked at first, as if it had run first.
  GlCheckResult gl;
  auto run_gl_check = [&] { gl = gl_check(check.source, check_preamble); };

  impl_->vulkan_source = std::move(vulkan.source);
  auto cached_shader = std::make_unique<CachedParseShader>(EShLangCompute);
  CachedParseShader& shader = *cached_shader;
  impl_->shader = std::move(cached_shader);
  const char* text = impl_->vulkan_source.c_str();
  shader.setStrings(&text, 1);
  // GLSL ES: glslang's relaxed Vulkan rules lower atomicCounterIncrement / atomicCounterDecrement to arithmetic with
  // an int operand on the uint counter, which GLSL ES (no implicit conversions) rejects or turns into invalid
  // SPIR-V. The GL check holds the user's code to the ES rules (and its failure wins), so the code-generating parse may
  // allow the conversions its own lowering needs.
  impl_->vulkan_preamble =
      impl_->preamble + (version.es ? "#extension GL_EXT_shader_implicit_conversions : enable\n" : "");
  impl_->target = options_.target;
  configure_relaxed_vulkan(shader, options_.target, impl_->vulkan_preamble);
  bool generated = false;
  if (Status checked =
          run_beside(impl_->stack_bytes, run_gl_check,
                     [&] {
                       generated = shader.parse_cached(gl_resource_limits(), 450, ENoProfile, false, false,
                                                       kRelaxedVulkanMessages);
                     });
      !checked) {
    throw std::runtime_error(checked.error().message);  // GlShader::compile makes it an internal error
  }

  // The check's messages name the built-ins the user wrote, not the check's stand-ins for them.
  for (Diagnostic& d : gl.diagnostics) {
    d.message = restore_builtin_names(std::move(d.message), builtins);
  }
  gl.log = restore_builtin_names(std::move(gl.log), builtins);
  diagnostics.insert(diagnostics.end(), gl.diagnostics.begin(), gl.diagnostics.end());
  if (!gl.parsed) {
    if (!has_errors(diagnostics)) {
      diagnostics.push_back({Diagnostic::Severity::Error, std::string(kSourceName), 1, 1, gl.log});
    }
    info_log_ = format_gl_info_log(diagnostics);
    impl_->shader.reset();
    return;
  }
  if (!generated) {
    std::vector<Diagnostic> vk = parse_glslang_log(shader.getInfoLog(), impl_->vulkan_source, kSourceName);
    if (vk.empty()) vk.push_back({Diagnostic::Severity::Error, std::string(kSourceName), 1, 1, shader.getInfoLog()});
    diagnostics.insert(diagnostics.end(), vk.begin(), vk.end());
    info_log_ = format_gl_info_log(diagnostics);
    return;
  }
  if (std::vector<Diagnostic> images =
          opaque_declaration_errors(*shader.getIntermediate(), impl_->vulkan_source, kSourceName);
      !images.empty()) {
    diagnostics.insert(diagnostics.end(), images.begin(), images.end());
    info_log_ = format_gl_info_log(diagnostics);
    return;
  }
  impl_->declared_bindings = declared_bindings(*shader.getIntermediate());
  impl_->declared_bindings.uniform_locations = std::move(gl.uniform_locations);
  info_log_ = format_gl_info_log(diagnostics);
  ok_ = true;
}

// HLSL (docs/hlsl.md): the numWaves rewrite, then glslang's HLSL front end. Diagnostics in GL info-log form.
void GlShader::compile_hlsl_source(std::string_view source) {
  HlslNumWavesRewrite rewrite = rewrite_hlsl_num_waves(source, options_.entry_point, kSourceName);
  std::vector<Diagnostic> diagnostics = std::move(rewrite.diagnostics);
  if (!rewrite.entry_found && !has_errors(diagnostics)) {
    diagnostics.push_back({Diagnostic::Severity::Error, std::string(kSourceName), 1, 1,
                           "no function named '" + options_.entry_point + "' (the entry point)"});
  }
  if (has_errors(diagnostics)) {
    info_log_ = format_gl_info_log(diagnostics);
    return;
  }
  impl_->hlsl = true;
  impl_->entry_point = options_.entry_point;
  impl_->uses_wave_index = rewrite.uses_wave_index;
  impl_->target = options_.target;
  impl_->vulkan_source = std::move(rewrite.source);
  impl_->vulkan_preamble = std::move(rewrite.preamble);
  impl_->shader = std::make_unique<glslang::TShader>(EShLangCompute);
  glslang::TShader& shader = *impl_->shader;
  const char* text = impl_->vulkan_source.c_str();
  shader.setStrings(&text, 1);
  configure_hlsl(shader, options_.target, impl_->vulkan_preamble, impl_->entry_point);
  if (!shader.parse(gl_resource_limits(), 100, false, kHlslMessages)) {
    std::vector<Diagnostic> parsed = parse_glslang_log(shader.getInfoLog(), impl_->vulkan_source, kSourceName);
    if (parsed.empty())
      parsed.push_back({Diagnostic::Severity::Error, std::string(kSourceName), 1, 1, shader.getInfoLog()});
    diagnostics.insert(diagnostics.end(), parsed.begin(), parsed.end());
    info_log_ = format_gl_info_log(diagnostics);
    return;
  }
  num_waves_ = rewrite.declaration;
  group_size_ = num_waves_ ? GroupSize::NumWaves : GroupSize::Fixed;
  impl_->declared_bindings = declared_bindings(*shader.getIntermediate());
  info_log_ = format_gl_info_log(diagnostics);
  ok_ = true;
}

namespace {

std::string link_error(std::string text) {
  return "error: " + std::move(text) + "\n";
}

// Gives every active block its own Vulkan descriptor (storage blocks, uniform blocks, atomic-counter buffers, then
// the default uniform block, each by GL binding; an array of blocks is one binding with a descriptor per element):
// the layout the pipeline writes into the SPIR-V, variable by variable. GlLinkedProgram::resources[i] says which GL
// binding point feeds descriptor i; glUniformBlockBinding and glShaderStorageBlockBinding change that at dispatch
// time, never the module. Blocks that share a GL binding (all
// those declared without one share 0) are separate descriptors, so rebinding one leaves the others.
//
// glslang keeps GL atomic-counter binding b as a storage block named "gl_AtomicCounterBlock_<b>". Declared but
// inactive resources (not statically used, so not reflected) need no descriptor, only binding numbers after the
// active ones. A program needs only as many descriptors as it uses: push-descriptor set layouts are limited to
// maxPushDescriptors (32 on common drivers).
Status assign_compact_bindings(GlLinkedProgram& linked, const spirv_patch::Module& module, bool hlsl) {
  const std::vector<BlockVariable> variables = block_variables(module);
  // A GLSL block is named by its type (the instance name is optional); an HLSL buffer resource by its variable, whose
  // type glslang shares with every resource of the same element type (RWStructuredBuffer<uint> A, B: one struct "A"),
  // and an HLSL cbuffer (an unnamed variable) by its type.
  auto find = [&](BlockStorage storage, const std::string& name) -> const BlockVariable* {
    for (const BlockVariable& v : variables) {
      const bool by_variable = storage == BlockStorage::Opaque || (hlsl && !v.variable_name.empty());
      if (v.storage == storage && (by_variable ? v.variable_name : v.block_name) == name) return &v;
    }
    return nullptr;
  };
  // An array of blocks is one Vulkan binding with a descriptor per element; its elements are GL blocks of their own
  // ("B[0]", "B[1]") with consecutive GL bindings, each rebindable.
  std::unordered_map<uint32_t, uint32_t> first_descriptor;  // variable -> its first index in resources
  auto add_binding = [&](const BlockVariable& v, GlResourceKind kind, uint32_t first_gl_binding) {
    const auto first = static_cast<uint32_t>(linked.resources.size());
    first_descriptor[v.variable] = first;
    linked.bindings.by_variable.emplace_back(v.variable, static_cast<uint32_t>(linked.descriptor_counts.size()));
    linked.descriptor_counts.push_back(v.array_size);
    for (uint32_t e = 0; e < v.array_size; ++e) linked.resources.push_back({kind, first_gl_binding + e});
    return first;
  };
  auto assign = [&](std::vector<GlBufferBinding>& list, GlResourceKind kind, BlockStorage storage) -> Status {
    for (GlBufferBinding& b : list) {
      const std::string block = kind == GlResourceKind::AtomicCounterBuffer
                                    ? std::string(kAtomicCounterBlockPrefix) + std::to_string(b.gl_binding)
                                    : block_base_name(b.name);
      const BlockVariable* v = find(storage, block);
      if (v == nullptr) return fail("internal error: no SPIR-V variable for the active block " + b.name);
      const uint32_t element = block_element(b.name);
      if (element >= v->array_size) return fail("internal error: " + b.name + " is past the end of its array");
      auto known = first_descriptor.find(v->variable);
      const uint32_t first =
          known != first_descriptor.end() ? known->second : add_binding(*v, kind, b.gl_binding - element);
      b.vk_binding = first + element;
      linked.resources[b.vk_binding].gl_binding = b.gl_binding;
    }
    return {};
  };
  if (Status s = assign(linked.storage_blocks, GlResourceKind::ShaderStorageBuffer, BlockStorage::ShaderStorage); !s)
    return s;
  if (Status s = assign(linked.uniform_blocks, GlResourceKind::UniformBuffer, BlockStorage::Uniform); !s) return s;
  if (Status s =
          assign(linked.atomic_counter_buffers, GlResourceKind::AtomicCounterBuffer, BlockStorage::ShaderStorage);
      !s) {
    return s;
  }
  if (linked.default_uniform_block_size > 0) {
    const BlockVariable* v = find(BlockStorage::Uniform, kDefaultUniformBlockName);
    if (v == nullptr) return fail("internal error: no SPIR-V variable for the default uniform block");
    add_binding(*v, GlResourceKind::DefaultUniformBlock, 0);
  }
  // Samplers and images, in GL_UNIFORM order: an array is one binding with a descriptor per element, each element
  // reading the unit that is its value (arrays of arrays of them are compile errors: opaque_uniforms.hpp).
  for (uint32_t u = 0; u < linked.uniforms.size(); ++u) {
    GlUniform& uniform = linked.uniforms[u];
    if (!uniform.opaque) continue;
    const BlockVariable* v = find(BlockStorage::Opaque, block_base_name(uniform.name));
    if (v == nullptr) return fail("internal error: no SPIR-V variable for the active sampler or image " + uniform.name);
    if (v->array_size != uniform.array_size) {
      return fail("internal error: the sampler or image array " + uniform.name + " has " +
                  std::to_string(v->array_size) + " elements in the module, " + std::to_string(uniform.array_size) +
                  " in reflection");
    }
    uniform.opaque->resource = add_binding(*v, uniform.opaque->kind, 0);
    for (uint32_t e = 0; e < v->array_size; ++e) linked.resources[uniform.opaque->resource + e].uniform = u;
  }
  linked.bindings.descriptor_set = GlBindingMap::kDescriptorSet;
  linked.bindings.unmapped = spirv_patch::DescriptorBindingRemap::Unmapped::NumberAfter;
  return {};
}

// The link proper; runs on the compiler thread (large_stack.hpp).
Expected<GlLinkedProgram> link_on_this_thread(std::span<const std::shared_ptr<const GlShader>> shaders,
                                              const GlLinkLimits& limits,
                                              std::optional<spirv_patch::Module>* parsed) {
  if (shaders.empty()) return fail(link_error("no compute shader attached"));
  bool any_fixed = false;
  bool any_variable = false;
  std::optional<NumWavesDeclaration> num_waves;
  for (const auto& shader : shaders) {
    if (!shader || !shader->ok()) return fail(link_error("a compute shader attached to the program failed to compile"));
    any_fixed |= shader->group_size() == GroupSize::Fixed;
    any_variable |= shader->group_size() == GroupSize::Variable;
    if (const auto& declared = shader->num_waves()) {
      // GL_BISMUTH_num_waves: every shader that declares num_waves declares the same count and range.
      if (num_waves && *num_waves != *declared) {
        return fail(link_error("compute shaders in one program declare different num_waves or wave-size ranges (" +
                               std::to_string(num_waves->num_waves) + " and " + std::to_string(declared->num_waves) +
                               " waves)"));
      }
      num_waves = declared;
    }
  }
  const bool hlsl = shaders.front()->impl().hlsl;
  for (const auto& shader : shaders) {
    if (shaders.size() > 1 && shader->impl().hlsl) {
      return fail(link_error("an HLSL compute shader is linked alone: it holds the program's one entry point"));
    }
  }
  if (num_waves && (any_fixed || any_variable)) {
    return fail(link_error("compute shaders in one program declare both num_waves and a local group size"));
  }
  // ARB_compute_variable_group_size: a program whose shaders mix fixed and variable sizes, or declare none, fails
  // to link.
  if (any_fixed && any_variable) {
    return fail(link_error(
        "compute shaders in one program declare both a fixed and a variable (local_size_variable) local group size"));
  }
  if (!any_fixed && !any_variable && !num_waves) {
    return fail(link_error(
        "compute shader must declare a local group size (local_size_x/y/z, local_size_variable or num_waves)"));
  }

  std::vector<std::unique_ptr<glslang::TShader>> fresh_trees(shaders.size());  // outlive `program`
  // glslang's merge of local-size SpecIds (TIntermediate::mergeModes) takes a unit without them for a contradiction
  // once an earlier unit had them: shaders that declare no size go first, so a helper shader links with a
  // local_size_variable or num_waves one in any attach order.
  std::vector<size_t> order(shaders.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_partition(order.begin(), order.end(),
                        [&](size_t i) { return shaders[i]->group_size() == GroupSize::None; });
  glslang::TProgram program;
  for (size_t i : order) {
    glslang::TShader* tree = shaders[i]->impl().tree_for_link(fresh_trees[i]);
    if (tree == nullptr) return fail(link_error("internal error: a compiled shader failed to parse again"));
    program.addShader(tree);
  }
  if (!program.link(hlsl ? kHlslMessages : kRelaxedVulkanMessages)) {
    std::string log = program.getInfoLog();
    return fail(log.empty() ? link_error("linking failed") : log);
  }
  DeclaredBindings declared;
  for (const auto& shader : shaders) declared.merge(shader->impl().declared_bindings);
  if (!program.mapIO()) {
    std::string log = program.getInfoLog();
    return fail(log.empty() ? link_error("linking failed") : log);
  }
  const glslang::TIntermediate* intermediate = program.getIntermediate(EShLangCompute);
  if (intermediate == nullptr) return fail(link_error("no compute shader attached"));

  GlLinkedProgram linked;
  linked.group_size = num_waves ? GroupSize::NumWaves : any_variable ? GroupSize::Variable : GroupSize::Fixed;
  linked.num_waves = num_waves;
  if (hlsl) linked.entry_point = shaders.front()->impl().entry_point;
  if (any_fixed) {
    for (int i = 0; i < 3; ++i) linked.fixed_size[i] = intermediate->getLocalSize(i);
  }
  glslang::SpvOptions spv_options;
  spv_options.validate = false;
  spv::SpvBuildLogger logger;
  glslang::GlslangToSpv(*intermediate, linked.spirv, &logger, &spv_options);
  if (linked.spirv.empty()) return fail(link_error("SPIR-V generation failed: " + logger.getAllMessages()));
  // One parse serves every check of the words below (each parsed them again before: about 30 k instructions a
  // parse for a small shader). They change only where a step rewrites them, which parses its result again.
  auto module = spirv_patch::Module::parse(linked.spirv);
  if (!module) return fail(link_error("internal error: " + module.error().message));
  bool module_edited = false;  // module's serialize() is linked.spirv; a parse of them would not hold its edits' traces
  if (drop_opaque_locations(*module)) {
    linked.spirv = module->serialize();
    module_edited = true;
  }
  if (hlsl) {
    // docs/hlsl.md, "Module form": [numWaves]'s size as spec constants, the wave-index marker bound.
    auto formed = hlsl_num_waves_module_form(linked.spirv, linked.entry_point, num_waves.has_value());
    if (!formed) return fail(link_error(formed.error().message));
    linked.spirv = std::move(formed->words);
    module = spirv_patch::Module::parse(linked.spirv);
    if (!module) return fail(link_error("internal error: " + module.error().message));
    module_edited = false;
  }
  if (auto unbacked = unbacked_capability(linked.spirv, shaders.front()->options().extensions)) {
    return fail(link_error(*unbacked));
  }
  if (auto shared = shared_memory_bytes(*module)) {
    linked.shared_memory_bytes = *shared;
    if (limits.max_compute_shared_memory_size && *shared > *limits.max_compute_shared_memory_size) {
      return fail(link_error("too much shared memory: the program's shared variables take " + std::to_string(*shared) +
                             " bytes (std430 layout), above GL_MAX_COMPUTE_SHARED_MEMORY_SIZE (" +
                             std::to_string(*limits.max_compute_shared_memory_size) + " bytes)"));
    }
  }
  reflect_program_interface(program, declared, linked);
  if (Status laid_out = layout_default_uniforms(linked, *module); !laid_out)
    return fail(link_error(laid_out.error().message));
  if (auto too_many = opaque_limit_error(linked)) return fail(link_error(*too_many));
  if (Status bound = assign_compact_bindings(linked, *module, hlsl); !bound)
    return fail(link_error(bound.error().message));
  linked.info_log = program.getInfoLog();
  if (parsed != nullptr) {
    if (module_edited) {
      // The module parse(linked.spirv) would give (records in module order), with the id operands it found.
      auto again = spirv_patch::Module::reparse(linked.spirv, *module);
      if (!again) return fail(link_error("internal error: " + again.error().message));
      parsed->emplace(std::move(*again));
    } else {
      parsed->emplace(std::move(*module));
    }
  }
  return linked;
}

}  // namespace

Expected<GlLinkedProgram> link_gl_program(std::span<const std::shared_ptr<const GlShader>> shaders,
                                          const GlLinkLimits& limits) {
  return link_gl_program(shaders, limits, nullptr);
}

Expected<GlLinkedProgram> link_gl_program(std::span<const std::shared_ptr<const GlShader>> shaders,
                                          const GlLinkLimits& limits, std::optional<spirv_patch::Module>* parsed) {
  if (parsed != nullptr) parsed->reset();
  ensure_glslang_initialized();
  size_t stack = 0;
  for (const auto& shader : shaders) stack = std::max(stack, shader ? shader->impl().stack_bytes : 0);
  Expected<GlLinkedProgram> linked = fail("not linked");
  if (Status ran = run_with_stack(stack, [&] { linked = link_on_this_thread(shaders, limits, parsed); }); !ran) {
    return fail(link_error("internal error: " + ran.error().message));
  }
  return linked;
}

}  // namespace bismuth::translator
