// The program description the runtime builds its pipeline from (assembler.hpp: ProgramInfo).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "bismuth/nvasm/assembler.hpp"
#include "bismuth/spirv_patch/analysis/reflection.hpp"
#include "bismuth/spirv_patch/validate.hpp"

using namespace bismuth;

TEST_CASE("description: fixed group size, storage map, locals and shared memory", "[nvasm][description]") {
  nvasm::AssembleOptions options;
  options.storage_bindings = {5, 7};
  auto p = nvasm::assemble(R"(!!NVcp5.0
GROUP_SIZE 8 4 2;
SHARED_MEMORY 100;
SHARED s[] = { program.sharedmem };
PARAM c[2] = { program.local[2..3] };
STORAGE a[] = { program.storage[1] };
STORAGE b[] = { program.storage[0] };
TEMP R0;
ADD.U R0, c[1], c[0];
STS.U32 R0, s[0];
STB.U32 R0, a[0];
STB.U32 R0, b[0];
END
)", options);
  REQUIRE(p);
  CHECK(p->info.group_size_form == nvasm::GroupSizeForm::Fixed);
  CHECK(p->info.group_size == std::array<uint32_t, 3>{8, 4, 2});
  REQUIRE(p->info.storage_buffers.size() == 2);
  CHECK(p->info.storage_buffers[0].program_storage == 0);
  CHECK(p->info.storage_buffers[0].binding == 5);
  CHECK(p->info.storage_buffers[1].program_storage == 1);
  CHECK(p->info.storage_buffers[1].binding == 7);
  CHECK(p->info.local_parameter_count == 4);
  CHECK(p->info.env_parameter_count == 0);
  CHECK(p->info.shared_memory_bytes == 100);
  CHECK_FALSE(p->info.required_subgroup_size);
  REQUIRE(spirv_patch::validate(p->spirv, spirv_patch::TargetEnv::Vulkan1_1));
}

TEST_CASE("description: parameter buffers map program.buffer indices to uniform-buffer bindings", "[nvasm][description]") {
  const std::string source = R"(!!NVcp5.0
GROUP_SIZE 1;
CBUFFER c[] = { program.buffer[3], program.buffer[1] };
BUFFER4 v[] = program.buffer[3][0..7];
STORAGE out[] = { program.storage[0] };
TEMP R0;
LDC.U32 R0.x, c[1][4];
ADD.U R0, R0, v[2];
STB.U32X4 R0, out[0];
END
)";
  auto p = nvasm::assemble(source);
  REQUIRE(p);
  REQUIRE(p->info.parameter_buffers.size() == 2);
  CHECK(p->info.parameter_buffers[0].program_buffer == 1);
  CHECK(p->info.parameter_buffers[0].binding == nvasm::kParameterBufferBindingBase + 1);
  CHECK(p->info.parameter_buffers[1].program_buffer == 3);
  CHECK(p->info.parameter_buffers[1].binding == nvasm::kParameterBufferBindingBase + 3);
  REQUIRE(spirv_patch::validate(p->spirv, spirv_patch::TargetEnv::Vulkan1_1));
  nvasm::AssembleOptions options;
  options.parameter_buffer_bindings = {20, 21, 22, 23};
  auto mapped = nvasm::assemble(source, options);
  REQUIRE(mapped);
  REQUIRE(mapped->info.parameter_buffers.size() == 2);
  CHECK(mapped->info.parameter_buffers[0].binding == 21);
  CHECK(mapped->info.parameter_buffers[1].binding == 23);
}

TEST_CASE("description: sub-word storage-buffer stores use 8/16-bit storage only when the options allow it", "[nvasm][description]") {
  const std::string source = R"(!!NVcp5.0
GROUP_SIZE 1;
SHARED_MEMORY 8;
SHARED s[] = { program.sharedmem };
STORAGE out[] = { program.storage[0] };
TEMP R0;
STB.U8 R0.x, out[1];
STB.S16 R0.x, out[2];
STS.U8 R0.x, s[1];
END
)";
  auto has_capability = [](const std::vector<uint32_t>& words, uint32_t capability) {
    for (size_t i = 5; i < words.size() && (words[i] >> 16) != 0; i += words[i] >> 16) {
      if ((words[i] & 0xFFFF) == 17 && words[i + 1] == capability) return true;  // OpCapability
    }
    return false;
  };
  constexpr uint32_t kStorageBuffer8BitAccess = 4448, kStorageBuffer16BitAccess = 4433;
  auto plain = nvasm::assemble(source);
  REQUIRE(plain);
  CHECK_FALSE(plain->info.uses_storage_buffer_8bit);
  CHECK_FALSE(plain->info.uses_storage_buffer_16bit);
  CHECK_FALSE(has_capability(plain->spirv, kStorageBuffer8BitAccess));
  nvasm::AssembleOptions options;
  options.storage_buffer_8bit = true;
  options.storage_buffer_16bit = true;
  options.optimize = false;
  auto narrow = nvasm::assemble(source, options);
  REQUIRE(narrow);
  CHECK(narrow->info.uses_storage_buffer_8bit);
  CHECK(narrow->info.uses_storage_buffer_16bit);
  CHECK(has_capability(narrow->spirv, kStorageBuffer8BitAccess));
  CHECK(has_capability(narrow->spirv, kStorageBuffer16BitAccess));
  REQUIRE(spirv_patch::validate(narrow->spirv, spirv_patch::TargetEnv::Vulkan1_1));
  options.storage_buffer_16bit = false;
  auto only8 = nvasm::assemble(source, options);
  REQUIRE(only8);
  CHECK(only8->info.uses_storage_buffer_8bit);
  CHECK_FALSE(only8->info.uses_storage_buffer_16bit);
}

TEST_CASE("description: variable group size comes out as specialization constants 0x7B00..0x7B02", "[nvasm][description]") {
  auto p = nvasm::assemble("!!NVcp5.0\nOPTION ARB_compute_variable_group_size;\nSTORAGE b[] = { program.storage[0] };\n"
                           "TEMP R0;\nMOV.U R0, invocation.groupsize;\nSTB.U32X4 R0, b[0];\nEND\n");
  REQUIRE(p);
  CHECK(p->info.group_size_form == nvasm::GroupSizeForm::Variable);
  CHECK(p->info.group_size_spec_ids == std::array<uint32_t, 3>{0x7B00, 0x7B01, 0x7B02});
  REQUIRE(spirv_patch::validate(p->spirv, spirv_patch::TargetEnv::Vulkan1_1));
  auto reflection = spirv_patch::reflect(p->spirv);
  REQUIRE(reflection);
}

TEST_CASE("description: 64-bit types ask for shaderInt64 / shaderFloat64", "[nvasm][description]") {
  auto p = nvasm::assemble("!!NVcp5.0\nGROUP_SIZE 1;\nSTORAGE b[] = { program.storage[0] };\nLONG TEMP D0;\n"
                           "CVT.F64.U32 D0.x, {3}.x;\nSTB.F64 D0.x, b[0];\nEND\n");
  REQUIRE(p);
  CHECK(p->info.uses_float64);
  CHECK(p->info.uses_int64);
}
