// Whether the calling thread is inside the Vulkan loader: EGL entry points a Vulkan driver calls back while it is
// being loaded must not call the loader again (vulkan_loader_reentry.cpp says why).
#pragma once

namespace bismuth::gl {

// True when a frame of the calling thread's stack lies in the Vulkan loader (libvulkan.so*).
bool called_from_vulkan_loader();

}  // namespace bismuth::gl
