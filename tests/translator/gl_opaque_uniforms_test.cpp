// Sampler and image uniforms in the GLSL front (issue 18, issue 15 item 1): GL 4.6 §7.6 / GLSL 4.60 §4.4.6 —
// each active opaque uniform is a descriptor of its own (an array one binding of `size` descriptors) whose unit
// the GL shim resolves at dispatch; the facts dispatch needs (target, sampled type, format, memory qualifiers), the
// GL types of GL 4.6 Table 7.3, the unit limits, and the SPIR-V every such program becomes (spirv-val).
#include <catch2/catch.hpp>

#include <algorithm>

#include "bismuth/spirv_patch/pipeline.hpp"
#include "bismuth/spirv_patch/validate.hpp"
#include "bismuth/translator/gl_program.hpp"
#include "bismuth/translator/gl_program_pipeline.hpp"

using namespace bismuth::translator;
using bismuth::spirv_patch::TargetEnv;

namespace {

// GL enums (glcorearb.h), GL 4.6 Table 7.3 and §8.1.
constexpr uint32_t GL_SAMPLER_2D = 0x8B5E, GL_SAMPLER_2D_SHADOW = 0x8B62, GL_INT_SAMPLER_2D_ARRAY = 0x8DCF,
                   GL_SAMPLER_BUFFER = 0x8DC2, GL_UNSIGNED_INT_SAMPLER_3D = 0x8DD3, GL_SAMPLER_CUBE_MAP_ARRAY = 0x900C,
                   GL_IMAGE_2D = 0x904D, GL_UNSIGNED_INT_IMAGE_3D = 0x9064, GL_IMAGE_BUFFER = 0x9051,
                   GL_INT_IMAGE_2D_ARRAY = 0x905E, GL_FLOAT = 0x1406;
constexpr uint32_t GL_TEXTURE_2D = 0x0DE1, GL_TEXTURE_2D_ARRAY = 0x8C1A, GL_TEXTURE_3D = 0x806F,
                   GL_TEXTURE_BUFFER = 0x8C2A, GL_TEXTURE_CUBE_MAP_ARRAY = 0x9009;
constexpr uint32_t GL_RGBA8 = 0x8058, GL_R32UI = 0x8236, GL_RGBA32I = 0x8D82;

bismuth::Expected<GlLinkedProgram> compile_and_link(const std::string& source, const GlCompileOptions& options = {}) {
  auto shader = GlShader::compile(source, options);
  if (!shader->ok()) return bismuth::fail("compile: " + shader->info_log());
  std::vector<std::shared_ptr<const GlShader>> shaders{shader};
  return link_gl_program(shaders);
}

// The module the driver gets (the link's words through the program's pipeline, which writes the compact binding
// layout); spirv-val must accept it.
std::vector<uint32_t> driver_words(const GlLinkedProgram& program) {
  auto piped = bismuth::spirv_patch::run_pipeline(program.spirv, gl_program_pipeline(program, {}));
  if (!piped) FAIL(piped.error().message);
  auto valid = bismuth::spirv_patch::validate(piped->words, TargetEnv::Vulkan1_1);
  INFO((valid ? std::string() : valid.error().message));
  CHECK(valid);
  return piped->words;
}

// The Binding decoration of the variable OpName'd `name`, or -1.
int variable_binding(const std::vector<uint32_t>& words, const std::string& name) {
  uint32_t id = 0;
  for (size_t at = 5; at < words.size() && (words[at] >> 16) != 0; at += words[at] >> 16) {
    if ((words[at] & 0xffff) == 5 /* OpName */ && name == reinterpret_cast<const char*>(&words[at + 2]))
      id = words[at + 1];
  }
  for (size_t at = 5; at < words.size() && (words[at] >> 16) != 0; at += words[at] >> 16) {
    if ((words[at] & 0xffff) == 71 /* OpDecorate */ && words[at + 1] == id && words[at + 2] == 33 /* Binding */)
      return static_cast<int>(words[at + 3]);
  }
  return -1;
}

bool has_opcode(const std::vector<uint32_t>& words, uint32_t opcode) {
  for (size_t at = 5; at < words.size() && (words[at] >> 16) != 0; at += words[at] >> 16) {
    if ((words[at] & 0xffff) == opcode) return true;
  }
  return false;
}

const GlUniform* uniform_named(const GlLinkedProgram& p, const std::string& name) {
  auto it = std::find_if(p.uniforms.begin(), p.uniforms.end(), [&](const GlUniform& u) { return u.name == name; });
  return it == p.uniforms.end() ? nullptr : &*it;
}

// Vulkan binding of the descriptor `resource` (descriptor_counts groups resources into bindings).
uint32_t binding_of_resource(const GlLinkedProgram& p, uint32_t resource) {
  if (p.descriptor_counts.empty()) return resource;
  uint32_t first = 0;
  for (uint32_t b = 0; b < p.descriptor_counts.size(); ++b) {
    if (resource < first + p.descriptor_counts[b]) return b;
    first += p.descriptor_counts[b];
  }
  return UINT32_MAX;
}

constexpr const char* kEveryKind =
    "#version 450\n"
    "layout(local_size_x = 1) in;\n"
    "uniform sampler2D s;\n"
    "layout(binding = 3) uniform isampler2DArray sa[2];\n"
    "uniform samplerBuffer tb;\n"
    "uniform sampler2DShadow sh;\n"
    "uniform samplerCubeArray cube;\n"
    "uniform usampler3D u3;\n"
    "layout(rgba8, binding = 1) uniform readonly image2D img;\n"
    "layout(r32ui) coherent volatile restrict uniform uimage3D ui3;\n"
    "writeonly uniform imageBuffer ib;\n"
    "layout(rgba32i) uniform iimage2DArray ia;\n"
    "uniform float f;\n"
    "layout(std430, binding = 0) buffer B { vec4 o[]; };\n"
    "void main() {\n"
    "  o[0] = texture(s, vec2(0.5)) + vec4(texelFetch(sa[1], ivec3(0), 0)) + texelFetch(tb, 0) +\n"
    "         vec4(texture(sh, vec3(0.5))) + textureLod(cube, vec4(0.0), 0.0) + vec4(texelFetch(u3, ivec3(0), 0)) +\n"
    "         imageLoad(img, ivec2(0)) + f + vec4(imageLoad(ui3, ivec3(0))) + vec4(imageLoad(ia, ivec3(0)));\n"
    "  imageStore(ib, 0, vec4(1.0));\n"
    "}\n";

}  // namespace

TEST_CASE("Sampler and image uniforms report GL 4.6 Table 7.3's types and are resources of their own") {
  auto program = compile_and_link(kEveryKind);
  INFO((program ? "" : program.error().message));
  REQUIRE(program);
  struct Expect {
    const char* name;
    uint32_t gl_type;
    GlResourceKind kind;
    uint32_t target;
    GlSampledType sampled;
    uint32_t size;
  };
  const Expect expected[] = {
      {"s", GL_SAMPLER_2D, GlResourceKind::Texture, GL_TEXTURE_2D, GlSampledType::Float, 1},
      {"sa[0]", GL_INT_SAMPLER_2D_ARRAY, GlResourceKind::Texture, GL_TEXTURE_2D_ARRAY, GlSampledType::Int, 2},
      {"tb", GL_SAMPLER_BUFFER, GlResourceKind::TextureBuffer, GL_TEXTURE_BUFFER, GlSampledType::Float, 1},
      {"sh", GL_SAMPLER_2D_SHADOW, GlResourceKind::Texture, GL_TEXTURE_2D, GlSampledType::Float, 1},
      {"cube", GL_SAMPLER_CUBE_MAP_ARRAY, GlResourceKind::Texture, GL_TEXTURE_CUBE_MAP_ARRAY, GlSampledType::Float, 1},
      {"u3", GL_UNSIGNED_INT_SAMPLER_3D, GlResourceKind::Texture, GL_TEXTURE_3D, GlSampledType::Uint, 1},
      {"img", GL_IMAGE_2D, GlResourceKind::Image, GL_TEXTURE_2D, GlSampledType::Float, 1},
      {"ui3", GL_UNSIGNED_INT_IMAGE_3D, GlResourceKind::Image, GL_TEXTURE_3D, GlSampledType::Uint, 1},
      {"ib", GL_IMAGE_BUFFER, GlResourceKind::ImageBuffer, GL_TEXTURE_BUFFER, GlSampledType::Float, 1},
      {"ia", GL_INT_IMAGE_2D_ARRAY, GlResourceKind::Image, GL_TEXTURE_2D_ARRAY, GlSampledType::Int, 1},
  };
  const std::vector<uint32_t> words = driver_words(*program);
  for (const Expect& e : expected) {
    INFO(e.name);
    const GlUniform* u = uniform_named(*program, e.name);
    REQUIRE(u != nullptr);
    REQUIRE(u->opaque);
    CHECK(u->gl_type == e.gl_type);
    CHECK(u->opaque->kind == e.kind);
    CHECK(u->opaque->target == e.target);
    CHECK(u->opaque->sampled_type == e.sampled);
    CHECK(u->array_size == e.size);
    // Every element is a descriptor of the uniform's kind that names the uniform and its element back, all in one
    // Vulkan binding: the one the module's variable is decorated with.
    const auto index = static_cast<uint32_t>(u - program->uniforms.data());
    for (uint32_t k = 0; k < e.size; ++k) {
      const GlResource& r = program->resources.at(u->opaque->resource + k);
      CHECK(r.kind == e.kind);
      CHECK(r.uniform == index);
      CHECK(r.gl_binding == k);
      CHECK(binding_of_resource(*program, u->opaque->resource + k) ==
            binding_of_resource(*program, u->opaque->resource));
    }
    const std::string variable = std::string(e.name).substr(0, std::string_view(e.name).find('['));
    CHECK(variable_binding(words, variable) == static_cast<int>(binding_of_resource(*program, u->opaque->resource)));
  }
  CHECK(uniform_named(*program, "sh")->opaque->shadow);
  CHECK_FALSE(uniform_named(*program, "s")->opaque->shadow);
  // Images keep their format qualifier as a GL internal format (GL 4.6 Table 8.27) and their memory qualifiers.
  CHECK(uniform_named(*program, "img")->opaque->format == GL_RGBA8);
  CHECK(uniform_named(*program, "img")->opaque->memory == kImageReadonly);
  CHECK(uniform_named(*program, "ui3")->opaque->format == GL_R32UI);
  CHECK(uniform_named(*program, "ui3")->opaque->memory == (kImageCoherent | kImageVolatile | kImageRestrict));
  CHECK(uniform_named(*program, "ib")->opaque->format == 0);
  CHECK(uniform_named(*program, "ib")->opaque->memory == kImageWriteonly);
  CHECK(uniform_named(*program, "ia")->opaque->format == GL_RGBA32I);
  // GLSL 4.60 §4.4.6: "binding" sets the initial unit; none was declared on the others (initially 0).
  CHECK(uniform_named(*program, "sa[0]")->opaque->declared_binding == 3);
  CHECK(uniform_named(*program, "img")->opaque->declared_binding == 1);
  CHECK(uniform_named(*program, "s")->opaque->declared_binding == -1);
  // The default uniform block holds only the float: opaque uniforms take no storage there.
  const GlUniform* f = uniform_named(*program, "f");
  REQUIRE(f != nullptr);
  CHECK(f->gl_type == GL_FLOAT);
  CHECK_FALSE(f->opaque);
  CHECK(program->default_uniform_block_size == 16);
  // The array of two samplers is one binding of two descriptors: 11 opaque descriptors in 10 bindings, plus the
  // storage block and the default uniform block.
  CHECK(program->resources.size() == 13);
  CHECK(program->descriptor_counts.size() == 12);
}

TEST_CASE("texture() in a compute shader samples level 0 with an explicit LOD") {
  // GLSL 4.60 §8.9: "In shaders other than fragment shaders ... the base level is used" for the implicit-LOD
  // texture functions; SPIR-V's ImplicitLod instructions are only valid in the Fragment model (and derivative
  // compute), so the module must use ExplicitLod.
  auto program = compile_and_link(
      "#version 450\nlayout(local_size_x = 1) in;\nuniform sampler2D s;\n"
      "layout(std430, binding = 0) buffer B { vec4 o[]; };\nvoid main() { o[0] = texture(s, vec2(0.25)); }\n");
  REQUIRE(program);
  const std::vector<uint32_t> words = driver_words(*program);
  CHECK_FALSE(has_opcode(words, 87 /* OpImageSampleImplicitLod */));
  CHECK(has_opcode(words, 88 /* OpImageSampleExplicitLod */));
}

TEST_CASE("Opaque uniforms at every compute-capable version") {
  SECTION("#version 330 with GL_ARB_compute_shader, ARB_shader_image_load_store and 420pack bindings") {
    auto program = compile_and_link(
        "#version 330\n#extension GL_ARB_compute_shader : require\n"
        "#extension GL_ARB_shader_image_load_store : require\n"
        "#extension GL_ARB_shading_language_420pack : require\n"
        "#extension GL_ARB_shader_storage_buffer_object : require\n"
        "layout(local_size_x = 1) in;\n"
        "layout(binding = 2) uniform sampler2D s;\n"
        "layout(r32f, binding = 4) uniform image2D img;\n"
        "layout(std430, binding = 0) buffer B { vec4 o[]; };\n"
        "void main() { o[0] = texelFetch(s, ivec2(0), 0) + imageLoad(img, ivec2(0)); }\n");
    INFO((program ? "" : program.error().message));
    REQUIRE(program);
    driver_words(*program);
    CHECK(uniform_named(*program, "s")->opaque->declared_binding == 2);
    CHECK(uniform_named(*program, "img")->opaque->declared_binding == 4);
  }
  SECTION("#version 310 es") {
    auto program = compile_and_link(
        "#version 310 es\nlayout(local_size_x = 1) in;\n"
        "uniform highp sampler2D s;\n"
        "layout(rgba8, binding = 0) readonly uniform highp image2D img;\n"
        "layout(std430, binding = 0) buffer B { highp vec4 o[]; };\n"
        "void main() { o[0] = texture(s, vec2(0.5)) + imageLoad(img, ivec2(0)); }\n");
    INFO((program ? "" : program.error().message));
    REQUIRE(program);
    driver_words(*program);
    CHECK(uniform_named(*program, "s")->opaque->kind == GlResourceKind::Texture);
    CHECK(uniform_named(*program, "img")->opaque->format == GL_RGBA8);
  }
}

TEST_CASE("Sampler and image limits are compile and link errors") {
  SECTION("more samplers than MAX_COMPUTE_TEXTURE_IMAGE_UNITS") {
    // GL 4.6 §7.6 (and §11.1.3.5 for texture image units): a program whose active samplers exceed the
    // implementation's limit fails to link.
    const uint32_t n = GlTextureLimits::kComputeTextureImageUnits + 1;
    auto program =
        compile_and_link("#version 450\nlayout(local_size_x = 1) in;\nuniform sampler2D s[" + std::to_string(n) +
                         "];\nlayout(std430, binding = 0) buffer B { vec4 o[]; };\n"
                         "void main() { vec4 v = vec4(0.0); for (int i = 0; i < " +
                         std::to_string(n) + "; ++i) v += texelFetch(s[i], ivec2(0), 0); o[0] = v; }\n");
    REQUIRE_FALSE(program);
    CHECK(program.error().message.find("MAX_COMPUTE_TEXTURE_IMAGE_UNITS") != std::string::npos);
  }
  SECTION("exactly MAX_COMPUTE_TEXTURE_IMAGE_UNITS samplers link") {
    const uint32_t n = GlTextureLimits::kComputeTextureImageUnits;
    auto program =
        compile_and_link("#version 450\nlayout(local_size_x = 1) in;\nuniform sampler2D s[" + std::to_string(n) +
                         "];\nlayout(std430, binding = 0) buffer B { vec4 o[]; };\n"
                         "void main() { vec4 v = vec4(0.0); for (int i = 0; i < " +
                         std::to_string(n) + "; ++i) v += texelFetch(s[i], ivec2(0), 0); o[0] = v; }\n");
    INFO((program ? "" : program.error().message));
    REQUIRE(program);
    driver_words(*program);
  }
  SECTION("more images than MAX_COMPUTE_IMAGE_UNIFORMS") {
    std::string source = "#version 450\nlayout(local_size_x = 1) in;\n";
    std::string body;
    for (uint32_t i = 0; i <= GlTextureLimits::kComputeImageUniforms; ++i) {
      source += "layout(r32f) uniform image2D i" + std::to_string(i) + ";\n";
      body += " + imageLoad(i" + std::to_string(i) + ", ivec2(0))";
    }
    source += "layout(std430, binding = 0) buffer B { vec4 o[]; };\nvoid main() { o[0] = vec4(0.0)" + body + "; }\n";
    auto program = compile_and_link(source);
    REQUIRE_FALSE(program);
    CHECK(program.error().message.find("MAX_COMPUTE_IMAGE_UNIFORMS") != std::string::npos);
  }
  SECTION("a sampler binding at MAX_COMBINED_TEXTURE_IMAGE_UNITS") {
    // GLSL 4.60 §4.4.6: "If the binding is less than zero, or greater than or equal to the implementation-dependent
    // maximum supported number of units, a compile-time error will occur."
    auto shader = GlShader::compile("#version 450\nlayout(local_size_x = 1) in;\nlayout(binding = " +
                                    std::to_string(GlTextureLimits::kCombinedTextureImageUnits) +
                                    ") uniform sampler2D s;\nvoid main() {}\n");
    CHECK_FALSE(shader->ok());
  }
  SECTION("an image binding at MAX_IMAGE_UNITS") {
    // The same rule: an image's units are the image units.
    auto shader =
        GlShader::compile("#version 450\nlayout(local_size_x = 1) in;\nlayout(r32f, binding = " +
                          std::to_string(GlTextureLimits::kImageUnits) + ") uniform image2D i;\nvoid main() {}\n");
    CHECK_FALSE(shader->ok());
    INFO(shader->info_log());
    CHECK(shader->info_log().find("0:3(") != std::string::npos);
    auto last =
        GlShader::compile("#version 450\nlayout(local_size_x = 1) in;\nlayout(r32f, binding = " +
                          std::to_string(GlTextureLimits::kImageUnits - 1) + ") uniform image2D i;\nvoid main() {}\n");
    CHECK(last->ok());
    // An array whose last element would lie past the last unit.
    auto array = GlShader::compile("#version 450\nlayout(local_size_x = 1) in;\nlayout(r32f, binding = " +
                                   std::to_string(GlTextureLimits::kImageUnits - 1) +
                                   ") uniform image2D i[2];\nvoid main() {}\n");
    CHECK_FALSE(array->ok());
  }
}

TEST_CASE("Images without a format qualifier follow the device's formatless features") {
  const std::string load =
      "#version 450\n#extension GL_EXT_shader_image_load_formatted : require\nlayout(local_size_x = 1) in;\n"
      "uniform image2D img;\nlayout(std430, binding = 0) buffer B { vec4 o[]; };\n"
      "void main() { o[0] = imageLoad(img, ivec2(0)); }\n";
  const std::string store =
      "#version 450\nlayout(local_size_x = 1) in;\nwriteonly uniform image2D img;\n"
      "void main() { imageStore(img, ivec2(0), vec4(1.0)); }\n";
  SECTION("with shaderStorageImageReadWithoutFormat / WriteWithoutFormat") {
    auto loaded = compile_and_link(load);
    INFO((loaded ? "" : loaded.error().message));
    REQUIRE(loaded);
    driver_words(*loaded);
    CHECK(uniform_named(*loaded, "img")->opaque->format == 0);
    auto stored = compile_and_link(store);
    REQUIRE(stored);
    driver_words(*stored);
  }
  SECTION("without them") {
    GlCompileOptions options;
    options.extensions.image_read_without_format = false;
    options.extensions.image_write_without_format = false;
    // GLSL 4.60 §3.3: `require` of an extension the implementation does not support is a compile error.
    CHECK_FALSE(GlShader::compile(load, options)->ok());
    auto stored = compile_and_link(store, options);
    REQUIRE_FALSE(stored);
    CHECK(stored.error().message.find("shaderStorageImageWriteWithoutFormat") != std::string::npos);
  }
  SECTION("an image without format or writeonly needs the extension") {
    // GLSL 4.60 §4.4.6.2: an image uniform not qualified writeonly needs a format layout qualifier;
    // GL_EXT_shader_image_load_formatted lifts that rule, and this shader does not enable it.
    CHECK_FALSE(GlShader::compile("#version 450\nlayout(local_size_x = 1) in;\nuniform image2D img;\n"
                                  "void main() { vec4 v = imageLoad(img, ivec2(0)); }\n")
                    ->ok());
  }
}

TEST_CASE("layout(location) on a sampler is GL's location, not a SPIR-V decoration") {
  // GLSL 4.60 §4.4.3: uniforms (opaque ones included) may have a location; Vulkan forbids Location on
  // UniformConstant variables (VUID-StandaloneSpirv-Location-06672), so only GL introspection keeps it.
  auto program = compile_and_link(
      "#version 450\nlayout(local_size_x = 1) in;\nlayout(location = 4) uniform sampler2D s[2];\n"
      "layout(std430, binding = 0) buffer B { vec4 o[]; };\nvoid main() { o[0] = texelFetch(s[1], ivec2(0), 0); }\n");
  INFO((program ? "" : program.error().message));
  REQUIRE(program);
  CHECK(bismuth::spirv_patch::validate(program->spirv, TargetEnv::Vulkan1_1));
  driver_words(*program);
  CHECK(uniform_named(*program, "s[0]")->location == 4);
}

TEST_CASE("A relink keeps the declared bindings of samplers and images") {
  auto shader = GlShader::compile(
      "#version 450\nlayout(local_size_x = 1) in;\nlayout(binding = 5) uniform sampler2D s;\n"
      "uniform sampler2D t;\nlayout(std430, binding = 0) buffer B { vec4 o[]; };\n"
      "void main() { o[0] = texelFetch(s, ivec2(0), 0) + texelFetch(t, ivec2(0), 0); }\n");
  REQUIRE(shader->ok());
  std::vector<std::shared_ptr<const GlShader>> shaders{shader};
  auto first = link_gl_program(shaders);
  auto second = link_gl_program(shaders);
  REQUIRE(first);
  REQUIRE(second);
  for (const GlLinkedProgram* p : {&*first, &*second}) {
    CHECK(uniform_named(*p, "s")->opaque->declared_binding == 5);
    CHECK(uniform_named(*p, "t")->opaque->declared_binding == -1);
  }
}

TEST_CASE("Only active samplers are resources, and arrays indexed at run time and sampler parameters work") {
  // GL 4.6 §7.3.1: only active uniforms (those the shader may access) are in the program's interface.
  auto program = compile_and_link(
      "#version 450\nlayout(local_size_x = 1) in;\nuniform sampler2D unused;\nuniform sampler2D used;\n"
      "uniform sampler2D s[4];\nuniform int k;\n"
      "vec4 fetch(sampler2D x) { return texelFetch(x, ivec2(0), 0); }\n"
      "layout(std430, binding = 0) buffer B { vec4 o[]; };\nvoid main() { o[0] = fetch(used) + fetch(s[k]); }\n");
  INFO((program ? "" : program.error().message));
  REQUIRE(program);
  driver_words(*program);
  CHECK(uniform_named(*program, "unused") == nullptr);
  REQUIRE(uniform_named(*program, "used") != nullptr);
  REQUIRE(uniform_named(*program, "s[0]") != nullptr);
  CHECK(uniform_named(*program, "s[0]")->array_size == 4);
  // The storage block, the default uniform block (k), `used` and the four elements of `s`.
  CHECK(program->resources.size() == 7);
}

TEST_CASE("Sampler declarations Vulkan cannot express are compile errors that say so") {
  struct Case {
    const char* what;
    const char* declaration;
    const char* use;
    const char* position;  // the uniform's declaration
  };
  const Case cases[] = {
      {"rectangle sampler", "uniform sampler2DRect r;", "texelFetch(r, ivec2(0))", "0:3("},
      {"sampler in a structure", "struct S { sampler2D t; float f; };\nuniform S u;", "texelFetch(u.t, ivec2(0), 0)",
       "0:4("},
      {"array of arrays", "uniform sampler2D s[2][3];", "texelFetch(s[1][2], ivec2(0), 0)", "0:3("},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    auto shader = GlShader::compile(
        std::string("#version 450\nlayout(local_size_x = 1) in;\n") + c.declaration +
        "\nlayout(std430, binding = 0) buffer B { vec4 o[]; };\nvoid main() { o[0] = " + c.use + "; }\n");
    INFO(shader->info_log());
    CHECK_FALSE(shader->ok());
    CHECK(shader->info_log().find("not supported by Bismuth") != std::string::npos);
    CHECK(shader->info_log().find(c.position) != std::string::npos);
  }
}

TEST_CASE("GL_NV_compute_shader_derivatives gives texture() derivatives in compute, where the device has them") {
  const std::string source =
      "#version 450\n#extension GL_NV_compute_shader_derivatives : require\n"
      "layout(local_size_x = 2, local_size_y = 2) in;\nlayout(derivative_group_quadsNV) in;\n"
      "uniform sampler2D s;\nlayout(std430, binding = 0) buffer B { vec4 o[]; };\n"
      "void main() { o[0] = texture(s, vec2(gl_LocalInvocationID.xy) * 0.25); }\n";
  SECTION("with computeDerivativeGroupQuads") {
    auto program = compile_and_link(source);
    INFO((program ? "" : program.error().message));
    REQUIRE(program);
    const std::vector<uint32_t> words = driver_words(*program);
    CHECK(has_opcode(words, 87 /* OpImageSampleImplicitLod */));
  }
  SECTION("without") {
    // GLSL 4.60 §3.3: `require` of an extension the implementation does not support is a compile error.
    GlCompileOptions options;
    options.extensions.compute_derivatives = false;
    CHECK_FALSE(GlShader::compile(source, options)->ok());
  }
}
