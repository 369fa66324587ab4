#include "bismuth/translator/gl_program.hpp"

#include <glslang/Include/Types.h>
#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>

#include <algorithm>
#include <charconv>
#include <optional>
#include <unordered_map>

#include "bismuth/spirv_patch/module.hpp"
#include "device_extensions.hpp"
#include "diagnostics.hpp"
#include "glslang_process.hpp"
#include "large_stack.hpp"
#include "nesting_limits.hpp"
#include "nv_extension_rewrite.hpp"
#include "shared_memory.hpp"
#include "variable_group_size_rewrite.hpp"
#include "version_rewrite.hpp"

namespace bismuth::translator {

namespace {

constexpr const char* kDefaultUniformBlockName = "gl_DefaultUniformBlock";
constexpr std::string_view kAtomicCounterBlockPrefix = "gl_AtomicCounterBlock_";
// The implementation defines the extension's macro whether or not the shader enables it (GLSL 3.3 "Extensions").
constexpr const char* kPreamble = "#define GL_ARB_compute_variable_group_size 1\n";
// Diagnostics name the source string: GL concatenates glShaderSource's strings into string 0.
constexpr std::string_view kSourceName = "0";

constexpr EShMessages kRelaxedVulkanMessages = static_cast<EShMessages>(EShMsgSpvRules | EShMsgVulkanRules);

// The variable size as a fixed 1x1x1 for the GL-rules check: plain GL GLSL has no spec-constant sizes.
constexpr std::string_view kCheckSizeLayout = "local_size_x = 1, local_size_y = 1, local_size_z = 1";

// glslang's default limits with GL's binding counts as Bismuth exposes them (GlBindingMap).
const TBuiltInResource* gl_resource_limits() {
  static const TBuiltInResource limits = [] {
    TBuiltInResource r = *GetDefaultResources();
    r.maxAtomicCounterBindings = GlBindingMap::kMaxAtomicCounterBufferBindings;
    r.maxComputeAtomicCounterBuffers = GlBindingMap::kMaxAtomicCounterBufferBindings;
    r.maxCombinedAtomicCounterBuffers = GlBindingMap::kMaxAtomicCounterBufferBindings;
    r.maxComputeAtomicCounters = 1024;
    r.maxCombinedAtomicCounters = 1024;
    r.maxAtomicCounterBufferSize = 1 << 16;
    r.maxCombinedShaderOutputResources = GlBindingMap::kMaxShaderStorageBufferBindings;
    return r;
  }();
  return &limits;
}

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

// The GL binding in glslang's "gl_AtomicCounterBlock_<b>" block names; nullopt for any other name.
std::optional<uint32_t> atomic_counter_block_binding(std::string_view name) {
  if (!name.starts_with(kAtomicCounterBlockPrefix)) return std::nullopt;
  name.remove_prefix(kAtomicCounterBlockPrefix.size());
  uint32_t binding = 0;
  auto [ptr, ec] = std::from_chars(name.data(), name.data() + name.size(), binding);
  if (ec != std::errc() || ptr != name.data() + name.size()) return std::nullopt;
  return binding;
}

// Column stride of a matrix in the default uniform block, which glslang lays out by std140 rules: columns are
// rounded up to vec4 (dvec4 for double matrices of 3 or 4 rows). 0 for non-matrices.
uint32_t std140_matrix_stride(uint32_t gl_type) {
  switch (gl_type) {
    case 0x8B5A: case 0x8B5B: case 0x8B5C:  // GL_FLOAT_MAT2/3/4
    case 0x8B65: case 0x8B66: case 0x8B67: case 0x8B68: case 0x8B69: case 0x8B6A:  // GL_FLOAT_MATnxm
      return 16;
    case 0x8F46: case 0x8F4C: case 0x8F4D:  // GL_DOUBLE_MAT2, GL_DOUBLE_MAT3x2, GL_DOUBLE_MAT4x2: 2 rows
      return 16;
    case 0x8F47: case 0x8F48: case 0x8F49: case 0x8F4A: case 0x8F4B: case 0x8F4E:  // other double matrices
      return 32;
    default:
      return 0;
  }
}

}  // namespace

struct GlShader::Impl {
  std::string vulkan_source;  // the rewritten source glslang parsed (it keeps pointers into it)
  std::string preamble;       // glslang keeps a pointer to it too
  std::unique_ptr<glslang::TShader> shader;
  size_t stack_bytes = 0;  // what glslang may need for this shader's depth (a link walks its tree too)
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
  if (Status ran = run_with_stack(stack, [&] { self->compile_source(source, nesting); }); !ran) {
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
  VariableGroupSizeRewrite vulkan =
      rewrite_variable_group_size(version.source, spec_constant_size_layout(kVariableGroupSizeSpecIds), kSourceName);
  VariableGroupSizeRewrite check = rewrite_variable_group_size(version.source, kCheckSizeLayout, kSourceName);
  std::vector<Diagnostic> diagnostics = std::move(device.diagnostics);
  diagnostics.insert(diagnostics.end(), nv.diagnostics.begin(), nv.diagnostics.end());
  diagnostics.insert(diagnostics.end(), version.diagnostics.begin(), version.diagnostics.end());
  impl_->preamble = std::string(kPreamble) + version.preamble + device.preamble;
  diagnostics.insert(diagnostics.end(), vulkan.diagnostics.begin(), vulkan.diagnostics.end());
  group_size_ = vulkan.declaration == GroupSizeDeclaration::Variable ? GroupSize::Variable
                : vulkan.declaration == GroupSizeDeclaration::Fixed  ? GroupSize::Fixed
                                                                     : GroupSize::None;
  if (has_errors(diagnostics)) {
    info_log_ = format_gl_info_log(diagnostics);
    return;
  }
  // Function-like macros and conditional code: check what glslang will parse too.
  if (nesting.needs_expansion) {
    const NestingReport expanded = check_nesting_limits(preprocess(check.source, impl_->preamble), kSourceName, true);
    if (expanded.error) {
      info_log_ = format_gl_info_log({*expanded.error});
      return;
    }
    impl_->stack_bytes = std::max(impl_->stack_bytes, expanded.stack_bytes());
  }

  // GL's rules: glslang as a GL front end reports what a GL driver reports (and rejects what its relaxed Vulkan
  // mode would not catch before code generation).
  {
    glslang::TShader gl_check(EShLangCompute);
    const char* text = check.source.c_str();
    configure_gl_check(gl_check, &text, impl_->preamble);
    const bool parsed = gl_check.parse(gl_resource_limits(), 450, ENoProfile, false, false, EShMsgDefault);
    std::vector<Diagnostic> gl_diagnostics = parse_glslang_log(gl_check.getInfoLog(), check.source, kSourceName);
    diagnostics.insert(diagnostics.end(), gl_diagnostics.begin(), gl_diagnostics.end());
    if (!parsed) {
      if (!has_errors(diagnostics)) {
        diagnostics.push_back({Diagnostic::Severity::Error, std::string(kSourceName), 1, 1, gl_check.getInfoLog()});
      }
      info_log_ = format_gl_info_log(diagnostics);
      return;
    }
  }

  impl_->vulkan_source = std::move(vulkan.source);
  impl_->shader = std::make_unique<glslang::TShader>(EShLangCompute);
  glslang::TShader& shader = *impl_->shader;
  const char* text = impl_->vulkan_source.c_str();
  shader.setStrings(&text, 1);
  configure_relaxed_vulkan(shader, options_.target, impl_->preamble);
  if (!shader.parse(gl_resource_limits(), 450, false, kRelaxedVulkanMessages)) {
    std::vector<Diagnostic> vk = parse_glslang_log(shader.getInfoLog(), impl_->vulkan_source, kSourceName);
    if (vk.empty()) vk.push_back({Diagnostic::Severity::Error, std::string(kSourceName), 1, 1, shader.getInfoLog()});
    diagnostics.insert(diagnostics.end(), vk.begin(), vk.end());
    info_log_ = format_gl_info_log(diagnostics);
    return;
  }
  info_log_ = format_gl_info_log(diagnostics);
  ok_ = true;
}

namespace {

std::string link_error(std::string text) { return "error: " + std::move(text) + "\n"; }

// Default-block uniforms, storage and uniform blocks, atomic counters from glslang's reflection.
void reflect(glslang::TProgram& program, GlLinkedProgram& linked) {
  program.buildReflection(EShReflectionSeparateBuffers | EShReflectionAllBlockVariables);
  for (int i = 0; i < program.getNumUniformBlocks(); ++i) {
    const glslang::TObjectReflection& block = program.getUniformBlock(i);
    const uint32_t binding = static_cast<uint32_t>(std::max(block.getBinding(), 0));
    if (block.name == kDefaultUniformBlockName) {
      linked.default_uniform_block_size = static_cast<uint32_t>(block.size);
    } else {
      linked.uniform_blocks.push_back({block.name, binding - GlBindingMap::kUniformBufferBase, binding,
                                       static_cast<uint32_t>(block.size)});
    }
  }
  for (int i = 0; i < program.getNumBufferBlocks(); ++i) {
    const glslang::TObjectReflection& block = program.getBufferBlock(i);
    const uint32_t binding = static_cast<uint32_t>(std::max(block.getBinding(), 0));
    if (auto gl_binding = atomic_counter_block_binding(block.name)) {
      linked.atomic_counter_buffers.push_back({std::to_string(*gl_binding), *gl_binding,
                                               GlBindingMap::kAtomicCounterBufferBase + *gl_binding,
                                               static_cast<uint32_t>(std::max(block.size, 0))});
      continue;
    }
    linked.storage_blocks.push_back({block.name, binding, binding, static_cast<uint32_t>(block.size)});
  }
  for (int i = 0; i < program.getNumUniformVariables(); ++i) {
    const glslang::TObjectReflection& u = program.getUniform(i);
    if (u.index < 0 || u.index >= program.getNumUniformBlocks()) continue;  // opaque types have no block
    const std::string& block = program.getUniformBlock(u.index).name;
    if (block == kDefaultUniformBlockName) {
      const auto gl_type = static_cast<uint32_t>(u.glDefineType);
      // GL introspection names an array by its first element ("arr[0]", GL 4.6 §7.3.1.1).
      const bool is_array = u.getType() != nullptr && u.getType()->isArray();
      linked.uniforms.push_back({is_array ? u.name + "[0]" : u.name, gl_type, static_cast<uint32_t>(std::max(u.size, 1)),
                                 static_cast<uint32_t>(u.offset), static_cast<uint32_t>(std::max(u.arrayStride, 0)),
                                 std140_matrix_stride(gl_type)});
    }
  }
  // Atomic counters live in storage blocks under relaxed rules, so reflection lists them as buffer variables.
  for (int i = 0; i < program.getNumBufferVariables(); ++i) {
    const glslang::TObjectReflection& v = program.getBufferVariable(i);
    if (v.index < 0 || v.index >= program.getNumBufferBlocks()) continue;
    if (auto gl_binding = atomic_counter_block_binding(program.getBufferBlock(v.index).name)) {
      linked.atomic_counters.push_back({v.name, *gl_binding, static_cast<uint32_t>(v.offset),
                                        static_cast<uint32_t>(std::max(v.size, 1))});
    }
  }
  auto by_binding = [](const GlBufferBinding& a, const GlBufferBinding& b) { return a.gl_binding < b.gl_binding; };
  std::sort(linked.storage_blocks.begin(), linked.storage_blocks.end(), by_binding);
  std::sort(linked.uniform_blocks.begin(), linked.uniform_blocks.end(), by_binding);
  std::sort(linked.atomic_counter_buffers.begin(), linked.atomic_counter_buffers.end(), by_binding);
}

// glslang's reflection reports packed strides for default-block arrays (4 for float[3]) although the block it
// generates follows std140 (16): take offsets and strides of the block's top-level members from the SPIR-V
// decorations, round strides of nested arrays up to 16 (std140 rule 4, GL 4.6 §7.6.2.2), and size the block to
// hold every element glUniform* may write.
Status layout_default_uniforms(GlLinkedProgram& linked) {
  if (linked.default_uniform_block_size == 0) return {};
  auto module = spirv_patch::Module::parse(linked.spirv);
  if (!module) return module.error();
  uint32_t block_type = 0;
  std::unordered_map<uint32_t, std::string> member_names;  // member index -> name
  for (spirv_patch::InstructionHandle h : module->instructions(spirv_patch::Section::Debug)) {
    if (module->opcode(h) == spv::Op::OpName && module->string_operand(h, 2) == kDefaultUniformBlockName) {
      block_type = module->words(h)[1];
    }
  }
  if (block_type == 0) return {};
  for (spirv_patch::InstructionHandle h : module->instructions(spirv_patch::Section::Debug)) {
    const auto w = module->words(h);
    if (module->opcode(h) == spv::Op::OpMemberName && w[1] == block_type) {
      member_names[w[2]] = std::string(module->string_operand(h, 3));
    }
  }
  struct MemberLayout {
    uint32_t offset = 0, array_stride = 0, matrix_stride = 0;
  };
  std::unordered_map<std::string, MemberLayout> members;
  std::unordered_map<uint32_t, uint32_t> array_strides;  // array type id -> ArrayStride
  for (spirv_patch::InstructionHandle h : module->instructions(spirv_patch::Section::Annotation)) {
    const auto w = module->words(h);
    if (module->opcode(h) == spv::Op::OpDecorate && w.size() == 4 &&
        static_cast<spv::Decoration>(w[2]) == spv::Decoration::ArrayStride) {
      array_strides[w[1]] = w[3];
    } else if (module->opcode(h) == spv::Op::OpMemberDecorate && w.size() == 5 && w[1] == block_type) {
      auto name = member_names.find(w[2]);
      if (name == member_names.end()) continue;
      if (static_cast<spv::Decoration>(w[3]) == spv::Decoration::Offset) members[name->second].offset = w[4];
      if (static_cast<spv::Decoration>(w[3]) == spv::Decoration::MatrixStride) members[name->second].matrix_stride = w[4];
    }
  }
  if (auto block = module->definition(block_type); block && module->opcode(*block) == spv::Op::OpTypeStruct) {
    const auto w = module->words(*block);
    for (size_t m = 2; m < w.size(); ++m) {
      auto name = member_names.find(static_cast<uint32_t>(m - 2));
      auto stride = array_strides.find(w[m]);
      if (name != member_names.end() && stride != array_strides.end()) members[name->second].array_stride = stride->second;
    }
  }
  for (GlUniform& u : linked.uniforms) {
    std::string base = u.name;
    if (base.ends_with("[0]")) base.resize(base.size() - 3);
    if (auto member = members.find(base); member != members.end()) {
      u.offset = member->second.offset;
      if (member->second.array_stride != 0) u.array_stride = member->second.array_stride;
      if (member->second.matrix_stride != 0) u.matrix_stride = member->second.matrix_stride;
    } else if (u.array_size > 1 && u.matrix_stride == 0) {
      u.array_stride = std::max<uint32_t>(16, (u.array_stride + 15) & ~15u);
    }
    const uint32_t element = u.matrix_stride != 0 ? u.matrix_stride * 4 : std::max<uint32_t>(u.array_stride, 16);
    const uint32_t end = u.offset + (u.array_size - 1) * u.array_stride + element;
    linked.default_uniform_block_size = std::max(linked.default_uniform_block_size, end);
  }
  return {};
}

// Gives the active resources Vulkan bindings 0..n-1 (storage blocks, uniform blocks, atomic-counter buffers, then
// the default uniform block, each by GL binding): the layout the pipeline writes into the SPIR-V.
//
// glslang's relaxed Vulkan rules bind each resource in a GL namespace (GlBindingMap: storage blocks at b, uniform
// blocks at 32 + b, ...), except atomic counters: each GL atomic-counter binding b becomes a storage block
// "gl_AtomicCounterBlock_<b>" bound at b, inside the storage-buffer namespace, read as kAtomicCounterBufferBase + b.
// Declared but inactive resources (not statically used, so not reflected) need no descriptor, only binding numbers
// after the active ones. A program needs only as many descriptors as it uses: push-descriptor set layouts are
// limited to maxPushDescriptors (32 on common drivers).
void assign_compact_bindings(GlLinkedProgram& linked) {
  std::unordered_map<uint32_t, uint32_t> compact;  // namespace binding (reflect's vk_binding) -> final binding
  auto assign = [&](std::vector<GlBufferBinding>& list, GlResourceKind kind) {
    for (GlBufferBinding& b : list) {
      compact[b.vk_binding] = static_cast<uint32_t>(linked.resources.size());
      b.vk_binding = static_cast<uint32_t>(linked.resources.size());
      linked.resources.push_back({kind, b.gl_binding});
    }
  };
  assign(linked.storage_blocks, GlResourceKind::ShaderStorageBuffer);
  assign(linked.uniform_blocks, GlResourceKind::UniformBuffer);
  assign(linked.atomic_counter_buffers, GlResourceKind::AtomicCounterBuffer);
  if (linked.default_uniform_block_size > 0) {
    compact[GlBindingMap::kDefaultUniformBlockBinding] = static_cast<uint32_t>(linked.resources.size());
    linked.resources.push_back({GlResourceKind::DefaultUniformBlock, 0});
  }
  linked.bindings.by_binding = std::move(compact);
  linked.bindings.atomic_counter_block_base = GlBindingMap::kAtomicCounterBufferBase;
  linked.bindings.unmapped = spirv_patch::DescriptorBindingRemap::Unmapped::NumberAfter;
}

// The link proper; runs on the compiler thread (large_stack.hpp).
Expected<GlLinkedProgram> link_on_this_thread(std::span<const std::shared_ptr<const GlShader>> shaders,
                                              const GlLinkLimits& limits) {
  if (shaders.empty()) return fail(link_error("no compute shader attached"));
  bool any_fixed = false;
  bool any_variable = false;
  for (const auto& shader : shaders) {
    if (!shader || !shader->ok()) return fail(link_error("a compute shader attached to the program failed to compile"));
    any_fixed |= shader->group_size() == GroupSize::Fixed;
    any_variable |= shader->group_size() == GroupSize::Variable;
  }
  // ARB_compute_variable_group_size: a program whose shaders mix fixed and variable sizes, or declare none, fails
  // to link.
  if (any_fixed && any_variable) {
    return fail(link_error(
        "compute shaders in one program declare both a fixed and a variable (local_size_variable) local group size"));
  }
  if (!any_fixed && !any_variable) {
    return fail(link_error("compute shader must declare a local group size (local_size_x/y/z or local_size_variable)"));
  }

  glslang::TProgram program;
  for (const auto& shader : shaders) program.addShader(shader->impl().shader.get());
  if (!program.link(kRelaxedVulkanMessages) || !program.mapIO()) {
    std::string log = program.getInfoLog();
    return fail(log.empty() ? link_error("linking failed") : log);
  }
  const glslang::TIntermediate* intermediate = program.getIntermediate(EShLangCompute);
  if (intermediate == nullptr) return fail(link_error("no compute shader attached"));

  GlLinkedProgram linked;
  linked.group_size = any_variable ? GroupSize::Variable : GroupSize::Fixed;
  if (any_fixed) {
    for (int i = 0; i < 3; ++i) linked.fixed_size[i] = intermediate->getLocalSize(i);
  }
  glslang::SpvOptions spv_options;
  spv_options.validate = false;
  spv::SpvBuildLogger logger;
  glslang::GlslangToSpv(*intermediate, linked.spirv, &logger, &spv_options);
  if (linked.spirv.empty()) return fail(link_error("SPIR-V generation failed: " + logger.getAllMessages()));
  if (auto unbacked = unbacked_capability(linked.spirv, shaders.front()->options().extensions)) {
    return fail(link_error(*unbacked));
  }
  if (auto shared = shared_memory_bytes(linked.spirv)) {
    linked.shared_memory_bytes = *shared;
    if (limits.max_compute_shared_memory_size && *shared > *limits.max_compute_shared_memory_size) {
      return fail(link_error("too much shared memory: the program's shared variables take " + std::to_string(*shared) +
                             " bytes (std430 layout), above GL_MAX_COMPUTE_SHARED_MEMORY_SIZE (" +
                             std::to_string(*limits.max_compute_shared_memory_size) + " bytes)"));
    }
  }
  reflect(program, linked);
  if (Status laid_out = layout_default_uniforms(linked); !laid_out) return fail(link_error(laid_out.error().message));
  assign_compact_bindings(linked);
  linked.info_log = program.getInfoLog();
  return linked;
}

}  // namespace

Expected<GlLinkedProgram> link_gl_program(std::span<const std::shared_ptr<const GlShader>> shaders,
                                          const GlLinkLimits& limits) {
  ensure_glslang_initialized();
  size_t stack = 0;
  for (const auto& shader : shaders) stack = std::max(stack, shader ? shader->impl().stack_bytes : 0);
  Expected<GlLinkedProgram> linked = fail("not linked");
  if (Status ran = run_with_stack(stack, [&] { linked = link_on_this_thread(shaders, limits); }); !ran) {
    return fail(link_error("internal error: " + ran.error().message));
  }
  return linked;
}

}  // namespace bismuth::translator
