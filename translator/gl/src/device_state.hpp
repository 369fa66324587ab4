// The Vulkan devices under GL contexts (device_state.cpp): the instances Bismuth creates, one DeviceState per
// physical device shared by every display and context that names it, and the GL caps of a device.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "bismuth/backend/device_info.hpp"
#include "bismuth/backend/device_selection.hpp"
#include "bismuth/backend/instance.hpp"
#include "gl_internal.hpp"

namespace bismuth::gl {

// One Bismuth-created instance per validation setting, and one DeviceState per physical device on it, shared by
// every display and context that names the same device. Lock order: Driver::mutex, then the EGL displays' mutex
// (egl.cpp), then the contexts' mutex (context.cpp).
struct Driver {
  std::mutex mutex;
  std::shared_ptr<backend::Instance> instance[2];
  std::vector<backend::DeviceInfo> devices[2];
  std::map<std::pair<int, uint32_t>, std::weak_ptr<DeviceState>> states;
};
Driver& driver();

// The instance of this validation setting (created on first use) and its devices. Call with driver().mutex held.
Expected<std::shared_ptr<backend::Instance>> driver_instance(bool validation,
                                                             std::vector<backend::DeviceInfo>** devices);

// state.caps from the device and the features enabled on it (int64, float64, float atomics).
void fill_caps(DeviceState& state, bool int64, bool float64, bool float_atomic);

// Appends to c.extensions the device-gated shader extensions c.compile_target.extensions allows
// (GL_ARB_shader_clock, GL_NV_shader_atomic_float, ...) and GL_KHR_shader_subgroup, and fills its state
// (extension_caps.cpp). Needs c.compile_target and c.subgroup_size.
void add_device_extension_caps(Caps& c, const backend::Device& device);

// The DeviceState of the selected device on the instance of this validation setting: the existing one while any
// display or context holds it, else a new one.
Expected<std::shared_ptr<DeviceState>> device_state_for(bool validation, const backend::DeviceSelector& selector);

// BISMUTH_VALIDATION is set and not 0: Bismuth-created instances enable the validation layer.
bool validation_requested();

}  // namespace bismuth::gl
