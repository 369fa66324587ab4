// Layer settings, read from environment variables once per vkCreateInstance (docs/layer.md, "Settings").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace bismuth::vk_layer {

enum class LogLevel : uint8_t { Off, Error, Warning, Info, Debug };

struct Settings {
  bool disabled = false;        // BISMUTH_DISABLE=1: forward every call untouched, advertise nothing
  bool force_ballot = false;    // BISMUTH_FORCE_EMULATION=1|ballot: emulate VK_EXT_shader_subgroup_ballot
  bool force_vote = false;      // BISMUTH_FORCE_EMULATION=1|vote: emulate VK_EXT_shader_subgroup_vote
  LogLevel log_level = LogLevel::Warning;  // BISMUTH_LOG_LEVEL=off|error|warning|info|debug
  std::string cache_dir;        // BISMUTH_CACHE_DIR: directory of the size pipelines' VkPipelineCache file
  bool stats = false;           // BISMUTH_STATS=1: print counters to stderr at vkDestroyDevice
  // BISMUTH_PREWARM=off|0|<n>: how many likely sizes to compile in the background when a variable-size pipeline
  // is created (default: the backend's default set, 64 sizes).
  size_t prewarm_sizes = 64;

  static Settings from_environment();
};

}  // namespace bismuth::vk_layer
