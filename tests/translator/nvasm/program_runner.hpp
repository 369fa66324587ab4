// Runs small hand-written !!NVcp5.0 programs on the test device: program.storage[0] is an output buffer of
// `words` words (initialised to `init`), program.storage[1] an optional input buffer, program.local values in a
// uniform buffer. Every module is validated; every device run ends with no validation messages.
#pragma once

#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "bismuth/nvasm/assembler.hpp"
#include "bismuth/spirv_patch/validate.hpp"
#include "support/buffer_dispatch.hpp"
#include "support/validated_vulkan.hpp"

namespace bismuth::test::nvasm_run {

struct Run {
  std::string source;
  uint32_t words = 16;
  uint32_t init = 0xDEADBEEF;
  std::vector<uint32_t> input;
  std::vector<std::array<uint32_t, 4>> locals;
  std::vector<std::array<uint32_t, 4>> env;
  // program.subroutine[n] values (the SUBROUTINENUMs ProgramSubroutineParametersuivNV would load), a uniform buffer
  // at kSubroutineParameterBinding with value n in .x of vec4 n.
  std::vector<uint32_t> subroutines;
  // program.buffer[a] contents (uniform buffers at kParameterBufferBindingBase + a) and more program.storage[k]
  // buffers (k >= 2, read back into `storage_out`).
  std::vector<std::pair<uint32_t, std::vector<uint32_t>>> parameter_buffers;
  std::vector<std::pair<uint32_t, std::vector<uint32_t>>> more_storage;
  std::vector<std::vector<uint32_t>>* storage_out = nullptr;
  // program.counter[b] contents (storage buffers at kCounterBindingBase + b, NV_shader_atomic_counters), read back
  // into `counters_out` in the same order.
  std::vector<std::pair<uint32_t, std::vector<uint32_t>>> counters;
  std::vector<std::vector<uint32_t>>* counters_out = nullptr;
  std::array<uint32_t, 3> groups{1, 1, 1};
  std::array<uint32_t, 3> variable_size{0, 0, 0};  // for OPTION ARB_compute_variable_group_size programs
  uint32_t parameter_buffer_bytes = nvasm::kParameterBufferBytes;  // AssembleOptions::parameter_buffer_bytes
  // Assemble with the device's 64-bit atomics (AssembleOptions::int64_buffer_atomics / int64_shared_atomics); the
  // test is skipped (passes with a warning) on a device without them.
  bool int64_atomics = false;
  // Assemble with the device's native float adds on buffers (AssembleOptions::buffer_float32_atomic_add /
  // buffer_float64_atomic_add); skipped (an empty result, with a warning) on a device without the 32-bit one.
  bool native_float_add = false;
  // AssembleOptions::scratch_threshold_bytes: 0 puts every TEMP array in the scratch buffer, UINT32_MAX none.
  uint32_t scratch_threshold_bytes = nvasm::kScratchThresholdBytes;
  // Reports ProgramInfo::scratch_bytes_per_invocation (the scratch buffer, filled with 0xCDCDCDCD so that the
  // program's zeroing shows, is groups x group size x that many bytes).
  uint32_t* scratch_bytes = nullptr;
  std::vector<uint32_t>* scratch_out = nullptr;  // the scratch buffer after the run (empty: the program has none)
  // NV_shader_buffer_load / _store programs: assembled with AssembleOptions::buffer_device_address; the test is
  // skipped (passes with a warning) on a device without bufferDeviceAddress. `addresses` writes the GPU address of
  // program.storage[target] + offset into two words of program.local (word 4 * index + component) or of
  // program.storage[k] before the run.
  bool pointers = false;
  struct Address {
    bool in_local = true;  // program.local; else program.storage[storage]
    uint32_t storage = 0;
    uint32_t word = 0;
    uint32_t target = 0;  // program.storage index whose address is written
    uint64_t offset = 0;
  };
  std::vector<Address> addresses;
};

inline uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float as_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

inline std::vector<uint32_t> run(const Run& r) {
  ValidatedVulkan vk;
  auto device = BufferDevice::create(vk);
  REQUIRE(device);
  nvasm::AssembleOptions options;
  options.exact_float_mad = (*device)->float64();
  options.parameter_buffer_bytes = r.parameter_buffer_bytes;
  options.scratch_threshold_bytes = r.scratch_threshold_bytes;
  if (r.int64_atomics) {
    if (!(*device)->int64_buffer_atomics() || !(*device)->int64_shared_atomics()) {
      WARN("the test device has no 64-bit buffer and shared atomics; not run");
      return {};
    }
    options.int64_buffer_atomics = true;
    options.int64_shared_atomics = true;
  }
  if (r.pointers) {
    if (!(*device)->buffer_device_address()) {
      WARN("the test device has no bufferDeviceAddress; not run");
      return {};
    }
    options.buffer_device_address = true;
  }
  if (r.native_float_add) {
    if (!(*device)->float32_buffer_atomic_add()) {
      WARN("the test device has no shaderBufferFloat32AtomicAdd; not run");
      return {};
    }
    options.buffer_float32_atomic_add = true;
    options.buffer_float64_atomic_add = (*device)->float64_buffer_atomic_add();
  }
  // The straightforward translation validates before the optimizer sees it.
  nvasm::AssembleOptions unoptimized = options;
  unoptimized.optimize = false;
  auto plain = nvasm::assemble(r.source, unoptimized);
  INFO((plain ? std::string() : plain.error().message));
  REQUIRE(plain);
  auto program = nvasm::assemble(r.source, options);
  INFO((program ? std::string() : program.error().message));
  REQUIRE(program);
  REQUIRE(spirv_patch::validate(program->spirv, spirv_patch::TargetEnv::Vulkan1_1));
  MultiBufferDispatch d;
  d.spirv = program->spirv;
  d.group_count = r.groups;
  d.buffers.push_back({0, false, std::vector<uint32_t>(r.words, r.init)});
  d.buffers.push_back({1, false, r.input.empty() ? std::vector<uint32_t>{0} : r.input});
  auto add_params = [&](const std::vector<std::array<uint32_t, 4>>& values, uint32_t binding) {
    if (values.empty()) return;
    std::vector<uint32_t> words;
    for (const auto& v : values) words.insert(words.end(), v.begin(), v.end());
    d.buffers.push_back({binding, true, words});
  };
  for (const auto& [a, words] : r.parameter_buffers) d.buffers.push_back({nvasm::kParameterBufferBindingBase + a, true, words});
  const size_t more_at = d.buffers.size();
  for (const auto& [k, words] : r.more_storage) d.buffers.push_back({k, false, words});
  const size_t counters_at = d.buffers.size();
  for (const auto& [b, words] : r.counters) d.buffers.push_back({nvasm::kCounterBindingBase + b, false, words});
  const size_t locals_at = d.buffers.size();
  add_params(r.locals, nvasm::kLocalParameterBinding);
  auto storage_at = [&](uint32_t k) -> size_t {
    if (k < 2) return k;
    for (size_t i = 0; i < r.more_storage.size(); ++i) {
      if (r.more_storage[i].first == k) return more_at + i;
    }
    FAIL("no program.storage[" << k << "] in the run");
    return 0;
  };
  for (const Run::Address& a : r.addresses) {
    d.addresses.push_back({a.in_local ? locals_at : storage_at(a.storage), a.word, storage_at(a.target), a.offset});
  }
  add_params(r.env, nvasm::kEnvParameterBinding);
  if (!r.subroutines.empty()) {
    std::vector<std::array<uint32_t, 4>> values;
    for (uint32_t v : r.subroutines) values.push_back({v, 0, 0, 0});
    add_params(values, nvasm::kSubroutineParameterBinding);
  }
  if (program->info.group_size_form == nvasm::GroupSizeForm::Variable) {
    for (int i = 0; i < 3; ++i) d.specialization.push_back({nvasm::kGroupSizeSpecIds[i], r.variable_size[i]});
  }
  if (const uint32_t slice = program->info.scratch_bytes_per_invocation; slice > 0) {
    const auto& size =
        program->info.group_size_form == nvasm::GroupSizeForm::Variable ? r.variable_size : program->info.group_size;
    const uint64_t invocations = uint64_t(r.groups[0]) * r.groups[1] * r.groups[2] * size[0] * size[1] * size[2];
    d.buffers.push_back({program->info.scratch_binding, false,
                         std::vector<uint32_t>(static_cast<size_t>(invocations * slice / 4), 0xCDCDCDCDu)});
  }
  if (r.scratch_bytes) *r.scratch_bytes = program->info.scratch_bytes_per_invocation;
  const size_t scratch_at = program->info.scratch_bytes_per_invocation > 0 ? d.buffers.size() - 1 : SIZE_MAX;
  auto ran = (*device)->run(d);
  INFO((ran ? std::string() : ran.error().message));
  REQUIRE(ran);
  (*device)->reset();
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
  if (r.scratch_out) *r.scratch_out = scratch_at == SIZE_MAX ? std::vector<uint32_t>{} : d.buffers[scratch_at].words;
  if (r.counters_out) {
    r.counters_out->clear();
    for (size_t i = 0; i < r.counters.size(); ++i) r.counters_out->push_back(d.buffers[counters_at + i].words);
  }
  if (r.storage_out) {
    r.storage_out->clear();
    for (size_t i = 0; i < r.more_storage.size(); ++i) r.storage_out->push_back(d.buffers[more_at + i].words);
  }
  return d.buffers[0].words;
}

// The header every single-invocation test program starts with.
inline std::string single(const std::string& body, const std::string& decls = "TEMP R0, R1, R2, R3;\n") {
  return "!!NVcp5.0\nOPTION NV_shader_storage_buffer;\nGROUP_SIZE 1;\nSTORAGE out[] = { program.storage[0] };\n"
         "STORAGE in[] = { program.storage[1] };\n" + decls + body + "END\n";
}

}  // namespace bismuth::test::nvasm_run
