// Bootstraps the Vulkan loader at run time through volk. No Bismuth library links libvulkan: a machine without
// a loader gets a clear error instead of a dynamic-linker failure.
#pragma once

#include "bismuth/common/expected.hpp"

namespace bismuth::backend {

// Loads libvulkan.so.1 and the global entry points once per process; later calls return the first result.
// Thread-safe.
Status load_vulkan();

}  // namespace bismuth::backend
