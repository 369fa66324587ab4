// Vendor-neutral dispatch of the EGL device functions libEGL does not dispatch itself (libeglabi.h,
// getDispatchAddress / setDispatchIndex): libEGL hands the first vendor's dispatch function to the application for
// every vendor's devices, so each one finds the device's vendor and calls that vendor's function.
#pragma once

#include "bismuth_entry_points.hpp"

namespace bismuth::glvnd {

// The dispatch function for `name`, or nullptr when it is not a device function Bismuth supports.
Proc device_dispatch_function(const char* name);

// libEGL's index for `name` in its per-vendor dispatch tables (fetchDispatchEntry).
void set_device_dispatch_index(const char* name, int index);

}  // namespace bismuth::glvnd
