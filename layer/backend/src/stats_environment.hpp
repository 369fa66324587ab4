// BISMUTH_STATS=1: the backend's objects print their statistics to stderr when they are destroyed (the pipeline
// cache, unless PipelineCacheOptions::print_stats_at_exit says otherwise, and each command stream). Read at each
// destruction: tests set it between objects.
#pragma once

#include <cstdlib>
#include <cstring>

namespace bismuth::backend {

inline bool stats_requested_by_environment() {
  const char* value = std::getenv("BISMUTH_STATS");
  return value != nullptr && std::strcmp(value, "1") == 0;
}

}  // namespace bismuth::backend
