#include "settings.hpp"

#include <cstdlib>
#include <string>
#include <string_view>

#include "bismuth/backend/pipeline_cache.hpp"

namespace bismuth::vk_layer {
namespace {

std::string_view env(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::string_view(value) : std::string_view();
}

bool truthy(std::string_view value) { return value == "1" || value == "true" || value == "on" || value == "yes"; }

}  // namespace

Settings Settings::from_environment() {
  Settings settings;
  settings.disabled = truthy(env("BISMUTH_DISABLE"));
  const std::string_view force = env("BISMUTH_FORCE_EMULATION");
  settings.force_ballot = truthy(force) || force == "ballot";
  settings.force_vote = truthy(force) || force == "vote";
  const std::string_view level = env("BISMUTH_LOG_LEVEL");
  if (level == "off") settings.log_level = LogLevel::Off;
  else if (level == "error") settings.log_level = LogLevel::Error;
  else if (level == "info") settings.log_level = LogLevel::Info;
  else if (level == "debug") settings.log_level = LogLevel::Debug;
  settings.cache_dir = std::string(env("BISMUTH_CACHE_DIR"));
  settings.stats = truthy(env("BISMUTH_STATS"));
  if (auto prewarm = backend::PipelineCache::parse_prewarm_setting(env("BISMUTH_PREWARM"))) {
    settings.prewarm_sizes = *prewarm;
  }
  return settings;
}

}  // namespace bismuth::vk_layer
