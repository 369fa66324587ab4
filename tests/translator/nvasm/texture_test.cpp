// Texture and image instructions: every instruction, target and modifier assembles into a module that validates
// for Vulkan 1.1 and 1.2 (before and after optimization), load errors name their position, and the program
// description and GL layout list the units with their targets, types and descriptor types.
#include <catch2/catch.hpp>

#include <spirv/unified1/spirv.hpp11>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "bismuth/nvasm/assembler.hpp"
#include "bismuth/nvasm/gl_program_layout.hpp"
#include "bismuth/spirv_patch/pipeline.hpp"
#include "bismuth/spirv_patch/validate.hpp"

namespace nvasm = bismuth::nvasm;
namespace spirv_patch = bismuth::spirv_patch;

namespace {

// A device with every feature the texture and image instructions can ask for.
nvasm::AssembleOptions full_device() {
  nvasm::AssembleOptions o;
  o.storage_image_read_without_format = true;
  o.storage_image_write_without_format = true;
  o.sparse_residency = true;
  o.min_lod = true;
  o.image_float32_atomics = true;
  o.image_float32_atomic_add = true;
  return o;
}

// `body` inside a program with registers R0..R3; assembled optimized and not, each module validated for Vulkan 1.1
// and 1.2.
nvasm::ProgramInfo assemble_valid(const std::string& body, const std::string& decls = "") {
  const std::string source = "!!NVcp5.0\nGROUP_SIZE 1;\nTEMP R0, R1, R2, R3;\n" + decls + body + "END\n";
  INFO(source);
  nvasm::AssembleOptions raw = full_device();
  raw.optimize = false;
  raw.validate = false;
  auto plain = nvasm::assemble(source, raw);
  INFO((plain ? std::string() : plain.error().message));
  REQUIRE(plain);
  for (auto env : {spirv_patch::TargetEnv::Vulkan1_1, spirv_patch::TargetEnv::Vulkan1_2}) {
    auto valid = spirv_patch::validate(plain->spirv, env);
    INFO((valid ? std::string() : valid.error().message));
    REQUIRE(valid);
  }
  auto optimized = nvasm::assemble(source, full_device());
  INFO((optimized ? std::string() : optimized.error().message));
  REQUIRE(optimized);
  for (auto env : {spirv_patch::TargetEnv::Vulkan1_1, spirv_patch::TargetEnv::Vulkan1_2}) {
    REQUIRE(spirv_patch::validate(optimized->spirv, env));
  }
  return plain->info;
}

struct Expect {
  uint32_t line;
  uint32_t column;
  std::string text;
};

// Lines 1-3 are the head; the instruction under test is on line 4.
void check_error(const std::string& body, const Expect& e, const nvasm::AssembleOptions& options = full_device()) {
  const std::string source = "!!NVcp5.0\nGROUP_SIZE 1;\nTEMP R0, R1, R2, R3;\n" + body + "END\n";
  auto result = nvasm::assemble(source, options);
  REQUIRE_FALSE(result);
  const std::string& message = result.error().message;
  INFO(message);
  const std::string prefix = "line " + std::to_string(e.line) + ", column " + std::to_string(e.column) + ": error: ";
  CHECK(message.rfind(prefix, 0) == 0);
  CHECK_THAT(message, Catch::Contains(e.text));
  const auto pos = nvasm::position_of(source, static_cast<size_t>(result.error().code));
  CHECK(pos.line == e.line);
  CHECK(pos.column == e.column);
}

// Where a lookup's compare value and level of detail come from, read off the unoptimized module: an operand's
// defining OpCompositeExtract gives (source vector id, component); the coordinate's defining OpVectorShuffle (or,
// for one coordinate, OpCompositeExtract) gives the coordinate operand's vector.
struct Source {
  uint32_t vector = 0;
  uint32_t component = 0;
};
struct LookupSources {
  Source dref, lod;
  uint32_t coordinate_vector = 0;
};

LookupSources lookup_sources(const std::vector<uint32_t>& words) {
  std::map<uint32_t, Source> extracts;
  std::map<uint32_t, uint32_t> shuffles;
  LookupSources out;
  for (size_t i = 5; i < words.size();) {
    const uint32_t op = words[i] & 0xFFFF, n = words[i] >> 16;
    if (op == static_cast<uint32_t>(spv::Op::OpCompositeExtract) && n == 5) {
      extracts[words[i + 2]] = {words[i + 3], words[i + 4]};
    }
    if (op == static_cast<uint32_t>(spv::Op::OpVectorShuffle)) shuffles[words[i + 2]] = words[i + 3];
    const bool dref = op == static_cast<uint32_t>(spv::Op::OpImageSampleDrefExplicitLod);
    // OpImageSample[Dref]ExplicitLod: type, result, sampled image, coordinate, [dref,] mask, lod.
    if (dref || op == static_cast<uint32_t>(spv::Op::OpImageSampleExplicitLod)) {
      const uint32_t coordinate = words[i + 4];
      out.coordinate_vector = shuffles.count(coordinate) ? shuffles[coordinate] : extracts[coordinate].vector;
      if (dref) out.dref = extracts[words[i + 5]];
      out.lod = extracts[words[i + (dref ? 7 : 6)]];
    }
    i += n ? n : 1;
  }
  return out;
}

LookupSources sources_of(const std::string& instruction) {
  const std::string source = "!!NVcp5.0\nGROUP_SIZE 1;\nTEMP R0, R1, R2;\n" + instruction + "END\n";
  nvasm::AssembleOptions raw;
  raw.optimize = false;
  auto p = nvasm::assemble(source, raw);
  INFO((p ? std::string() : p.error().message));
  REQUIRE(p);
  return lookup_sources(p->spirv);
}

}  // namespace

// NV_gpu_program4 (as ARB_fragment_program): "the third component of the texture coordinate" is the SHADOW1D,
// SHADOW2D, SHADOWRECT and SHADOWARRAY1D compare value, the fourth that of SHADOWCUBE and SHADOWARRAY2D; TXB and TXL
// read the bias / LOD from the fourth component; ARRAYCUBE's LOD and SHADOWARRAYCUBE's compare value, which find no
// room, come from the extra operand's first component (the forms NVIDIA's compiler and yuzu's GLASM backend emit).
TEST_CASE("textures: the compare value and the level of detail take the spec's components", "[nvasm][texture]") {
  auto s = sources_of("TXB.F R0, R1, texture[0], SHADOW1D;\n");
  CHECK(s.dref.component == 2);
  CHECK(s.lod.component == 3);
  CHECK(s.dref.vector == s.coordinate_vector);
  s = sources_of("TXL.F R0, R1, texture[0], SHADOWARRAY1D;\n");
  CHECK(s.dref.component == 2);
  CHECK(s.lod.component == 3);
  s = sources_of("TXL.F R0, R1, R2, texture[0], SHADOWCUBE;\n");
  CHECK(s.dref.component == 3);
  CHECK(s.dref.vector == s.coordinate_vector);
  CHECK(s.lod.component == 0);
  CHECK(s.lod.vector != s.coordinate_vector);
  s = sources_of("TXL.F R0, R1, texture[0], 1D;\n");
  CHECK(s.lod.component == 3);
  s = sources_of("TXL.F R0, R1, R2, texture[0], ARRAYCUBE;\n");
  CHECK(s.lod.component == 0);
  CHECK(s.lod.vector != s.coordinate_vector);
  s = sources_of("TXL.F R0, R1, R2, texture[0], SHADOWARRAYCUBE;\n");
  CHECK(s.dref.component == 0);
  CHECK(s.lod.component == 1);
  CHECK(s.dref.vector != s.coordinate_vector);
}

// NV_gpu_program4: TEX, TXB, TXL take the texture target after texture[n]; the coordinates, then the SHADOW
// compare value, then the LOD (TXL) or bias (TXB) fill the coordinate vector; ARRAYCUBE with a LOD, and
// SHADOWARRAYCUBE, need the extra operand.
TEST_CASE("textures: TEX, TXB, TXL on every sampled target", "[nvasm][texture]") {
  for (const char* target : {"1D", "2D", "3D", "CUBE", "RECT", "ARRAY1D", "ARRAY2D", "ARRAYCUBE", "SHADOW1D",
                             "SHADOW2D", "SHADOWRECT", "SHADOWCUBE", "SHADOWARRAY1D", "SHADOWARRAY2D"}) {
    INFO(target);
    const std::string t = target;
    const bool lod_extra = t == "ARRAYCUBE" || t == "SHADOWCUBE" || t == "SHADOWARRAY2D";
    assemble_valid("TEX.F R0, R1, texture[0], " + t + ";\n");
    assemble_valid(std::string("TXL.F R0, R1, ") + (lod_extra ? "R2, " : "") + "texture[0], " + t + ";\n");
    assemble_valid(std::string("TXB.F R0, R1, ") + (lod_extra ? "R2, " : "") + "texture[0], " + t + ";\n");
  }
  assemble_valid("TEX.F R0, R1, R2, texture[3], SHADOWARRAYCUBE;\nTXL.F R0, R1, R2, texture[3], SHADOWARRAYCUBE;\n");
  assemble_valid("TEX.S R0, R1, texture[1], 2D;\nTEX.U R2, R1, texture[2], ARRAY2D;\n");
  assemble_valid("TEX.F.SAT.CC R0, R1, texture[1], 2D;\nMOV.F R2 (NE.x), R0;\n");
}

TEST_CASE("textures: immediate texel offsets, TXD, LODCLAMP", "[nvasm][texture]") {
  assemble_valid("TEX.F R0, R1, texture[0], 2D, (1, -2);\n");
  assemble_valid("TXL.F R0, R1, texture[0], 3D, (-8, 7, 0);\n");
  assemble_valid("TXD.F R0, R1, R2, R3, texture[0], 2D, (1, 1);\n");
  assemble_valid("TXD.F R0, R1, R2, R3, texture[1], ARRAY2D;\nTXD.F R0, R1, R2, R3, texture[2], SHADOWCUBE;\n");
  assemble_valid("TXD.F R0, R1, R2, R3, texture[3], RECT;\n");
  // ARB_sparse_texture_clamp: the minimum level of detail follows in the extra operand.
  assemble_valid("TEX.F.LODCLAMP R0, R1, R2, texture[0], 2D;\nTXB.F.LODCLAMP R0, R1, R2.y, texture[0], 2D;\n");
}

// TXF: integer coordinates with the LOD in .w (none for BUFFER); TXFMS (NV_texture_multisample): the sample in .w.
// ARB_sparse_texture_clamp's TXD.LODCLAMP: the level of detail the gradients give, raised to the minimum. SPIR-V's
// MinLod image operand is "the minimum level-of-detail to use when accessing the image", valid with Grad; the
// minimum is the y gradient operand's w (NVIDIA's GLSL compiler writes textureGradClampARB(s, p, dx, dy, c) as
// `TXD.F.LODCLAMP R1, p, dx, R0, ...` with c in R0.w; gradients take at most xyz).
TEST_CASE("textures: TXD.LODCLAMP through the MinLod image operand", "[nvasm][texture]") {
  for (const char* target : {"1D", "2D", "3D", "CUBE", "RECT", "ARRAY2D", "SHADOW2D", "SHADOWCUBE"}) {
    INFO(target);
    const std::string body = std::string("TXD.F.LODCLAMP R0, R1, R2, R3, texture[0], ") + target + ";\n";
    CHECK(assemble_valid(body).uses_min_lod);
    nvasm::AssembleOptions raw = full_device();
    raw.optimize = false;
    auto p = nvasm::assemble("!!NVcp5.0\nGROUP_SIZE 1;\nTEMP R0, R1, R2, R3;\n" + body + "END\n", raw);
    REQUIRE(p);
    // The lookup's image operands: Grad (dx, dy) then MinLod, the w component of dy's vector.
    std::map<uint32_t, std::pair<uint32_t, uint32_t>> extracts;  // id -> (vector, component)
    std::map<uint32_t, uint32_t> shuffles;                       // id -> first vector
    bool found = false;
    const auto& w = p->spirv;
    for (size_t i = 5; i < w.size();) {
      const uint32_t op = w[i] & 0xFFFF, n = w[i] >> 16;
      if (op == static_cast<uint32_t>(spv::Op::OpCompositeExtract) && n == 5) extracts[w[i + 2]] = {w[i + 3], w[i + 4]};
      if (op == static_cast<uint32_t>(spv::Op::OpVectorShuffle)) shuffles[w[i + 2]] = w[i + 3];
      const bool dref = op == static_cast<uint32_t>(spv::Op::OpImageSampleDrefExplicitLod);
      if (dref || op == static_cast<uint32_t>(spv::Op::OpImageSampleExplicitLod)) {
        const size_t mask_at = i + (dref ? 6 : 5);
        CHECK(w[mask_at] == (0x4u | 0x80u));  // Grad | MinLod
        const uint32_t dy = w[mask_at + 2], min_lod = w[i + n - 1];
        // (RECT gradients are divided by the level size first: their vector is not traced.)
        const uint32_t dy_vector = shuffles.count(dy) ? shuffles[dy] : extracts[dy].first;
        if (std::string(target) != "RECT") CHECK(extracts[min_lod].first == dy_vector);
        CHECK(extracts[min_lod].second == 3);
        found = true;
      }
      i += n ? n : 1;
    }
    CHECK(found);
  }
}

TEST_CASE("textures: TXF and TXFMS fetch texels", "[nvasm][texture]") {
  for (const char* target : {"1D", "2D", "3D", "RECT", "ARRAY1D", "ARRAY2D", "BUFFER"}) {
    INFO(target);
    assemble_valid(std::string("TXF.F R0, R1, texture[0], ") + target + ";\n");
  }
  assemble_valid("TXF.U R0, R1, texture[0], 2D, (1, 0);\nTXF.S R2, R1, texture[1], BUFFER;\n");
  assemble_valid("TXFMS.F R0, R1, texture[0], 2DMS;\nTXFMS.U R0, R1, texture[1], ARRAY2DMS;\n");
  // NV_gpu_program5's programmable offsets (the form yuzu's GLASM backend writes).
  assemble_valid("TXF.F R0, R1, texture[0], ARRAY2D, offset(R2);\nTXF.F R0, R1, texture[1], 1D, offset(R2);\n");
}

TEST_CASE("textures: TXG gathers a component, TXGO with four offsets", "[nvasm][texture]") {
  assemble_valid("TXG.F R0, R1, texture[0].y, 2D;\nTXG.F R2, R1, texture[0].w, 2D, (1, 1);\n");
  assemble_valid("TXG.F R0, R1, texture[1], ARRAY2D;\nTXG.F R0, R1, texture[2].z, CUBE;\n");
  CHECK(assemble_valid("TXG.F R0, R1, texture[7].y, 2D, offset(R2);\n").uses_image_gather_extended);
  assemble_valid("TXG.F R0, R1, texture[3], ARRAYCUBE;\nTXG.F R0, R1, texture[4], SHADOW2D;\n");
  assemble_valid("TXG.F R0, R1, R2, texture[5], SHADOWARRAYCUBE;\nTXG.U R0, R1, texture[6].x, RECT;\n");
  const auto info = assemble_valid(
      "TXGO.F R0, R1, R2, R3, texture[0].x, 2D;\nTXGO.F R0, R1, R2, R3, "
      "texture[1], SHADOWARRAY2D;\n");
  CHECK(info.uses_image_gather_extended);
}

TEST_CASE("textures: TXQ sizes and LOD", "[nvasm][texture]") {
  for (const char* target : {"1D", "2D", "3D", "CUBE", "RECT", "ARRAY1D", "ARRAY2D", "ARRAYCUBE", "BUFFER", "2DMS",
                             "ARRAY2DMS", "SHADOW2D"}) {
    INFO(target);
    assemble_valid(std::string("TXQ R0, R1, texture[0], ") + target + ";\n");
  }
  assemble_valid("LOD.F R0, R1, texture[0], 2D;\n");
}

// EXT_sparse_texture2: .SPARSE lookups set the NONRESIDENT condition code test.
TEST_CASE("textures: .SPARSE lookups and the NONRESIDENT test", "[nvasm][texture]") {
  const auto info = assemble_valid(
      "TEX.F.SPARSE R0, R1, texture[0], 2D;\nMOV.S R2 (NONRESIDENT.x), -1;\n"
      "TXF.F.SPARSE R0, R1, texture[0], 2D;\nTXG.F.SPARSE R0, R1, texture[0], 2D;\n"
      "TXGO.F.SPARSE R0, R1, R2, R3, texture[0], 2D;\nTEX.F.SPARSE R0, R1, texture[1], SHADOW2D;\n"
      "IF NONRESIDENT.x;\nMOV.S R3, 1;\nENDIF;\n");
  CHECK(info.uses_sparse_residency);
  nvasm::AssembleOptions no_sparse = full_device();
  no_sparse.sparse_residency = false;
  check_error("TEX.F.SPARSE R0, R1, texture[0], 2D;\n", {4, 1, "shaderResourceResidency"}, no_sparse);
}

TEST_CASE("textures: TEXTURE declarations, arrays indexed by constants and registers", "[nvasm][texture]") {
  const auto info = assemble_valid(
      "TEX.F R0, R1, tex, 2D;\nTEX.F R0, R1, arr[1], CUBE;\n"
      "TEX.F R0, R1, arr[R2.x + 1], CUBE;\n",
      "TEXTURE tex = texture[2];\nTEXTURE arr[] = { texture[4..6] };\n");
  REQUIRE(info.textures.size() == 4);
  CHECK(info.textures[0].unit == 2);
  CHECK(info.textures[0].target == nvasm::TextureTarget::T2D);
  CHECK(info.textures[1].unit == 4);
  CHECK(info.textures[1].target == nvasm::TextureTarget::Cube);
  CHECK(info.textures[3].unit == 6);
}

// EXT_shader_image_load_store (assembly): LOADIM, STOREIM, ATOMIM on image[n] with a target.
TEST_CASE("images: LOADIM and STOREIM on every target", "[nvasm][image]") {
  for (const char* target :
       {"1D", "2D", "3D", "CUBE", "RECT", "ARRAY1D", "ARRAY2D", "ARRAYCUBE", "BUFFER", "2DMS", "ARRAY2DMS"}) {
    INFO(target);
    assemble_valid(std::string("LOADIM.F32X4 R0, R1, image[0], ") + target + ";\nSTOREIM.F32X4 image[0], R0, R1, " +
                   target + ";\n");
  }
  assemble_valid(
      "LOADIM.U32 R0, R1, image[1], 2D;\nLOADIM.S32X2 R0, R1, image[2], 2D;\nLOADIM.U R0, R1, image[3], "
      "2D;\nSTOREIM.F32 image[4], R0, R1, 2D;\nSTOREIM.U32X2 image[5], R0, R1, 2D;\n");
  // An image format modifier names the SPIR-V format: no "without format" feature.
  nvasm::AssembleOptions named;
  const std::string source =
      "!!NVcp5.0\nGROUP_SIZE 1;\nTEMP R0, R1;\nLOADIM.F32X4.RGBA8 R0, R1, image[0], 2D;\n"
      "STOREIM.F.RG16F image[1], R0, R1, 2D;\nLOADIM.U32.R32UI R0, R1, image[2], 2D;\nEND\n";
  auto p = nvasm::assemble(source, named);
  INFO((p ? std::string() : p.error().message));
  REQUIRE(p);
  CHECK_FALSE(p->info.uses_storage_image_read_without_format);
  CHECK_FALSE(p->info.uses_storage_image_write_without_format);
  CHECK(p->info.uses_storage_image_extended_formats);  // RG16F is not a core storage format
  REQUIRE(p->info.images.size() == 3);
  CHECK(p->info.images[0].formats == std::vector<uint32_t>{0x8058});  // GL_RGBA8
  CHECK(p->info.images[2].formats == std::vector<uint32_t>{0x8236});  // GL_R32UI
}

// NV_gpu_program5_mem_extended: "These modifiers are allowed for the following load/store instructions: ...
// LOADIM Image load (via EXT_shader_image_load_store) STOREIM Image store", the modifiers being ".F16X2 .F16X4 .F16
// (for 16-bit floating-point scalars/vectors) .S8X2 .S8X4 (for 8-bit signed integer vectors) ... .U16X2 .U16X4 (for
// 16-bit unsigned integer vectors)". Without a format modifier the texel is those elements (the GL format listed
// for the unit, no "without format" feature needed); values pass through the modifier's element type.
TEST_CASE("images: packed and F16 storage modifiers on LOADIM and STOREIM", "[nvasm][image]") {
  struct Case {
    const char* modifier;
    uint32_t gl_format;  // what the elements make
    spv::Op narrowing;   // how values are cut to an element (OpNop: F16, through half bits)
  };
  const Case cases[] = {
      {"U8X2", 0x8238, spv::Op::OpBitFieldUExtract},
      {"U8X4", 0x8D7C, spv::Op::OpBitFieldUExtract},
      {"U16X2", 0x823A, spv::Op::OpBitFieldUExtract},
      {"U16X4", 0x8D76, spv::Op::OpBitFieldUExtract},
      {"S8X2", 0x8237, spv::Op::OpBitFieldSExtract},
      {"S8X4", 0x8D8E, spv::Op::OpBitFieldSExtract},
      {"S16X2", 0x8239, spv::Op::OpBitFieldSExtract},
      {"S16X4", 0x8D88, spv::Op::OpBitFieldSExtract},
      {"F16", 0x822D, spv::Op::OpNop},
      {"F16X2", 0x822F, spv::Op::OpNop},
      {"F16X4", 0x881A, spv::Op::OpNop},
  };
  for (const Case& c : cases) {
    for (const bool store : {false, true}) {
      const std::string m = c.modifier;
      const std::string body =
          store ? "STOREIM." + m + " image[1], R0, R1, 2D;\n" : "LOADIM." + m + " R0, R1, image[1], 2D;\n";
      INFO(body);
      assemble_valid(body);
      // No device feature: the modifier names the format.
      nvasm::AssembleOptions plain;
      plain.optimize = false;
      auto p = nvasm::assemble("!!NVcp5.0\nGROUP_SIZE 1;\nTEMP R0, R1;\n" + body + "END\n", plain);
      INFO((p ? std::string() : p.error().message));
      REQUIRE(p);
      REQUIRE(p->info.images.size() == 1);
      CHECK(p->info.images[0].formats == std::vector<uint32_t>{c.gl_format});
      CHECK_FALSE(p->info.uses_storage_image_read_without_format);
      CHECK_FALSE(p->info.uses_storage_image_write_without_format);
      // The values are cut to the modifier's elements: extracts of `bits` bits from bit 0, or halves.
      bool extract = false, pack_half = false;
      for (size_t i = 5; i < p->spirv.size();) {
        const uint32_t op = p->spirv[i] & 0xFFFF, n = p->spirv[i] >> 16;
        if (op == static_cast<uint32_t>(c.narrowing)) extract = true;
        if (op == static_cast<uint32_t>(spv::Op::OpExtInst) && p->spirv[i + 4] == 58) pack_half = true;  // PackHalf2x16
        i += n ? n : 1;
      }
      CHECK((c.narrowing == spv::Op::OpNop ? pack_half : extract));
    }
  }
  // A format modifier beside them: its type must be the modifier's, as for the 32-bit modifiers.
  assemble_valid("LOADIM.U8X4.RGBA32UI R0, R1, image[0], 2D;\nSTOREIM.F16X2.RGBA32F image[1], R0, R1, 2D;\n");
  check_error("LOADIM.S8X4.RGBA8UI R0, R1, image[0], 2D;\n", {4, 1, "image format's data type"});
  // Atomics take none of them on images (ATOMIM is U32 / S32 here).
  check_error("ATOMIM.ADD.F16X2 R0, R1, R2, image[0], 2D;\n", {4, 1, "ATOMIM takes"});
}

TEST_CASE("images: ATOMIM with every operation", "[nvasm][image]") {
  for (const char* op : {"ADD", "MIN", "MAX", "IWRAP", "DWRAP", "AND", "OR", "XOR", "EXCH", "CSWAP"}) {
    INFO(op);
    assemble_valid(std::string("ATOMIM.") + op + ".U32 R0, R2, R1, image[0], 2D;\nATOMIM." + op +
                   ".S32 R0, R2, R1, image[1], ARRAY2D;\n");
  }
  assemble_valid(
      "ATOMIM.ADD.U32 R0, R2, R1, image[0], BUFFER;\nATOMIM.EXCH.U32 R0, R2, R1, image[1], 2DMS;\n"
      "ATOMIM.MAX.S32.R32I R0, R2, R1, image[2], CUBE;\n");
  const auto info = assemble_valid("LOADIM.F.SPARSE R0, R1, image[0], 2D;\nMOV.S R2 (NONRESIDENT.x), 1;\n");
  CHECK(info.uses_sparse_residency);
}

// NV_shader_atomic_float: "atomic read-modify-write operations to buffer or texture memory with floating-point
// components. The set of atomic operations provided by this extension is limited to adds and exchanges." ATOMIM
// .ADD.F32 / .EXCH.F32 work on an R32F image through a float texel pointer: OpAtomicFAddEXT with
// shaderImageFloat32AtomicAdd, OpAtomicExchange with shaderImageFloat32Atomics; without them a load error.
TEST_CASE("images: ATOMIM.ADD.F32 and ATOMIM.EXCH.F32 on R32F images", "[nvasm][image]") {
  const auto info = assemble_valid(
      "ATOMIM.ADD.F32 R0, R2, R1, image[0], 2D;\nATOMIM.EXCH.F32.R32F R0, R2, R1, image[1], ARRAY2D;\n"
      "ATOMIM.ADD.F32 R0, R2, R1, image[2], BUFFER;\n");
  REQUIRE(info.images.size() == 3);
  for (const auto& image : info.images) {
    CHECK(image.formats == std::vector<uint32_t>{0x822E});  // GL_R32F
    CHECK(image.atomic);
  }
  CHECK(info.uses_image_float32_atomic_add);
  CHECK(info.uses_image_float32_atomics);
  // Only the operation used asks for its feature.
  nvasm::AssembleOptions add_only;
  add_only.image_float32_atomic_add = true;
  auto p = nvasm::assemble(
      "!!NVcp5.0\nGROUP_SIZE 1;\nTEMP R0, R1, R2;\nATOMIM.ADD.F32 R0, R2, R1, image[0], 2D;\nEND\n", add_only);
  REQUIRE(p);
  CHECK(p->info.uses_image_float32_atomic_add);
  CHECK_FALSE(p->info.uses_image_float32_atomics);
  nvasm::AssembleOptions none;
  check_error("ATOMIM.ADD.F32 R0, R1, R2, image[0], 2D;\n", {4, 1, "shaderImageFloat32AtomicAdd"}, none);
  check_error("ATOMIM.EXCH.F32 R0, R1, R2, image[0], 2D;\n", {4, 1, "shaderImageFloat32Atomics"}, add_only);
  check_error("ATOMIM.MIN.F32 R0, R1, R2, image[0], 2D;\n", {4, 1, "atomic operation not supported"});
  check_error("ATOMIM.CSWAP.F32 R0, R1, R2, image[0], 2D;\n", {4, 1, "atomic operation not supported"});
  check_error("ATOMIM.ADD.F32.RGBA32F R0, R1, R2, image[0], 2D;\n", {4, 1, "ATOMIM needs an R32UI, R32I or R32F"});
  check_error("ATOMIM.ADD.S64 R0, R1, R2, image[0], 2D;\n", {4, 1, "ATOMIM takes U32 or S32, or F32"});
}

TEST_CASE("textures and images: the description and the GL layout", "[nvasm][texture][description]") {
  const auto info = assemble_valid(
      "TEX.U R0, R1, texture[5], ARRAY2D;\nTXF.F R0, R1, texture[2], BUFFER;\nTEX.F R0, R1, texture[7], SHADOW2D;\n"
      "LOADIM.F32X4 R0, R1, image[3], 2D;\nATOMIM.ADD.U32 R0, R1, R2, image[1], BUFFER;\n"
      "STOREIM.U32 image[3], R0, R1, 2D;\nLDB.U32 R0, s[0];\n",
      "STORAGE s = program.storage[0];\n");
  REQUIRE(info.textures.size() == 3);
  CHECK(info.textures[0].unit == 2);
  CHECK(info.textures[0].target == nvasm::TextureTarget::Buffer);
  CHECK(info.textures[1].unit == 5);
  CHECK(info.textures[1].types == std::vector<nvasm::SampledType>{nvasm::SampledType::Uint});
  CHECK(info.textures[1].binding == nvasm::kTextureBindingBase + 5);
  CHECK(info.textures[2].shadow);
  REQUIRE(info.images.size() == 2);
  CHECK(info.images[0].unit == 1);
  CHECK(info.images[0].atomic);
  CHECK(info.images[0].formats == std::vector<uint32_t>{0x8236});  // GL_R32UI: Vulkan's image atomics name it
  CHECK(info.images[1].unit == 3);
  CHECK(info.images[1].read);
  CHECK(info.images[1].write);
  CHECK(info.images[1].binding == nvasm::kImageBindingBase + 3);
  CHECK(info.uses_storage_image_read_without_format);

  // The GL layout: storage buffers, uniform buffers, then textures and images by increasing unit.
  const auto layout = nvasm::gl_program_layout(info);
  CHECK(layout.texture_binding_base() == 1);
  REQUIRE(layout.textures.size() == 3);
  CHECK(layout.textures[0].unit == 2);
  CHECK(layout.textures[0].type == nvasm::GlDescriptorType::UniformTexelBuffer);
  CHECK(layout.textures[1].type == nvasm::GlDescriptorType::CombinedImageSampler);
  CHECK(layout.image_binding_base() == 4);
  REQUIRE(layout.images.size() == 2);
  CHECK(layout.images[0].type == nvasm::GlDescriptorType::StorageTexelBuffer);
  CHECK(layout.images[1].type == nvasm::GlDescriptorType::StorageImage);
}

// glProgramStringARB's path: gl_assemble_options' pre-compaction bindings, then gl_program_pipeline writes the
// compact layout (storage, uniform, textures, images) into the module.
TEST_CASE("textures and images: the GL pipeline writes the compact bindings", "[nvasm][texture][description]") {
  bismuth::CompileTarget target;
  target.storage_image_read_without_format = true;
  const std::string source =
      "!!NVcp5.0\nGROUP_SIZE 1;\nTEMP R0, R1, R2, R3;\nSTORAGE s = program.storage[3];\n"
      "TEX.F R0, R1, texture[9], 2D;\nTXF.F R2, R1, texture[1], BUFFER;\nLOADIM.F R3, R1, image[5], 2D;\n"
      "ADD.F R0, R0, R2;\nADD.F R0, R0, R3;\nSTB.F32 R0, s[0];\nEND\n";
  auto p = nvasm::assemble(source, nvasm::gl_assemble_options(target));
  INFO((p ? std::string() : p.error().message));
  REQUIRE(p);
  const auto layout = nvasm::gl_program_layout(p->info);
  auto piped = spirv_patch::run_pipeline(p->spirv, nvasm::gl_program_pipeline(p->info, layout));
  INFO((piped ? std::string() : piped.error().message));
  REQUIRE(piped);
  REQUIRE(spirv_patch::validate(piped->words, spirv_patch::TargetEnv::Vulkan1_1));
  // The Binding decorations of the module, in any order: 0 (program.storage[3]), 1 (texture[1]), 2 (texture[9]),
  // 3 (image[5]).
  std::vector<uint32_t> bindings;
  const auto& w = piped->words;
  for (size_t i = 5; i < w.size();) {
    const uint32_t op = w[i] & 0xFFFF, n = w[i] >> 16;
    if (op == static_cast<uint32_t>(spv::Op::OpDecorate) &&
        w[i + 2] == static_cast<uint32_t>(spv::Decoration::Binding)) {
      bindings.push_back(w[i + 3]);
    }
    i += n ? n : 1;
  }
  std::sort(bindings.begin(), bindings.end());
  CHECK(bindings == std::vector<uint32_t>{0, 1, 2, 3});
  REQUIRE(layout.textures.size() == 2);
  CHECK(layout.textures[0].unit == 1);
  CHECK(layout.textures[1].unit == 9);
  CHECK(layout.texture_binding_base() == 1);
  CHECK(layout.image_binding_base() == 3);
}

TEST_CASE("textures and images: load errors", "[nvasm][texture][errors]") {
  check_error("TEX.F R0, R1, texture[0], 4D;\n", {4, 27, "unknown texture target '4D'"});
  check_error("TEX.F R0, R1, texture[0], FOO;\n", {4, 27, "unknown texture target 'FOO'"});
  check_error("TEX.F R0, R1, texture[32], 2D;\n", {4, 23, "texture unit 32 is out of range"});
  check_error("LOADIM.F R0, R1, image[8], 2D;\n", {4, 24, "image unit 8 is out of range"});
  // NV_fragment_program, kept by NV_gpu_program4: a program uses each texture unit with one target.
  check_error("TEX.F R0, R1, texture[0], 2D;\nTEX.F R0, R1, texture[0], 3D;\n",
              {5, 27, "texture unit 0 is already used with another target"});
  check_error("TXF.F R0, R1, texture[0], CUBE;\n", {4, 27, "TXF takes no SHADOW or CUBE target"});
  check_error("TXFMS.F R0, R1, texture[0], 2D;\n", {4, 29, "TXFMS takes a 2DMS or ARRAY2DMS target"});
  check_error("TEX.F R0, R1, texture[0], BUFFER;\n", {4, 27, "takes no BUFFER or multisample target"});
  check_error("TXL.F R0, R1, texture[0], ARRAYCUBE;\n", {4, 1, "TXL with this target takes 2 operands"});
  check_error("TEX.F R0, R1, R2, texture[0], 2D;\n", {4, 1, "TEX with this target takes 1 operand"});
  check_error("TEX.F R0, R1, texture[0], 2D, (8, 0);\n", {4, 32, "texel offsets are integers in [-8, 7]"});
  check_error("TEX.F R0, R1, texture[0], 2D, (1);\n", {4, 31, "takes a texel offset of 2 components"});
  check_error("TEX.F R0, R1, texture[0], 2D, offset(R2);\n", {4, 31, "register texel offsets"});
  check_error("TEX.F R0, R1, texture[0].y, 2D;\n", {4, 26, "only TXG and TXGO select a component"});
  check_error("TEX.F64 R0, R1, texture[0], 2D;\n", {4, 5, "invalid modifier 'F64' for TEX"});
  check_error("ADD.F.SPARSE R0, R1, R2;\n", {4, 7, "invalid modifier 'SPARSE' for ADD"});
  check_error("LOADIM.F R0, R1, image[0], SHADOW2D;\n", {4, 28, "cannot be a SHADOW target"});
  check_error("LOADIM.U32.RGBA8 R0, R1, image[0], 2D;\n", {4, 1, "image format's data type"});
  check_error("ATOMIM.ADD.U64 R0, R1, R2, image[0], 2D;\n", {4, 1, "ATOMIM takes U32 or S32, or F32"});
  check_error("ATOMIM.ADD.U32.RGBA8UI R0, R1, R2, image[0], 2D;\n",
              {4, 1, "ATOMIM needs an R32UI, R32I or R32F image"});
  check_error("IMAGE img = image[0];\nTEX.F R0, R1, img, 2D;\n", {5, 15, "is not a TEXTURE declaration"});
  nvasm::AssembleOptions no_min_lod = full_device();
  no_min_lod.min_lod = false;
  check_error("TXD.F.LODCLAMP R0, R1, R2, R3, texture[0], 2D;\n", {4, 1, "shaderResourceMinLod"}, no_min_lod);
  nvasm::AssembleOptions no_format;
  check_error("LOADIM.F R0, R1, image[0], 2D;\n", {4, 1, "shaderStorageImageReadWithoutFormat"}, no_format);
  check_error("STOREIM.F image[0], R0, R1, 2D;\n", {4, 1, "shaderStorageImageWriteWithoutFormat"}, no_format);
  check_error("TEXTURE t[] = { texture[30..32] };\n", {4, 25, "invalid texture unit range"});
}
