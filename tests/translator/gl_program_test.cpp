// The GL shim's GLSL front: ARB_compute_variable_group_size's GLSL rules (quoted from the extension), GL's
// default-block uniforms, atomic counters and binding namespaces, GL-style info logs.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "bismuth/spirv_patch/validate.hpp"
#include "bismuth/translator/gl_program_pipeline.hpp"
#include "bismuth/translator/gl_program.hpp"

using namespace bismuth::translator;
using bismuth::spirv_patch::TargetEnv;

namespace {

std::shared_ptr<const GlShader> compile(const std::string& source) { return GlShader::compile(source); }

bismuth::Expected<GlLinkedProgram> link(std::initializer_list<std::shared_ptr<const GlShader>> shaders) {
  std::vector<std::shared_ptr<const GlShader>> list(shaders);
  return link_gl_program(list);
}

// Words of the SPIR-V instruction stream: does any OpDecorate <id> SpecId <value> exist?
bool has_spec_id(const std::vector<uint32_t>& words, uint32_t spec_id) {
  for (size_t at = 5; at < words.size() && (words[at] >> 16) != 0; at += words[at] >> 16) {
    if ((words[at] & 0xffff) == 71 /* OpDecorate */ && (words[at] >> 16) == 4 && words[at + 2] == 1 /* SpecId */ &&
        words[at + 3] == spec_id) {
      return true;
    }
  }
  return false;
}

// The words the driver gets: the link's module through its pipeline, which writes the compact binding layout.
std::vector<uint32_t> driver_words(const bismuth::translator::GlLinkedProgram& program) {
  auto piped = bismuth::spirv_patch::run_pipeline(program.spirv,
                                                  bismuth::translator::gl_program_pipeline(program, {}));
  if (!piped) FAIL(piped.error().message);
  return piped->words;
}

// The Binding decoration of the variable named `name` (OpName), or -1.
int binding_of(const std::vector<uint32_t>& words, const std::string& name) {
  uint32_t id = 0;
  for (size_t at = 5; at < words.size() && (words[at] >> 16) != 0; at += words[at] >> 16) {
    if ((words[at] & 0xffff) == 5 /* OpName */ && name == reinterpret_cast<const char*>(&words[at + 2])) {
      id = words[at + 1];
    }
  }
  // Blocks are named on their type; find the variable whose pointer type points at it.
  uint32_t pointer = 0, variable = 0;
  for (size_t at = 5; at < words.size() && (words[at] >> 16) != 0; at += words[at] >> 16) {
    const uint32_t op = words[at] & 0xffff;
    if (op == 32 /* OpTypePointer */ && words[at + 3] == id) pointer = words[at + 1];
    if (op == 59 /* OpVariable */ && (words[at + 1] == pointer || words[at + 2] == id)) variable = words[at + 2];
  }
  for (size_t at = 5; at < words.size() && (words[at] >> 16) != 0; at += words[at] >> 16) {
    if ((words[at] & 0xffff) == 71 && words[at + 1] == variable && words[at + 2] == 33 /* Binding */) {
      return static_cast<int>(words[at + 3]);
    }
  }
  return -1;
}

constexpr const char* kVariableHeader =
    "#version 450\n"
    "#extension GL_ARB_compute_variable_group_size : require\n"
    "layout(local_size_variable) in;\n"
    "layout(std430, binding = 1) buffer Out { uint o[]; };\n";

}  // namespace

TEST_CASE("A fixed local group size is the program's COMPUTE_WORK_GROUP_SIZE") {
  auto shader = compile("#version 450\nlayout(local_size_x = 8, local_size_y = 4, local_size_z = 2) in;\n"
                        "layout(std430, binding = 0) buffer B { uint b[]; };\nvoid main() { b[0] = 1u; }\n");
  REQUIRE(shader->ok());
  CHECK(shader->group_size() == GroupSize::Fixed);
  auto program = link({shader});
  REQUIRE(program);
  CHECK(program->group_size == GroupSize::Fixed);
  CHECK(program->fixed_size == std::array<uint32_t, 3>{8, 4, 2});
  CHECK(bismuth::spirv_patch::validate(program->spirv, TargetEnv::Vulkan1_1));
}

TEST_CASE("local_size_variable becomes specialization-constant sizes") {
  auto shader = compile(std::string(kVariableHeader) +
                        "void main() { o[gl_LocalInvocationIndex] = gl_LocalGroupSizeARB.x * 2u; }\n");
  INFO(shader->info_log());
  REQUIRE(shader->ok());
  auto program = link({shader});
  REQUIRE(program);
  CHECK(program->group_size == GroupSize::Variable);
  for (uint32_t id : kVariableGroupSizeSpecIds) CHECK(has_spec_id(program->spirv, id));
  auto valid = bismuth::spirv_patch::validate(program->spirv, TargetEnv::Vulkan1_1);
  INFO((valid ? "" : valid.error().message));
  CHECK(valid);
}

TEST_CASE("The GL_ARB_compute_variable_group_size macro is defined") {
  auto shader = compile("#version 450\n#ifndef GL_ARB_compute_variable_group_size\n#error missing\n#endif\n"
                        "layout(local_size_x = 1) in;\nvoid main() {}\n");
  INFO(shader->info_log());
  CHECK(shader->ok());
}

TEST_CASE("local_size_variable without the #extension is a compile error") {
  auto shader = compile("#version 450\n\nlayout(local_size_variable) in;\nvoid main() {}\n");
  CHECK_FALSE(shader->ok());
  CHECK_THAT(shader->info_log(),
             Catch::StartsWith("0:3(8): error: 'local_size_variable' requires #extension "
                               "GL_ARB_compute_variable_group_size"));
}

TEST_CASE("#extension : disable turns the extension off again") {
  auto shader = compile("#version 450\n#extension GL_ARB_compute_variable_group_size : enable\n"
                        "#extension GL_ARB_compute_variable_group_size : disable\n"
                        "layout(local_size_variable) in;\nvoid main() {}\n");
  CHECK_FALSE(shader->ok());
  CHECK_THAT(shader->info_log(), Catch::StartsWith("0:4(8): error:"));
}

TEST_CASE("#extension : warn allows the extension with a warning") {
  auto shader = compile("#version 450\n#extension GL_ARB_compute_variable_group_size : warn\n"
                        "layout(local_size_variable) in;\nvoid main() {}\n");
  INFO(shader->info_log());
  CHECK(shader->ok());
  CHECK_THAT(shader->info_log(), Catch::Contains("0:3(8): warning:"));
}

TEST_CASE("A shader declaring both fixed and variable sizes fails to compile") {
  // "If the shader ... declares both a fixed and a variable local group size, a compile-time error results."
  auto shader = compile("#version 450\n#extension GL_ARB_compute_variable_group_size : require\n"
                        "layout(local_size_variable) in;\nlayout(local_size_x = 4) in;\nvoid main() {}\n");
  CHECK_FALSE(shader->ok());
  CHECK_THAT(shader->info_log(), Catch::Contains("0:4(8): error:") && Catch::Contains("both a fixed"));
}

TEST_CASE("gl_WorkGroupSize in a variable-size shader is a compile error") {
  // GLSL 4.30 §7.1: "It is a compile-time error to use gl_WorkGroupSize in a shader that does not declare a fixed
  // local group size".
  auto shader = compile(std::string(kVariableHeader) + "void main() { o[0] = gl_WorkGroupSize.x; }\n");
  CHECK_FALSE(shader->ok());
  CHECK_THAT(shader->info_log(), Catch::Contains("0:5(22): error: 'gl_WorkGroupSize'"));
}

TEST_CASE("gl_LocalGroupSizeARB cannot size an array") {
  // "Such declarations would be illegal using the input gl_LocalGroupSizeARB."
  auto shader = compile(std::string(kVariableHeader) + "void main() {\n  uint v[gl_LocalGroupSizeARB.x];\n}\n");
  CHECK_FALSE(shader->ok());
  CHECK_THAT(shader->info_log(), Catch::Contains("0:6(10): error: 'gl_LocalGroupSizeARB' is not a constant"));
  auto shared = compile(std::string(kVariableHeader) + "shared float s[gl_LocalGroupSizeARB.x * 2u];\nvoid main() {}\n");
  CHECK_FALSE(shared->ok());
}

TEST_CASE("gl_LocalGroupSizeARB may index an array") {
  auto shader = compile(std::string(kVariableHeader) +
                        "void main() {\n  o[gl_LocalGroupSizeARB.x - 1u] = 1u;\n  uint k = o[gl_LocalGroupSizeARB.y];\n}\n");
  INFO(shader->info_log());
  CHECK(shader->ok());
}

TEST_CASE("gl_LocalGroupSizeARB in a fixed-size shader is gl_WorkGroupSize") {
  // "For compute shaders with a fixed local group size ... its value will be the same as the constant
  // gl_WorkGroupSize."
  auto shader = compile("#version 450\n#extension GL_ARB_compute_variable_group_size : enable\n"
                        "layout(local_size_x = 8, local_size_y = 4) in;\n"
                        "layout(std430, binding = 1) buffer Out { uint o[]; };\n"
                        "void main() { o[0] = gl_LocalGroupSizeARB.x * gl_LocalGroupSizeARB.y; }\n");
  INFO(shader->info_log());
  REQUIRE(shader->ok());
  CHECK(link({shader}));
}

TEST_CASE("Diagnostics keep the user's line numbers after the rewrite") {
  auto shader = compile(std::string(kVariableHeader) + "void main() {\n  o[0] = gl_LocalGroupSizeARB.x;\n  undefined_thing = 1;\n}\n");
  CHECK_FALSE(shader->ok());
  CHECK_THAT(shader->info_log(), Catch::Contains("0:7(3): error: 'undefined_thing'"));
}

TEST_CASE("Variable size in one shader and fixed in another is a link error") {
  auto variable = compile(std::string(kVariableHeader) + "uint helper();\nvoid main() { o[0] = helper(); }\n");
  auto fixed = compile("#version 450\nlayout(local_size_x = 2) in;\nuint helper() { return 1u; }\n");
  REQUIRE(variable->ok());
  REQUIRE(fixed->ok());
  auto program = link({variable, fixed});
  REQUIRE_FALSE(program);
  CHECK_THAT(program.error().message, Catch::StartsWith("error: ") && Catch::Contains("both a fixed and a variable"));
}

TEST_CASE("A variable-size shader links with a shader that declares no size, in either order") {
  // ARB_compute_variable_group_size / GLSL 4.60 §4.4.1.4: the size must be declared by at least one compute shader
  // of the program; the others need not declare it. (glslang alone fails "Contradictory local size specialization
  // ids" when the shader without a size comes second.)
  auto variable = compile(std::string(kVariableHeader) + "uint helper();\nvoid main() { o[0] = helper(); }\n");
  auto plain = compile("#version 450\nuint helper() { return 1u; }\n");
  REQUIRE(variable->ok());
  REQUIRE(plain->ok());
  for (auto& program : {link({variable, plain}), link({plain, variable})}) {
    INFO((program ? std::string() : program.error().message));
    REQUIRE(program);
    CHECK(program->group_size == GroupSize::Variable);
  }
}

TEST_CASE("A program with no local group size declared fails to link") {
  auto shader = compile("#version 450\nvoid main() {}\n");
  REQUIRE(shader->ok());
  auto program = link({shader});
  REQUIRE_FALSE(program);
  CHECK_THAT(program.error().message, Catch::Contains("must declare a local group size"));
}

TEST_CASE("A shader that failed to compile fails the link") {
  auto shader = compile("#version 450\nvoid main() { nope }\n");
  REQUIRE_FALSE(shader->ok());
  CHECK_FALSE(link({shader}));
}

TEST_CASE("Default-block uniforms are laid out in the default uniform block") {
  auto shader = compile("#version 450\nlayout(local_size_x = 1) in;\n"
                        "layout(std430, binding = 0) buffer Out { float o[]; };\n"
                        "uniform float a;\nuniform uint n;\nuniform vec4 arr[3];\nuniform mat3 m;\n"
                        "void main() { o[0] = a + float(n) + arr[2].y + m[1][2]; }\n");
  INFO(shader->info_log());
  REQUIRE(shader->ok());
  auto program = link({shader});
  REQUIRE(program);
  CHECK(program->default_uniform_block_size >= 64);
  auto find = [&](const std::string& name) -> const GlUniform* {
    for (const GlUniform& u : program->uniforms) {
      if (u.name == name) return &u;
    }
    return nullptr;
  };
  const GlUniform* a = find("a");
  const GlUniform* n = find("n");
  const GlUniform* arr = find("arr[0]");
  const GlUniform* m = find("m");
  REQUIRE(a);
  REQUIRE(n);
  REQUIRE(arr);
  REQUIRE(m);
  CHECK(a->gl_type == 0x1406);  // GL_FLOAT
  CHECK(n->gl_type == 0x1405);  // GL_UNSIGNED_INT
  CHECK(arr->gl_type == 0x8B52);  // GL_FLOAT_VEC4
  CHECK(arr->array_size == 3);
  CHECK(arr->array_stride == 16);
  // Element strides follow the block's std140 layout, also for scalar arrays.
  auto scalars = link({compile("#version 450\nlayout(local_size_x = 1) in;\n"
                               "layout(std430, binding = 0) buffer Out { float o[]; };\n"
                               "uniform float f[3];\nvoid main() { o[0] = f[2]; }\n")});
  REQUIRE(scalars);
  REQUIRE(scalars->uniforms.size() == 1);
  CHECK(scalars->uniforms[0].name == "f[0]");
  CHECK(scalars->uniforms[0].array_stride == 16);
  CHECK(scalars->default_uniform_block_size >= 2 * 16 + 4);
  CHECK(m->matrix_stride == 16);
  CHECK(a->offset != n->offset);
  // The default block is the program's only resource besides Out: compact bindings 0 and 1.
  REQUIRE(program->resources.size() == 2);
  CHECK(program->resources[1].kind == GlResourceKind::DefaultUniformBlock);
  CHECK(binding_of(driver_words(*program), "gl_DefaultUniformBlock") == 1);
  CHECK(bismuth::spirv_patch::validate(program->spirv, TargetEnv::Vulkan1_1));
}

TEST_CASE("Storage, uniform and atomic-counter bindings are separate namespaces with compact Vulkan bindings") {
  auto shader = compile("#version 450\nlayout(local_size_x = 1) in;\n"
                        "layout(std430, binding = 1) buffer Out { uint o[]; };\n"
                        "layout(std140, binding = 1) uniform U { uint k; };\n"
                        "layout(binding = 1, offset = 4) uniform atomic_uint counter;\n"
                        "void main() { o[0] = k + atomicCounterIncrement(counter); }\n");
  INFO(shader->info_log());
  REQUIRE(shader->ok());
  auto program = link({shader});
  REQUIRE(program);
  // All three use GL binding 1; in Vulkan they are bindings 0, 1, 2 of set 0.
  REQUIRE(program->resources.size() == 3);
  CHECK(program->resources[0].kind == GlResourceKind::ShaderStorageBuffer);
  CHECK(program->resources[1].kind == GlResourceKind::UniformBuffer);
  CHECK(program->resources[2].kind == GlResourceKind::AtomicCounterBuffer);
  for (const GlResource& r : program->resources) CHECK(r.gl_binding == 1);
  CHECK(binding_of(driver_words(*program), "Out") == 0);
  CHECK(binding_of(driver_words(*program), "U") == 1);
  CHECK(binding_of(driver_words(*program), "gl_AtomicCounterBlock_1") == 2);
  REQUIRE(program->atomic_counters.size() == 1);
  CHECK(program->atomic_counters[0].name == "counter");
  CHECK(program->atomic_counters[0].gl_binding == 1);
  CHECK(program->atomic_counters[0].offset == 4);
  REQUIRE(program->atomic_counter_buffers.size() == 1);
  CHECK(program->atomic_counter_buffers[0].vk_binding == 2);
  REQUIRE(program->uniform_blocks.size() == 1);
  CHECK(program->uniform_blocks[0].gl_binding == 1);
  REQUIRE(program->storage_blocks.size() == 1);
  CHECK(program->storage_blocks[0].vk_binding == 0);
  CHECK(bismuth::spirv_patch::validate(program->spirv, TargetEnv::Vulkan1_1));
}

TEST_CASE("GL_NV_shader_atomic_float works through GL_EXT_shader_atomic_float") {
  auto shader = compile("#version 450\n#extension GL_NV_shader_atomic_float : require\nlayout(local_size_x = 4) in;\n"
                        "layout(std430, binding = 1) buffer Out { float o[8]; };\n"
                        "void main() { atomicAdd(o[gl_LocalInvocationIndex & 7u], 0.25); }\n");
  INFO(shader->info_log());
  REQUIRE(shader->ok());
  auto program = link({shader});
  REQUIRE(program);
  CHECK(bismuth::spirv_patch::validate(program->spirv, TargetEnv::Vulkan1_1));
}

TEST_CASE("NVIDIA-only thread group extensions are a clear compile error") {
  auto shader = compile("#version 450\n#extension GL_NV_shader_thread_group : require\nlayout(local_size_x = 4) in;\n"
                        "void main() {}\n");
  CHECK_FALSE(shader->ok());
  CHECK_THAT(shader->info_log(),
             Catch::StartsWith("0:2(12): error: extension 'GL_NV_shader_thread_group' is NVIDIA-only"));
}

TEST_CASE("Malformed GLSL gets a GL error, never a crash") {
  // glslang's relaxed Vulkan mode crashes in code generation on this (a runtime array that is not last); the GL
  // rules check rejects it first.
  const char* sources[] = {
      "#version 450\nlayout(local_size_x = 4) in;\nlayout(std430, binding = 1) buffer Out { float o[]; uint c; } outs;\n"
      "void main() { outs.o[gl_GlobalInvocationID.x] = 1.0; }\n",
      "", "#version 450\n", "#version 450\nlayout(", "\x01\x02\x03", "#version 450\nlayout(local_size_variable) in",
      "#extension GL_ARB_compute_variable_group_size : require\n", "#version 450\nvoid main() { gl_LocalGroupSizeARB; }"};
  for (const char* source : sources) {
    auto shader = compile(source);
    if (shader->ok()) {
      CHECK_FALSE(link({shader}));
    } else {
      CHECK_THAT(shader->info_log(), Catch::Contains("error:"));
    }
  }
}

TEST_CASE("Every corpus shader compiles through the GL front, or fails with a clear error") {
  const char* override_dir = std::getenv("BISMUTH_CORPUS_DIR");
  const std::filesystem::path corpus =
      override_dir ? std::filesystem::path(override_dir)
                   : std::filesystem::path(BISMUTH_SOURCE_DIR) / "tests/data/corpus/nvidia-h100";
  int compiled = 0;
  for (const auto& entry : std::filesystem::directory_iterator(corpus)) {
    std::ifstream file(entry.path() / "shader.comp");
    std::stringstream text;
    text << file.rdbuf();
    const std::string name = entry.path().filename().string();
    INFO(name);
    auto shader = compile(text.str());
    INFO(shader->info_log());
    if (name == "thread_group_nv") {
      CHECK_FALSE(shader->ok());
      continue;
    }
    REQUIRE(shader->ok());
    auto program = link({shader});
    REQUIRE(program);
    auto valid = bismuth::spirv_patch::validate(program->spirv, TargetEnv::Vulkan1_1);
    INFO((valid ? "" : valid.error().message));
    CHECK(valid);
    ++compiled;
  }
  CHECK(compiled == 16);
}

TEST_CASE("Inactive resources take no Vulkan binding of the layout") {
  auto shader = compile("#version 450\nlayout(local_size_x = 1) in;\n"
                        "layout(std430, binding = 3) buffer Unused { uint u[]; };\n"
                        "layout(std430, binding = 5) buffer Out { uint o[]; };\n"
                        "void main() { o[0] = 7u; }\n");
  REQUIRE(shader->ok());
  auto program = link({shader});
  REQUIRE(program);
  REQUIRE(program->resources.size() == 1);
  CHECK(program->resources[0].gl_binding == 5);
  CHECK(binding_of(driver_words(*program), "Out") == 0);
  CHECK(bismuth::spirv_patch::validate(program->spirv, TargetEnv::Vulkan1_1));
}

// ---- Compute shaders below #version 420 (GL_ARB_compute_shader at 140 .. 410, raised to 420 for glslang) ----

namespace {

// A piglit-style shader at `version` (with `profile`, which may be empty) using SSBOs, atomic counters, shared
// memory, barrier() and atomic memory functions, each enabled through its extension.
std::string old_version_shader(const std::string& version, const std::string& profile) {
  return "#version " + version + (profile.empty() ? "" : " " + profile) + "\n" +
         "#extension GL_ARB_compute_shader: require\n"
         "#extension GL_ARB_shader_storage_buffer_object: require\n"
         "#extension GL_ARB_shader_atomic_counters: require\n"
         "layout(local_size_x = 4) in;\n"
         "layout(std430, binding = 2) buffer Out { uint o[]; };\n"
         "layout(binding = 1, offset = 4) uniform atomic_uint hits;\n"
         "uniform uint bias;\n"
         "shared uint total;\n"
         "void main() {\n"
         "  if (gl_LocalInvocationIndex == 0u) total = 0u;\n"
         "  barrier();\n"
         "  atomicAdd(total, gl_LocalInvocationIndex);\n"
         "  barrier();\n"
         "  o[gl_GlobalInvocationID.x] = total + bias + atomicCounterIncrement(hits) * 0u;\n"
         "}\n";
}

}  // namespace

TEST_CASE("Compute shaders at each version from 140 to 420 compile and link with GL_ARB_compute_shader") {
  for (const char* version : {"140", "150", "330", "400", "410", "420"}) {
    for (const char* profile : {"", "core", "compatibility"}) {
      if (std::string(version) == "140" && *profile != '\0') continue;  // no profiles before 150
      const std::string source = old_version_shader(version, profile);
      INFO(source);
      auto shader = compile(source);
      INFO(shader->info_log());
      REQUIRE(shader->ok());
      CHECK(shader->info_log().empty());
      auto program = link({shader});
      INFO((program ? "" : program.error().message));
      REQUIRE(program);
      CHECK(program->fixed_size == std::array<uint32_t, 3>{4, 1, 1});
      REQUIRE(program->storage_blocks.size() == 1);
      CHECK(program->storage_blocks[0].gl_binding == 2);
      REQUIRE(program->atomic_counters.size() == 1);
      CHECK(program->atomic_counters[0].gl_binding == 1);
      CHECK(program->atomic_counters[0].offset == 4);
      REQUIRE(program->uniforms.size() == 1);
      CHECK(program->uniforms[0].name == "bias");
      CHECK(bismuth::spirv_patch::validate(program->spirv, TargetEnv::Vulkan1_1));
    }
  }
}

TEST_CASE("A compute shader below 430 without GL_ARB_compute_shader is an error at the version line") {
  for (const char* version : {"150", "330", "420"}) {
    auto shader = compile(std::string("// leading comment\n#version ") + version +
                          "\nlayout(local_size_x = 1) in;\nvoid main() {}\n");
    CHECK_FALSE(shader->ok());
    CHECK_THAT(shader->info_log(),
               Catch::StartsWith("0:2(10): error: compute shaders require #version 430, or #extension "
                                 "GL_ARB_compute_shader"));
  }
  // #extension : disable after enable turns it off again.
  auto disabled = compile("#version 330\n#extension GL_ARB_compute_shader: enable\n"
                          "#extension GL_ARB_compute_shader: disable\nlayout(local_size_x = 1) in;\nvoid main() {}\n");
  CHECK_FALSE(disabled->ok());
  CHECK_THAT(disabled->info_log(), Catch::StartsWith("0:1(10): error: compute shaders require"));
}

TEST_CASE("layout binding below 420 needs 420pack, atomic counters or SSBOs") {
  const std::string body = "layout(local_size_x = 1) in;\nlayout(std140, binding = 3) uniform U { uint u; };\n"
                           "void main() {}\n";
  auto without = compile("#version 330\n#extension GL_ARB_compute_shader: require\n" + body);
  CHECK_FALSE(without->ok());
  CHECK_THAT(without->info_log(),
             Catch::StartsWith("0:4(16): error: 'binding' requires #version 420 or #extension "
                               "GL_ARB_shading_language_420pack"));
  for (const char* extension : {"GL_ARB_shading_language_420pack", "GL_ARB_shader_atomic_counters",
                                "GL_ARB_shader_storage_buffer_object"}) {
    auto with = compile("#version 330\n#extension GL_ARB_compute_shader: require\n#extension " +
                        std::string(extension) + ": enable\n" + body);
    INFO(extension << ": " << with->info_log());
    CHECK(with->ok());
  }
  // 420 made it core.
  auto core = compile("#version 420\n#extension GL_ARB_compute_shader: require\n" + body);
  INFO(core->info_log());
  CHECK(core->ok());
}

TEST_CASE("buffer blocks below 430 need GL_ARB_shader_storage_buffer_object") {
  auto shader = compile("#version 150\n#extension GL_ARB_compute_shader: require\n"
                        "layout(local_size_x = 1) in;\n\nbuffer B { uint b[]; };\nvoid main() {}\n");
  CHECK_FALSE(shader->ok());
  CHECK_THAT(shader->info_log(), Catch::StartsWith("0:5("));
  CHECK_THAT(shader->info_log(), Catch::Contains("error:"));
  // Also when the shader uses atomic memory functions, for which the front enables the extension in glslang.
  auto atomics = compile("#version 150\n#extension GL_ARB_compute_shader: require\n"
                         "layout(local_size_x = 1) in;\nshared uint s;\nbuffer B { uint b[]; };\n"
                         "void main() { atomicAdd(s, 1u); }\n");
  CHECK_FALSE(atomics->ok());
  CHECK_THAT(atomics->info_log(),
             Catch::StartsWith("0:5(1): error: 'buffer' requires #version 430 or #extension "
                               "GL_ARB_shader_storage_buffer_object"));
}

TEST_CASE("Atomic memory functions on shared variables need only GL_ARB_compute_shader below 430") {
  auto shader = compile("#version 330\n#extension GL_ARB_compute_shader: require\n"
                        "layout(local_size_x = 2) in;\nshared uint s;\nuniform uint u;\n"
                        "void main() { atomicMax(s, u); atomicCompSwap(s, 1u, 2u); }\n");
  INFO(shader->info_log());
  REQUIRE(shader->ok());
  CHECK(link({shader}));
}

TEST_CASE("atomic_uint, image types, initializer lists and doubles need their extensions below 420") {
  struct Case {
    const char* declaration;
    const char* extension;
    const char* message;
  };
  const Case cases[] = {
      {"  layout(binding = 0) uniform atomic_uint c;", "GL_ARB_shader_atomic_counters",
       "0:4(31): error: 'atomic_uint' requires #version 420 or #extension GL_ARB_shader_atomic_counters"},
      {"  layout(r32ui, binding = 0) uniform uimage2D img;",
       "GL_ARB_shader_image_load_store: require\n#extension GL_ARB_shading_language_420pack",
       "0:4(38): error: 'uimage2D' requires #version 420 or #extension GL_ARB_shader_image_load_store"},
      {"  const uint k[2] = { 1u, 2u };", "GL_ARB_shading_language_420pack",
       "0:4(21): error: 'initializer list' requires #version 420 or #extension GL_ARB_shading_language_420pack"},
      {"  uniform dvec2 d;", "GL_ARB_gpu_shader_fp64",
       "0:4(11): error: 'dvec2' requires #version 400 or #extension GL_ARB_gpu_shader_fp64"},
  };
  for (const Case& c : cases) {
    const std::string head = "#version 330\n#extension GL_ARB_compute_shader: require\n";
    const std::string tail = std::string(c.declaration) + "\nlayout(local_size_x = 1) in;\nvoid main() {}\n";
    auto without = compile(head + "\n" + tail);
    CHECK_FALSE(without->ok());
    CHECK_THAT(without->info_log(), Catch::Contains(c.message));
    auto with = compile(head + "#extension " + c.extension + ": require\n" + tail);
    INFO(c.declaration << ": " << with->info_log());
    CHECK(with->ok());
  }
  // Doubles are core from 400.
  auto doubles = compile("#version 400\n#extension GL_ARB_compute_shader: require\nuniform dvec2 d;\n"
                         "layout(local_size_x = 1) in;\nvoid main() {}\n");
  INFO(doubles->info_log());
  CHECK(doubles->ok());
}

TEST_CASE("A profile before 150 is an error") {
  auto shader = compile("#version 140 core\n#extension GL_ARB_compute_shader: require\n"
                        "layout(local_size_x = 1) in;\nvoid main() {}\n");
  CHECK_FALSE(shader->ok());
  CHECK_THAT(shader->info_log(), Catch::StartsWith("0:1(14): error: 'core' : versions before 150"));
}

TEST_CASE("Diagnostics of a raised shader keep the user's lines and columns") {
  auto shader = compile("/* a comment\n   over two lines */\n#version 150   // the user's version\n"
                        "#extension GL_ARB_compute_shader: require\nlayout(local_size_x = 1) in;\n"
                        "void main() {\n    undefined_thing = 1;\n}\n");
  CHECK_FALSE(shader->ok());
  CHECK_THAT(shader->info_log(), Catch::StartsWith("0:7(5): error: 'undefined_thing'"));
}

TEST_CASE("__VERSION__ is the user's version in a raised shader") {
  for (const char* version : {"150", "330", "410"}) {
    auto shader = compile(std::string("#version ") + version +
                          "\n#extension GL_ARB_compute_shader: require\n"
                          "#if __VERSION__ != " + version + "\n#error wrong version\n#endif\n"
                          "#define V __VERSION__\n"
                          "layout(local_size_x = 1) in;\n"
                          "const int v = V + __VERSION__;\n"
                          "void main() { int check[v == 2 * " + version + " ? 1 : -1]; }\n");
    INFO(shader->info_log());
    CHECK(shader->ok());
  }
}

TEST_CASE("Variable group sizes work in a raised shader") {
  auto shader = compile("#version 330\n#extension GL_ARB_compute_shader: require\n"
                        "#extension GL_ARB_compute_variable_group_size: require\n"
                        "#extension GL_ARB_shader_storage_buffer_object: require\n"
                        "layout(local_size_variable) in;\nlayout(std430, binding = 0) buffer B { uint b[]; };\n"
                        "void main() { b[gl_GlobalInvocationID.x] = gl_LocalGroupSizeARB.x; }\n");
  INFO(shader->info_log());
  REQUIRE(shader->ok());
  auto program = link({shader});
  REQUIRE(program);
  CHECK(program->group_size == GroupSize::Variable);
  CHECK(bismuth::spirv_patch::validate(program->spirv, TargetEnv::Vulkan1_1));
}

TEST_CASE("Compute shaders below 140 are still rejected with a clear error") {
  auto shader = compile("#version 130\n#extension GL_ARB_compute_shader: require\n"
                        "layout(local_size_x = 1) in;\nvoid main() {}\n");
  CHECK_FALSE(shader->ok());
  CHECK_THAT(shader->info_log(), Catch::StartsWith("0:1(10): error: compute shaders require #version 430, or "
                                                    "#version 140 to 420 with #extension GL_ARB_compute_shader"));
}

TEST_CASE("Atomic counters in a raised shader without GL_ARB_shader_storage_buffer_object") {
  // piglit's arb_compute_shader/execution/atomic-counter: the relaxed Vulkan rules turn the counter functions
  // into atomicAdd() on a storage block, which glslang offers below 430 only with the SSBO extension.
  auto shader = compile("#version 150\n#extension GL_ARB_compute_shader: require\n"
                        "#extension GL_ARB_shader_atomic_counters: require\n"
                        "layout(binding = 0) uniform atomic_uint inc;\nlayout(binding = 0) uniform atomic_uint dec;\n"
                        "layout(local_size_x = 8, local_size_y = 8, local_size_z = 8) in;\n"
                        "void main() { atomicCounterIncrement(inc); atomicCounterDecrement(dec); }\n");
  INFO(shader->info_log());
  REQUIRE(shader->ok());
  auto program = link({shader});
  REQUIRE(program);
  REQUIRE(program->atomic_counters.size() == 2);
  CHECK(program->atomic_counters[0].offset + program->atomic_counters[1].offset == 4);
  CHECK(bismuth::spirv_patch::validate(program->spirv, TargetEnv::Vulkan1_1));
}

// GL 4.6 §7.3: a shader object may be attached to several programs and a program linked again; each link uses the
// shader as compiled. glslang's link writes into the trees it links, so the second link of the same shader object
// must not see the first one's edits (it once failed with "Contradictory xfb_stride") nor its bindings.
TEST_CASE("One compute shader object links again, alone and with another shader object") {
  auto main_shader = compile(
      "#version 430\n"
      "layout(local_size_x = 2) in;\n"
      "layout(std430) buffer Out { uint o[]; };\n"
      "uniform Params { uint k; };\n"
      "void main() { o[gl_LocalInvocationIndex] = k; }\n");
  auto helper = compile(
      "#version 430\n"
      "uint unused_helper() { return 7u; }\n");
  REQUIRE(main_shader->ok());
  REQUIRE(helper->ok());
  for (int round = 0; round < 3; ++round) {
    auto alone = link({main_shader});
    REQUIRE(alone);
    auto both = link({main_shader, helper});
    INFO("round " << round);
    REQUIRE(both);
    CHECK(both->fixed_size == std::array<uint32_t, 3>{2, 1, 1});
    // The declared bindings are what the source says at every link: both blocks at GL binding 0.
    REQUIRE(both->storage_blocks.size() == 1);
    REQUIRE(both->uniform_blocks.size() == 1);
    CHECK(both->storage_blocks[0].gl_binding == 0);
    CHECK(both->uniform_blocks[0].gl_binding == 0);
    CHECK(bismuth::spirv_patch::validate(driver_words(*both), TargetEnv::Vulkan1_1));
  }
}
