// Shared helpers for the backend tests: a Device on the validated instance, the test shaders, temp dirs.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "bismuth/backend/buffer.hpp"
#include "bismuth/backend/command_stream.hpp"
#include "bismuth/backend/device.hpp"
#include "bismuth/backend/pipeline_cache.hpp"
#include "bismuth/backend/shader.hpp"
#include "support/validated_vulkan.hpp"

namespace bismuth::test {

// dst[i] = src[i] + add for i < count; workgroup size from SpecIds 0/1/2 (what spirv_patch produces).
inline constexpr const char* kAddShader = R"(#version 450
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(std430, binding = 0) readonly buffer Src { uint src[]; };
layout(std430, binding = 1) buffer Dst { uint dst[]; };
layout(push_constant) uniform Push { uint count; uint add; };
void main() {
  uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  if (i < count) dst[i] = src[i] + add;
}
)";

// out[group] = the workgroup's invocation count: proves the specialised size reached the pipeline.
inline constexpr const char* kSizeProbeShader = R"(#version 450
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(std430, binding = 0) buffer Out { uint words[]; };
void main() {
  if (gl_LocalInvocationIndex == 0) {
    uint group = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
    words[group] = gl_WorkGroupSize.x * gl_WorkGroupSize.y * gl_WorkGroupSize.z;
  }
}
)";

// Spins `iterations` times per invocation so that a submission stays in flight long enough to observe.
inline constexpr const char* kSpinShader = R"(#version 450
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(std430, binding = 0) buffer Out { uint words[]; };
layout(push_constant) uniform Push { uint iterations; };
void main() {
  uint acc = gl_GlobalInvocationID.x;
  for (uint k = 0; k < iterations; ++k) acc = acc * 1664525u + 1013904223u;
  words[gl_GlobalInvocationID.x] = acc;
}
)";

const std::vector<uint32_t>& spirv_of(const char* source);

std::unique_ptr<backend::Device> make_device(ValidatedVulkan& vk, const backend::DeviceOptions& options = {});
std::shared_ptr<backend::Shader> make_add_shader(backend::Device& device, const char* name = "add");
std::shared_ptr<backend::Shader> make_probe_shader(backend::Device& device);
std::shared_ptr<backend::Shader> make_spin_shader(backend::Device& device);
// Options with persistence off (tests never touch ~/.cache) and statistics printing off.
backend::PipelineCacheOptions quiet_cache_options();
std::unique_ptr<backend::PipelineCache> make_cache(backend::Device& device,
                                                   const backend::PipelineCacheOptions& options = quiet_cache_options());
std::shared_ptr<backend::Buffer> make_buffer(backend::Device& device, size_t words);
std::unique_ptr<backend::CommandStream> make_stream(backend::Device& device, backend::PipelineCache& cache,
                                                    const backend::StreamOptions& options = {});
// The first `words` words of `buffer` after every earlier command of `stream` (fails the test on an error).
std::vector<uint32_t> read_words(backend::CommandStream& stream, backend::Buffer& buffer, size_t words);

// A fresh directory under the system temp dir, removed by the destructor.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

template <class T>
std::span<const std::byte> bytes_of(const T& value) {
  return std::as_bytes(std::span<const T>(&value, 1));
}
template <class T>
std::span<const std::byte> bytes_of(const std::vector<T>& values) {
  return std::as_bytes(std::span<const T>(values));
}

// The validation messages of `vk` less the validation layer's performance note on transfers to or from an image in
// VK_IMAGE_LAYOUT_GENERAL ("For optimal performance VkImage ... layout should be VK_IMAGE_LAYOUT_TRANSFER_*_OPTIMAL
// instead of GENERAL"): images stay in GENERAL by design (docs/backend.md, "Images"). Only that note is dropped; the
// same message ID reporting a real layout mismatch (a layout the image is not in at submission) still counts.
inline std::vector<std::string> messages_except_general_layout_note(const ValidatedVulkan& vk) {
  std::vector<std::string> messages = vk.messages();
  std::erase_if(messages, [](const std::string& m) {
    return m.find("Performance Warning") != std::string::npos &&
           m.find("For optimal performance") != std::string::npos &&
           m.find("_OPTIMAL instead of GENERAL") != std::string::npos;
  });
  return messages;
}

#define REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk)                         \
  do {                                                                                     \
    const auto bismuth_messages_ = bismuth::test::messages_except_general_layout_note(vk); \
    for (const auto& m : bismuth_messages_) UNSCOPED_INFO(m);                              \
    REQUIRE(bismuth_messages_.empty());                                                    \
  } while (false)

#define REQUIRE_OK(expr)                                    \
  do {                                                      \
    auto bismuth_status_ = (expr);                          \
    if (!bismuth_status_) FAIL(bismuth_status_.error().message); \
  } while (false)

}  // namespace bismuth::test
