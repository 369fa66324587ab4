// The GLSL front of the GL shim: GL-semantics GLSL compute shaders (default-block uniforms, atomic counters,
// GL's separate binding namespaces, ARB_compute_variable_group_size) compiled to Vulkan SPIR-V.
//
// glCompileShader maps to GlShader::compile, glLinkProgram to link_gl_program. A shader is checked with GL's
// rules first (glslang as a GL front end: the errors a GL driver gives, in GL info-log form
// "0:line(column): error: ..."), then compiled with glslang's relaxed Vulkan rules, which place default-block
// uniforms in a uniform block and atomic counters in storage blocks. Compute shaders at #version 140 .. 410 (with
// GL_ARB_compute_shader, as GL drivers take them) are compiled at glslang's lowest compute version, 420, with GL's
// rules for the declared version checked by the front (docs/gl_shim.md, "GLSL versions below 4.20").
//
// Bad input is a compile or link error in the info log, never a crash: sources that nest deeper than the front's
// documented limits (docs/gl_shim.md, "Limits") are compile errors at their line and column, and glslang runs on a
// thread of its own with a large stack when the caller's has too little room for the depth of the source.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bismuth/common/compile_target.hpp"
#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/passes/atomic_counters_to_storage_buffers.hpp"
#include "bismuth/spirv_patch/passes/default_uniforms_to_uniform_block.hpp"
#include "bismuth/spirv_patch/passes/remap_descriptor_bindings.hpp"
#include "bismuth/spirv_patch/target_env.hpp"
#include "bismuth/translator/num_waves.hpp"

namespace bismuth::spirv_patch {
class Module;
}

namespace bismuth::translator {

// GL keeps shader-storage, uniform-buffer and atomic-counter bindings in separate namespaces, and lets the
// application change a block's binding after link. The front gives each active block (and the default uniform
// block) a Vulkan binding of its own, 0..n-1 of set 0, and records in GlLinkedProgram::resources which GL binding
// point feeds it: GL binding -> Vulkan descriptor is resolved at dispatch, never written into the module. While
// compiling, glslang places blocks with a declared binding in per-kind ranges (shader-storage b -> b, uniform
// b -> kUniformBufferBase + b, the default uniform block at kDefaultUniformBlockBinding) and numbers the others
// itself. The maxima are the binding counts Bismuth exposes to GL: MAX_UNIFORM_BUFFER_BINDINGS is GL 4.6's minimum,
// 84 (OpenGL ES 3.2 asks 72).
struct GlBindingMap {
  static constexpr uint32_t kDescriptorSet = 0;
  static constexpr uint32_t kMaxShaderStorageBufferBindings = 32;
  static constexpr uint32_t kUniformBufferBase = kMaxShaderStorageBufferBindings;
  static constexpr uint32_t kMaxUniformBufferBindings = 84;
  static constexpr uint32_t kAtomicCounterBufferBase = kUniformBufferBase + kMaxUniformBufferBindings;
  static constexpr uint32_t kMaxAtomicCounterBufferBindings = 8;
  static constexpr uint32_t kDefaultUniformBlockBinding = kAtomicCounterBufferBase + kMaxAtomicCounterBufferBindings;
};

// Atomic counters each stage may use (GL 4.6 Table 23.57: MAX_<STAGE>_ATOMIC_COUNTERS,
// MAX_<STAGE>_ATOMIC_COUNTER_BUFFERS and their MAX_COMBINED_ forms). Counters are storage-buffer words, so every
// stage gets what compute gets; glslang enforces them at compile (TBuiltInResource), glGet* reports them.
struct GlAtomicCounterLimits {
  static constexpr uint32_t kPerStageCounters = 1024;
  static constexpr uint32_t kCombinedCounters = 1024;
  static constexpr uint32_t kPerStageBuffers = GlBindingMap::kMaxAtomicCounterBufferBindings;
  static constexpr uint32_t kCombinedBuffers = GlBindingMap::kMaxAtomicCounterBufferBindings;
};

// Uniform and shader storage blocks each stage may use (GL 4.6 Table 23.57-23.62: MAX_<STAGE>_UNIFORM_BLOCKS,
// MAX_<STAGE>_SHADER_STORAGE_BLOCKS, MAX_COMBINED_*): compute's numbers for every stage. The graphics link checks
// them (glslang 12 does not); glGet* reports them.
struct GlStageBlockLimits {
  static constexpr uint32_t kUniformBlocks = 14;
  static constexpr uint32_t kCombinedUniformBlocks = 70;
  static constexpr uint32_t kShaderStorageBlocks = 16;
  static constexpr uint32_t kCombinedShaderStorageBlocks = 16;
  static constexpr uint32_t kUniformBlockSize = 16384;  // MAX_UNIFORM_BLOCK_SIZE, bytes
};

// Texture and image units (GL 4.6 Table 23.57 / 23.64, OpenGL ES 3.2 Tables 21.49 / 21.54, issue 18): compute's
// numbers for every stage; each is at least GL 4.6's minimum (16, 80, 8, 8, 8) and OpenGL ES 3.2's. The GL shim
// reports them (lowered where the device's per-stage descriptor limits are smaller), glslang's gl_Max* built-in
// constants have the same values, and the context's unit arrays have these sizes.
struct GlTextureLimits {
  static constexpr uint32_t kComputeTextureImageUnits = 32;   // MAX_COMPUTE_TEXTURE_IMAGE_UNITS (sampler uniforms' units)
  static constexpr uint32_t kCombinedTextureImageUnits = 96;  // MAX_COMBINED_TEXTURE_IMAGE_UNITS: texture units
  static constexpr uint32_t kImageUnits = 8;                  // MAX_IMAGE_UNITS: glBindImageTexture units
  static constexpr uint32_t kComputeImageUniforms = 8;        // MAX_COMPUTE_IMAGE_UNIFORMS
  static constexpr uint32_t kCombinedImageUniforms = 8;       // MAX_COMBINED_IMAGE_UNIFORMS
};

// The per-stage limits on default-block uniforms and on stage inputs and outputs (GL 4.6 Tables 23.57-23.62,
// OpenGL ES 3.2 Tables 21.49-21.54), in components. glGet* reports them, glslang's gl_Max* built-in constants have
// the same values (resource_limits.cpp), and the graphics link checks them (stage_limits.cpp; glslang 12 checks
// none). Uniform components: compute's 4096 for every stage (the default block is the shim's CPU copy); the
// MAX_COMBINED_<STAGE>_UNIFORM_COMPONENTS are the tables' formula, MAX_<STAGE>_UNIFORM_BLOCKS x
// MAX_UNIFORM_BLOCK_SIZE / 4 + MAX_<STAGE>_UNIFORM_COMPONENTS. Inputs and outputs: GL 4.6's minimum values (each at
// least OpenGL ES 3.2's): Bismuth does not draw, so no device limit applies to them yet.
struct GlStageLimits {
  static constexpr uint32_t kUniformComponents = 4096;  // MAX_<STAGE>_UNIFORM_COMPONENTS (minimum 1024)
  static constexpr uint32_t kCombinedUniformComponents =
      GlStageBlockLimits::kUniformBlocks * GlStageBlockLimits::kUniformBlockSize / 4 + kUniformComponents;
  static constexpr uint32_t kVertexAttribs = 16;                       // MAX_VERTEX_ATTRIBS
  static constexpr uint32_t kVertexOutputComponents = 128;             // MAX_VERTEX_OUTPUT_COMPONENTS
  static constexpr uint32_t kTessControlInputComponents = 128;         // MAX_TESS_CONTROL_INPUT_COMPONENTS
  static constexpr uint32_t kTessControlOutputComponents = 128;        // MAX_TESS_CONTROL_OUTPUT_COMPONENTS
  static constexpr uint32_t kTessPatchComponents = 120;                // MAX_TESS_PATCH_COMPONENTS
  static constexpr uint32_t kTessControlTotalOutputComponents = 4096;  // MAX_TESS_CONTROL_TOTAL_OUTPUT_COMPONENTS
  static constexpr uint32_t kTessEvaluationInputComponents = 128;      // MAX_TESS_EVALUATION_INPUT_COMPONENTS
  static constexpr uint32_t kTessEvaluationOutputComponents = 128;     // MAX_TESS_EVALUATION_OUTPUT_COMPONENTS
  static constexpr uint32_t kGeometryInputComponents = 128;            // MAX_GEOMETRY_INPUT_COMPONENTS
  static constexpr uint32_t kGeometryOutputComponents = 128;           // MAX_GEOMETRY_OUTPUT_COMPONENTS
  static constexpr uint32_t kGeometryOutputVertices = 256;             // MAX_GEOMETRY_OUTPUT_VERTICES
  static constexpr uint32_t kGeometryTotalOutputComponents = 1024;     // MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS
  static constexpr uint32_t kFragmentInputComponents = 128;            // MAX_FRAGMENT_INPUT_COMPONENTS
  static constexpr uint32_t kVaryingComponents = 128;  // MAX_VARYING_COMPONENTS (MAX_VARYING_VECTORS 32)
};

// Transform feedback limits (GL 4.6 Table 23.73, OpenGL ES 3.2 Table 21.56): GL 4.6's minimum values, checked by
// the graphics link (transform_feedback_varyings.cpp) and, for xfb_* layout qualifiers, by glslang against the same
// numbers (resource_limits.cpp).
struct GlTransformFeedbackLimits {
  static constexpr uint32_t kInterleavedComponents = 64;  // MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS
  static constexpr uint32_t kSeparateComponents = 4;      // MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS
  static constexpr uint32_t kSeparateAttribs = 4;         // MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS
  static constexpr uint32_t kBuffers = 4;                 // MAX_TRANSFORM_FEEDBACK_BUFFERS
};

// SpecIds a variable-group-size program's size is specialised through (x, y, z). High enough not to meet the
// small constant_id values GLSL programs use.
inline constexpr std::array<uint32_t, 3> kVariableGroupSizeSpecIds = {0x7B00, 0x7B01, 0x7B02};

// Fixed: local_size_x/y/z; Variable: local_size_variable (ARB_compute_variable_group_size); NumWaves:
// layout(num_waves = X) in; (GL_BISMUTH_num_waves), the size specialization constants at kVariableGroupSizeSpecIds
// that the consumer sets to (X × wave size, 1, 1).
enum class GroupSize { None, Fixed, Variable, NumWaves };

struct NestingReport;  // the front's depth measure of a source (src/nesting_limits.hpp)

// The language of a shader object's source. HLSL is not GL: the GL shim offers it through its own entry point
// (docs/hlsl.md, "In the GL shim"); the compile and link below are those of docs/hlsl.md with GL's binding
// namespaces: register(uN) is shader-storage binding N, register(bN) uniform-buffer binding N.
enum class GlShaderLanguage { Glsl, Hlsl };

struct GlCompileOptions {
  spirv_patch::TargetEnv target = spirv_patch::TargetEnv::Vulkan1_1;
  GlShaderLanguage language = GlShaderLanguage::Glsl;
  std::string entry_point = "main";  // HLSL only: the entry function (the module's entry point keeps its name)
  // The device-gated GLSL extensions the program's device has (CompileTarget::extensions); the defaults allow all.
  ShaderExtensionSupport extensions;
};

// One compiled compute shader object (glCompileShader's result). Never null from compile(); check ok().
class GlShader {
 public:
  static std::shared_ptr<const GlShader> compile(std::string_view source, const GlCompileOptions& options = {});
  ~GlShader();
  GlShader(const GlShader&) = delete;
  GlShader& operator=(const GlShader&) = delete;

  bool ok() const { return ok_; }
  // GL info log: one "0:line(column): error|warning: text" line per diagnostic; empty when clean.
  const std::string& info_log() const { return info_log_; }
  GroupSize group_size() const { return group_size_; }
  // Set iff group_size() == GroupSize::NumWaves.
  const std::optional<NumWavesDeclaration>& num_waves() const { return num_waves_; }
  const GlCompileOptions& options() const { return options_; }

  struct Impl;  // glslang state kept for linking
  const Impl& impl() const { return *impl_; }

 private:
  GlShader();
  // The compile proper, once `source` is known to be within the nesting limits (large_stack.hpp says where it
  // runs).
  void compile_source(std::string_view source, const NestingReport& nesting);
  void compile_hlsl_source(std::string_view source);
  bool ok_ = false;
  std::string info_log_;
  GroupSize group_size_ = GroupSize::None;
  std::optional<NumWavesDeclaration> num_waves_;
  GlCompileOptions options_;
  std::unique_ptr<Impl> impl_;
};

enum class GlResourceKind {
  ShaderStorageBuffer,
  UniformBuffer,
  AtomicCounterBuffer,
  DefaultUniformBlock,
  // Opaque uniforms (GL 4.6 §7.6, GLSL 4.60 §4.1.7): a sampler (COMBINED_IMAGE_SAMPLER), samplerBuffer
  // (UNIFORM_TEXEL_BUFFER), an image (STORAGE_IMAGE), imageBuffer (STORAGE_TEXEL_BUFFER). Each element reads the
  // texture or image unit that is the uniform's value (glUniform1i), resolved at dispatch.
  Texture,
  TextureBuffer,
  Image,
  ImageBuffer,
};

// The base type of a sampler's or image's texels as the shader reads them: vec4 (sampler2D), ivec4 (isampler2D),
// uvec4 (usampler2D).
enum class GlSampledType : uint8_t { Float, Int, Uint };

// Memory qualifiers of an image uniform (GLSL 4.60 §4.10): the dispatch binds readonly images for reading,
// writeonly ones for writing, others for both.
enum GlImageMemory : uint32_t {
  kImageReadonly = 1u << 0,
  kImageWriteonly = 1u << 1,
  kImageCoherent = 1u << 2,
  kImageVolatile = 1u << 3,
  kImageRestrict = 1u << 4,
};

// What a sampler or image uniform needs from the texture or image unit it reads (GL 4.6 §7.6, §8.26).
struct GlOpaqueInfo {
  GlResourceKind kind = GlResourceKind::Texture;  // Texture, TextureBuffer, Image or ImageBuffer
  // The texture target it samples: GL_TEXTURE_2D, GL_TEXTURE_CUBE_MAP_ARRAY, GL_TEXTURE_BUFFER, ...
  uint32_t target = 0;
  bool shadow = false;  // sampler2DShadow, ...: depth comparison (the sampler's compare mode)
  GlSampledType sampled_type = GlSampledType::Float;
  uint32_t format = 0;  // images: the format layout qualifier as a GL internal format (GL_RGBA8, GL_R32UI); 0: none
  uint32_t memory = 0;  // images: GlImageMemory bits
  // `layout(binding = N)`: the initial unit of element 0 (element k: N + k); -1 when none was declared (unit 0).
  int32_t declared_binding = -1;
  uint32_t resource = 0;  // GlLinkedProgram::resources index of element 0 (element k: resource + k)
};

// A default-block uniform as GL introspection names it ("a", "arr[0]", "s.y[0]").
struct GlUniform {
  std::string name;
  uint32_t gl_type = 0;     // GL_FLOAT, GL_UNSIGNED_INT_VEC4, GL_FLOAT_MAT3, ...
  uint32_t array_size = 1;  // elements (1 for non-arrays)
  uint32_t offset = 0;      // byte offset in the default uniform block
  uint32_t array_stride = 0;
  uint32_t matrix_stride = 0;
  // The declared location (`layout(location = N)`; every ARB_gl_spirv uniform, which has no name); -1: the link
  // assigns one (the GL shim's program_link.cpp).
  int32_t location = -1;
  // The stages that reference it in a program of graphics stages (GL_REFERENCED_BY_*_SHADER): bit k for
  // ShaderStage k (vertex 0 ... fragment 4), as glslang's reflection masks stages. Unused (0) in compute programs,
  // whose resources are all referenced by the compute stage.
  uint32_t stages = 0;
  // Samplers and images (opaque types): no storage in the default uniform block; the value of each element is a
  // unit number that the GL shim keeps beside the program (initially the binding qualifier's, else 0).
  std::optional<GlOpaqueInfo> opaque;
};

// A member of a uniform block (a GL_UNIFORM resource) or a buffer variable of a shader storage block
// (GL_BUFFER_VARIABLE), named by GL 4.6 §7.3.1.1's rules: "B.a" for a block with an instance name, "a[0]" for an
// array of basic types, "s.f" for a structure member, "s[0].f" for only the first element of a top-level array of
// structures in a shader storage block (the others are covered by GL_TOP_LEVEL_ARRAY_SIZE/STRIDE).
struct GlBlockMember {
  std::string name;
  uint32_t gl_type = 0;
  uint32_t array_size = 1;  // GL_ARRAY_SIZE: 1 for non-arrays, 0 for an unsized array
  uint32_t offset = 0;
  uint32_t block = 0;  // index into GlLinkedProgram::uniform_blocks or storage_blocks
  uint32_t array_stride = 0;
  uint32_t matrix_stride = 0;
  bool row_major = false;
  uint32_t top_level_array_size = 1;  // buffer variables only: 0 for an unsized top-level array
  uint32_t top_level_array_stride = 0;
  uint32_t stages = 0;  // GL_REFERENCED_BY_*: as GlUniform::stages
};

// A uniform or shader-storage block, or an atomic-counter buffer, with its GL and Vulkan bindings.
struct GlBufferBinding {
  std::string name;  // block name; for atomic counters the GL binding as text
  uint32_t gl_binding = 0;
  uint32_t vk_binding = 0;  // index into GlLinkedProgram::resources (its descriptor)
  uint32_t min_size = 0;    // bytes the shader reads or writes at fixed offsets (a runtime array counts as 0)
  uint32_t stages = 0;      // GL_REFERENCED_BY_*: as GlUniform::stages
};

// What Vulkan binding i of set 0 holds: the buffer bound to a GL binding point, the default uniform block, or one
// element of a sampler or image uniform (the texture or image at the unit that is that element's value).
struct GlResource {
  GlResourceKind kind;
  uint32_t gl_binding = 0;  // buffers: the GL binding point; opaque kinds: the element of the uniform
  uint32_t uniform = 0;     // opaque kinds: the index of the uniform in GlLinkedProgram::uniforms
};

// Whether a resource is a sampler or image uniform's element.
constexpr bool is_opaque(GlResourceKind kind) {
  return kind == GlResourceKind::Texture || kind == GlResourceKind::TextureBuffer || kind == GlResourceKind::Image ||
         kind == GlResourceKind::ImageBuffer;
}

struct GlAtomicCounter {
  std::string name;
  uint32_t gl_binding = 0;
  uint32_t offset = 0;
  uint32_t array_size = 1;
  uint32_t stages = 0;  // GL_REFERENCED_BY_*: as GlUniform::stages
};

struct GlLinkedProgram {
  // glslang's module (entry point "main"), its resources still bound as glslang bound them: the pipeline
  // (gl_program_pipeline.hpp) writes `bindings` into it on the way to the driver.
  std::vector<uint32_t> spirv;
  std::string entry_point = "main";
  spirv_patch::DescriptorBindingRemap bindings;  // block variable -> resources[] index
  GroupSize group_size = GroupSize::None;
  std::array<uint32_t, 3> fixed_size{};  // for GroupSize::Fixed (GL's COMPUTE_WORK_GROUP_SIZE)
  std::array<uint32_t, 3> size_spec_ids = kVariableGroupSizeSpecIds;  // for GroupSize::Variable and NumWaves
  std::optional<NumWavesDeclaration> num_waves;                       // set iff group_size == GroupSize::NumWaves
  // The descriptors of set 0 in binding order: Vulkan binding j holds the next descriptor_counts[j] of them (all
  // bindings one descriptor when descriptor_counts is empty). An array of blocks is one binding.
  std::vector<GlResource> resources;
  std::vector<uint32_t> descriptor_counts;
  uint32_t default_uniform_block_size = 0;  // 0: no default-block uniforms
  std::vector<GlUniform> uniforms;
  std::vector<GlBlockMember> uniform_block_members;  // GL_UNIFORM resources after `uniforms`
  std::vector<GlBlockMember> buffer_variables;       // GL_BUFFER_VARIABLE resources
  std::vector<GlBufferBinding> storage_blocks;
  std::vector<GlBufferBinding> uniform_blocks;
  std::vector<GlBufferBinding> atomic_counter_buffers;
  std::vector<GlAtomicCounter> atomic_counters;
  // Bytes of the program's shared variables (Workgroup storage), laid out as described at GlLinkLimits.
  uint64_t shared_memory_bytes = 0;
  std::string info_log;  // warnings of a successful link
  // ARB_gl_spirv input: GL storage classes Vulkan lacks, turned into buffers by the pipeline at these bindings, and a
  // LocalSizeId size the pipeline restates in a Vulkan 1.1 form (gl_program_pipeline passes them on).
  std::optional<spirv_patch::DefaultUniformBlockOptions> spirv_default_uniform_block;
  std::optional<spirv_patch::AtomicCounterBufferOptions> spirv_atomic_counter_buffers;
  bool spirv_local_size_id = false;
};

// The device's limits a link checks.
struct GlLinkLimits {
  // GL_MAX_COMPUTE_SHARED_MEMORY_SIZE; nullopt: not checked (no device, as for `bismuth compile`). GLSL 4.60
  // §4.3.8 limits "the total size of all variables declared as shared in a single program object" to it. The
  // size is that of the SPIR-V's Workgroup variables with std430 sizes and alignments (GL 4.6 §7.6.2.2: arrays
  // of vec3 have a 16-byte stride, a matrix is an array of its columns, a struct is aligned to its largest member
  // and padded to that alignment; a bool takes 4 bytes), the variables placed one after another, each at its
  // alignment, as Mesa places them.
  std::optional<uint32_t> max_compute_shared_memory_size;
};

// glLinkProgram: links the attached compute shaders. On failure the error message is the GL info log.
// Link errors (GL rules): a shader that failed to compile; no compute shader; no `main`; variable size in one
// shader and fixed in another; num_waves in one shader and a fixed or variable size in another, or shaders with
// different num_waves / wave-size ranges (GL_BISMUTH_num_waves); no local group size declared at all; conflicting fixed
// sizes; shared variables larger than limits.max_compute_shared_memory_size; an HLSL shader linked with any other
// shader. The SPIR-V targets the environment the shaders were compiled for.
Expected<GlLinkedProgram> link_gl_program(std::span<const std::shared_ptr<const GlShader>> shaders,
                                          const GlLinkLimits& limits = {});
// The same, also giving the module of the program's words its checks parsed (a Module::parse of
// GlLinkedProgram::spirv, or its equal): glLinkProgram hands it to spirv_patch::run_pipeline, which then does not
// parse the words again. Unset when the link fails.
Expected<GlLinkedProgram> link_gl_program(std::span<const std::shared_ptr<const GlShader>> shaders,
                                          const GlLinkLimits& limits, std::optional<spirv_patch::Module>* parsed);

}  // namespace bismuth::translator
