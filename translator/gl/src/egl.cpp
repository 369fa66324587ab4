// EGL 1.5, the headless subset: devices (EGL_EXT_device_enumeration), surfaceless displays, one config, contexts
// without surfaces (EGL_KHR_surfaceless_context) of the OpenGL and OpenGL ES APIs, make-current and the EGL
// queries. eglGetProcAddress is proc_address.cpp.
#define EGL_EGLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <xxhash.h>

#include "build_identity.hpp"
#include "context.hpp"
#include "context_version.hpp"
#include "device_state.hpp"
#include "vulkan_loader_reentry.hpp"

using namespace bismuth;
using namespace bismuth::gl;

namespace {

thread_local EGLint t_egl_error = EGL_SUCCESS;
// EGL 1.5 §3.7: "The initial value of the current rendering API is EGL_OPENGL_ES_API, unless OpenGL ES is not
// supported by an implementation"; Bismuth supports it (OpenGL ES 3.1 / 3.2).
thread_local EGLenum t_egl_api = EGL_OPENGL_ES_API;

struct EglDevice {
  uint32_t index;
  std::string name;  // the Vulkan device's deviceName (EGL_EXT_device_query_name's EGL_RENDERER_EXT)
  // EGL_EXT_device_persistent_id (offered when the Vulkan device reports VkPhysicalDeviceIDProperties): the device
  // UUID is Vulkan's, so a program can find the VkPhysicalDevice (or another vendor's EGL device) on the same GPU.
  bool has_persistent_id = false;
  std::array<uint8_t, 16> device_uuid{};
  std::array<uint8_t, 16> driver_uuid{};
  std::string driver_name;
};

// EGL_EXT_device_persistent_id: "EGL_DRIVER_UUID_EXT is a UUID that identifies a driver build in use for a device
// ... not persistent across driver versions". Bismuth's driver is its own build on top of a Vulkan driver build, so
// the UUID hashes both (a new build of either gives a new UUID). "A (EGL_DRIVER_NAME_EXT, EGL_DEVICE_UUID_EXT) pair
// provides a unique, persistent identifier": the name carries the Vulkan driver's name too, so one GPU driven by
// two Vulkan drivers gives two distinct pairs.
EglDevice make_egl_device(const backend::DeviceInfo& info) {
  EglDevice device{info.index, info.name};
  device.has_persistent_id = info.has_id_properties;
  device.device_uuid = info.device_uuid;
  std::string build = build_identity();
  build.append(reinterpret_cast<const char*>(info.driver_uuid.data()), info.driver_uuid.size());
  const XXH128_hash_t hash = XXH3_128bits(build.data(), build.size());
  XXH128_canonical_t canonical;
  XXH128_canonicalFromHash(&canonical, hash);
  std::copy(std::begin(canonical.digest), std::end(canonical.digest), device.driver_uuid.begin());
  device.driver_name = info.driver_name.empty() ? "bismuth" : "bismuth/" + info.driver_name;
  return device;
}

// Displays live until the process ends (EGLDisplay handles stay valid after eglTerminate). Their mutable members
// are guarded by g_egl_mutex: threads create, destroy and make current contexts of one display concurrently.
struct EglDisplay {
  EGLenum platform = 0;
  int device_index = -1;  // -1: BISMUTH_DEVICE / default selection
  bool initialized = false;
  std::shared_ptr<DeviceState> state;
  std::vector<Context*> contexts;
  bool has_context(const Context* ctx) const {
    return std::find(contexts.begin(), contexts.end(), ctx) != contexts.end();
  }
};

struct EglConfig {
  EGLint id = 1;
};
// The client APIs the config renders with (EGL_RENDERABLE_TYPE, EGL_CONFORMANT): OpenGL, and OpenGL ES 2 and 3
// (ES 2.0 and 3.0 requests get an ES 3.1 context, which is backwards compatible with them).
constexpr EGLint kRenderableApis = EGL_OPENGL_BIT | EGL_OPENGL_ES2_BIT | EGL_OPENGL_ES3_BIT;
EglConfig g_config;

std::mutex g_egl_mutex;
std::vector<std::unique_ptr<EglDisplay>>& displays() {
  static auto* list = new std::vector<std::unique_ptr<EglDisplay>>;
  return *list;
}
std::vector<std::unique_ptr<EglDevice>>& egl_devices() {
  static auto* list = new std::vector<std::unique_ptr<EglDevice>>;
  return *list;
}

template <class T>
T egl_fail(EGLint error, T value) {
  t_egl_error = error;
  return value;
}
EGLBoolean egl_ok() {
  t_egl_error = EGL_SUCCESS;
  return EGL_TRUE;
}

EglDisplay* find_display(EGLDisplay dpy) {
  std::lock_guard lock(g_egl_mutex);
  for (auto& d : displays()) {
    if (d.get() == dpy) return d.get();
  }
  return nullptr;
}

// A display that exists and is initialized; sets the EGL error otherwise.
EglDisplay* ready_display(EGLDisplay dpy) {
  EglDisplay* d = find_display(dpy);
  if (d == nullptr) return egl_fail(EGL_BAD_DISPLAY, static_cast<EglDisplay*>(nullptr));
  std::lock_guard lock(g_egl_mutex);
  if (!d->initialized) return egl_fail(EGL_NOT_INITIALIZED, static_cast<EglDisplay*>(nullptr));
  return d;
}

bool display_has_context(EglDisplay* d, const Context* ctx) {
  std::lock_guard lock(g_egl_mutex);
  return d->has_context(ctx);
}

EGLDisplay get_display(EGLenum platform, int device_index) {
  std::lock_guard lock(g_egl_mutex);
  for (auto& d : displays()) {
    if (d->platform == platform && d->device_index == device_index) return d.get();
  }
  auto d = std::make_unique<EglDisplay>();
  d->platform = platform;
  d->device_index = device_index;
  displays().push_back(std::move(d));
  return displays().back().get();
}

// Creating Bismuth's first Vulkan instance of a process from an EGL device query through glvnd. glvnd asks each
// vendor for its devices once, inside a pthread_once; NVIDIA's Vulkan driver queries EGL devices while the loader
// loads it (vulkan_loader_reentry.cpp), and that nested query waits for the same pthread_once: creating the instance
// on the querying thread never returns. So the first instance is created on a helper thread. A helper still busy
// after kFirstInstanceWait is taken to be waiting for this very query: the query answers with no devices (glvnd
// then lists none of Bismuth's for the rest of the process) instead of hanging, and the helper finishes once the
// query has returned. Helpers are joined at exit (FirstInstanceHelpers' destructor); they only ever wait for that.
constexpr auto kFirstInstanceWait = std::chrono::seconds(5);

struct FirstInstanceHelpers {
  std::mutex mutex;
  std::vector<std::thread> threads;
  ~FirstInstanceHelpers() {
    std::lock_guard lock(mutex);
    for (std::thread& t : threads) {
      if (t.joinable()) t.join();
    }
  }
};

FirstInstanceHelpers& first_instance_helpers() {
  static FirstInstanceHelpers helpers;
  return helpers;
}

bool instance_exists(bool validation) {
  std::lock_guard lock(driver().mutex);
  return driver().instance[validation ? 1 : 0] != nullptr;
}

bool create_first_instance_on_helper(bool validation) {
  auto done = std::make_shared<std::promise<bool>>();
  std::future<bool> result = done->get_future();
  std::thread helper([validation, done] {
    std::lock_guard lock(driver().mutex);
    std::vector<backend::DeviceInfo>* devices = nullptr;
    done->set_value(driver_instance(validation, &devices).has_value());
  });
  if (result.wait_for(kFirstInstanceWait) == std::future_status::ready) {
    helper.join();
    return result.get();
  }
  std::fprintf(stderr,
               "bismuth-gl: eglQueryDevicesEXT: Vulkan instance creation is waiting for this EGL device query "
               "(a Vulkan driver queries EGL devices while it loads); answering with no devices\n");
  std::lock_guard lock(first_instance_helpers().mutex);
  first_instance_helpers().threads.push_back(std::move(helper));
  return false;
}

bool egl_devices_ready() {
  const bool validation = validation_requested();
  if (!instance_exists(validation) && !create_first_instance_on_helper(validation)) return false;
  std::lock_guard lock(driver().mutex);
  std::vector<backend::DeviceInfo>* devices = nullptr;
  auto instance = driver_instance(validation, &devices);
  if (!instance) return false;
  std::lock_guard egl_lock(g_egl_mutex);
  while (egl_devices().size() < devices->size()) {
    const auto index = static_cast<uint32_t>(egl_devices().size());
    egl_devices().push_back(std::make_unique<EglDevice>(make_egl_device((*devices)[index])));
  }
  return true;
}

// What eglCreateContext's attributes ask for.
struct ContextRequest {
  ContextVersion version;
  EGLint profile = EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT;
  bool debug = false;
};

// Reads eglCreateContext's attributes for `api` into `out`; EGL_SUCCESS or the error to report.
EGLint parse_context_attributes(EGLenum api, const EGLint* attrib_list, ContextRequest& out) {
  const bool es = api == EGL_OPENGL_ES_API;
  // EGL 1.5 §3.7.1.1: the default version is 1.0 for both APIs (an ES 1.x request, which Bismuth has no context
  // for).
  EGLint major = 1, minor = 0;
  for (const EGLint* a = attrib_list; a != nullptr && a[0] != EGL_NONE; a += 2) {
    switch (a[0]) {
      case EGL_CONTEXT_MAJOR_VERSION: major = a[1]; break;  // == EGL_CONTEXT_CLIENT_VERSION
      case EGL_CONTEXT_MINOR_VERSION: minor = a[1]; break;
      case EGL_CONTEXT_OPENGL_DEBUG: out.debug = a[1] == EGL_TRUE; break;
      case EGL_CONTEXT_OPENGL_ROBUST_ACCESS:
      case EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY: break;
      // EGL_KHR_create_context: the profile mask, forward compatibility and the context flags "are only meaningful
      // for OpenGL contexts, and specifying [them] for other types of contexts, including OpenGL ES contexts, will
      // generate an error" (EGL 1.5 §3.7.1: EGL_BAD_ATTRIBUTE for an attribute not meaningful for the API).
      case EGL_CONTEXT_OPENGL_PROFILE_MASK:
        if (es) return EGL_BAD_ATTRIBUTE;
        out.profile = a[1];
        break;
      case EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE:
        if (es) return EGL_BAD_ATTRIBUTE;
        break;
      case EGL_CONTEXT_FLAGS_KHR:
        if (es && a[1] != 0) return EGL_BAD_ATTRIBUTE;
        out.debug = out.debug || (a[1] & EGL_CONTEXT_OPENGL_DEBUG_BIT_KHR);
        break;
      default: return EGL_BAD_ATTRIBUTE;
    }
  }
  if (es) {
    const auto version = es_context_version(major, minor);
    if (!version) return EGL_BAD_MATCH;
    out.version = *version;
    return EGL_SUCCESS;
  }
  // GL 4.6 is a valid answer to any request up to 4.6 (EGL_KHR_create_context: "at least the version asked").
  if (major > 4 || (major == 4 && minor > 6) || major < 1) return EGL_BAD_MATCH;
  if (out.profile != EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT &&
      out.profile != EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT) {
    return EGL_BAD_MATCH;
  }
  return EGL_SUCCESS;
}

const char* kClientExtensions =
    "EGL_EXT_client_extensions EGL_EXT_platform_base EGL_EXT_device_base EGL_EXT_device_enumeration "
    "EGL_EXT_device_query EGL_EXT_platform_device EGL_MESA_platform_surfaceless";
const char* kDisplayExtensions =
    "EGL_KHR_create_context EGL_KHR_surfaceless_context EGL_KHR_no_config_context EGL_EXT_create_context_robustness";

}  // namespace

extern "C" {

EGLint EGLAPIENTRY eglGetError(void) {
  const EGLint e = t_egl_error;
  t_egl_error = EGL_SUCCESS;
  return e;
}

EGLDisplay EGLAPIENTRY eglGetDisplay(EGLNativeDisplayType display_id) {
  if (display_id != EGL_DEFAULT_DISPLAY) return egl_fail(EGL_BAD_PARAMETER, EGL_NO_DISPLAY);
  t_egl_error = EGL_SUCCESS;
  return get_display(EGL_PLATFORM_SURFACELESS_MESA, -1);
}

EGLDisplay EGLAPIENTRY eglGetPlatformDisplayEXT(EGLenum platform, void* native_display, const EGLint* attrib_list) {
  if (attrib_list != nullptr && attrib_list[0] != EGL_NONE) return egl_fail(EGL_BAD_ATTRIBUTE, EGL_NO_DISPLAY);
  if (platform == EGL_PLATFORM_SURFACELESS_MESA) {
    if (native_display != nullptr) return egl_fail(EGL_BAD_PARAMETER, EGL_NO_DISPLAY);
    t_egl_error = EGL_SUCCESS;
    return get_display(platform, -1);
  }
  if (platform == EGL_PLATFORM_DEVICE_EXT) {
    if (!egl_devices_ready()) return egl_fail(EGL_BAD_PARAMETER, EGL_NO_DISPLAY);
    std::lock_guard lock(g_egl_mutex);
    for (auto& dev : egl_devices()) {
      if (dev.get() == native_display) {
        const int index = static_cast<int>(dev->index);
        t_egl_error = EGL_SUCCESS;
        for (auto& d : displays()) {
          if (d->platform == platform && d->device_index == index) return d.get();
        }
        auto d = std::make_unique<EglDisplay>();
        d->platform = platform;
        d->device_index = index;
        displays().push_back(std::move(d));
        return displays().back().get();
      }
    }
    return egl_fail(EGL_BAD_PARAMETER, EGL_NO_DISPLAY);
  }
  return egl_fail(EGL_BAD_PARAMETER, EGL_NO_DISPLAY);
}

EGLDisplay EGLAPIENTRY eglGetPlatformDisplay(EGLenum platform, void* native_display, const EGLAttrib* attrib_list) {
  if (attrib_list != nullptr && attrib_list[0] != EGL_NONE) return egl_fail(EGL_BAD_ATTRIBUTE, EGL_NO_DISPLAY);
  return eglGetPlatformDisplayEXT(platform, native_display, nullptr);
}

EGLBoolean EGLAPIENTRY eglQueryDevicesEXT(EGLint max_devices, EGLDeviceEXT* devices, EGLint* num_devices) {
  if (num_devices == nullptr || (devices != nullptr && max_devices <= 0)) return egl_fail(EGL_BAD_PARAMETER, EGL_FALSE);
  // A Vulkan driver asking while the loader loads it (NVIDIA's does, through glvnd) gets the devices Bismuth already
  // knows: enumerating now would deadlock (vulkan_loader_reentry.cpp).
  if (called_from_vulkan_loader()) {
    std::lock_guard lock(g_egl_mutex);
    const EGLint total = static_cast<EGLint>(egl_devices().size());
    *num_devices = devices == nullptr ? total : std::min(total, max_devices);
    for (EGLint i = 0; devices != nullptr && i < *num_devices; ++i) {
      devices[i] = egl_devices()[static_cast<size_t>(i)].get();
    }
    return egl_ok();
  }
  if (!egl_devices_ready()) {
    *num_devices = 0;
    return egl_ok();
  }
  std::lock_guard lock(g_egl_mutex);
  const EGLint total = static_cast<EGLint>(egl_devices().size());
  if (devices == nullptr) {
    *num_devices = total;
  } else {
    *num_devices = std::min(total, max_devices);
    for (EGLint i = 0; i < *num_devices; ++i) devices[i] = egl_devices()[static_cast<size_t>(i)].get();
  }
  return egl_ok();
}

namespace {
EglDevice* find_egl_device(EGLDeviceEXT device) {
  std::lock_guard lock(g_egl_mutex);
  for (auto& d : egl_devices()) {
    if (d.get() == device) return d.get();
  }
  return nullptr;
}
}  // namespace

const char* EGLAPIENTRY eglQueryDeviceStringEXT(EGLDeviceEXT device, EGLint name) {
  EglDevice* dev = find_egl_device(device);
  if (dev == nullptr) return egl_fail(EGL_BAD_DEVICE_EXT, static_cast<const char*>(nullptr));
  t_egl_error = EGL_SUCCESS;
  switch (name) {
    case EGL_EXTENSIONS:
      return dev->has_persistent_id ? "EGL_EXT_device_query_name EGL_EXT_device_persistent_id"
                                    : "EGL_EXT_device_query_name";
    // EGL_EXT_device_query_name: EGL_RENDERER_EXT names the device, EGL_VENDOR the implementation that drives it
    // (next to a Vulkan driver's own EGL vendor on the same GPU, "Bismuth" is what tells them apart).
    case EGL_RENDERER_EXT: return dev->name.c_str();
    case EGL_VENDOR: return "Bismuth";
    // EGL_EXT_device_persistent_id: "EGL_DRIVER_NAME_EXT returns a string which identifies the driver that controls
    // the device. This string remains persistent across multiple versions of a driver".
    case EGL_DRIVER_NAME_EXT:
      if (dev->has_persistent_id) return dev->driver_name.c_str();
      return egl_fail(EGL_BAD_PARAMETER, static_cast<const char*>(nullptr));
    default: return egl_fail(EGL_BAD_PARAMETER, static_cast<const char*>(nullptr));
  }
}

EGLBoolean EGLAPIENTRY eglQueryDeviceAttribEXT(EGLDeviceEXT device, EGLint attribute, EGLAttrib* value) {
  // EGL_EXT_device_query: "On failure, EGL_FALSE is returned. An EGL_BAD_ATTRIBUTE error is generated if
  // <attribute> is not a valid attribute. An EGL_BAD_DEVICE_EXT error is generated if <device> is not a valid
  // EGLDeviceEXT." No device extension Bismuth offers defines an attribute (EGL_CUDA_DEVICE_NV, EGL_DRM_* are
  // other drivers'), so every attribute of a valid device is EGL_BAD_ATTRIBUTE.
  static_cast<void>(attribute);
  static_cast<void>(value);
  if (find_egl_device(device) == nullptr) return egl_fail(EGL_BAD_DEVICE_EXT, EGL_FALSE);
  return egl_fail(EGL_BAD_ATTRIBUTE, EGL_FALSE);
}

EGLBoolean EGLAPIENTRY eglQueryDeviceBinaryEXT(EGLDeviceEXT device, EGLint name, EGLint max_size, void* value,
                                               EGLint* size) {
  EglDevice* dev = find_egl_device(device);
  // EGL_EXT_device_persistent_id: "An EGL_BAD_ATTRIBUTE error is generated if <name> is not a valid attribute. An
  // EGL_BAD_DEVICE_EXT error is generated if <device> is not a valid EGLDeviceEXT."
  if (dev == nullptr) return egl_fail(EGL_BAD_DEVICE_EXT, EGL_FALSE);
  const std::array<uint8_t, 16>* uuid = nullptr;
  if (dev->has_persistent_id && name == EGL_DEVICE_UUID_EXT) uuid = &dev->device_uuid;
  if (dev->has_persistent_id && name == EGL_DRIVER_UUID_EXT) uuid = &dev->driver_uuid;
  if (uuid == nullptr) return egl_fail(EGL_BAD_ATTRIBUTE, EGL_FALSE);
  // Not an error the extension names, but writing through a null <size> would crash the caller.
  if (size == nullptr) return egl_fail(EGL_BAD_PARAMETER, EGL_FALSE);
  // "If <value> is NULL, then <max_size> is ignored, and the size of the attribute in bytes is returned in <size>.
  // ... If <value> is not NULL, then the attribute value is returned in <value>. At most <max_size> bytes are
  // written. <size> returns the number of bytes that were actually written."
  const auto full = static_cast<EGLint>(uuid->size());
  if (value == nullptr) {
    *size = full;
  } else {
    const EGLint written = std::clamp<EGLint>(max_size, 0, full);
    std::memcpy(value, uuid->data(), static_cast<size_t>(written));
    *size = written;
  }
  return egl_ok();
}

EGLBoolean EGLAPIENTRY eglInitialize(EGLDisplay dpy, EGLint* major, EGLint* minor) {
  EglCall call;
  EglDisplay* d = find_display(dpy);
  if (d == nullptr) return egl_fail(EGL_BAD_DISPLAY, EGL_FALSE);
  bool initialized;
  {
    std::lock_guard lock(g_egl_mutex);
    initialized = d->initialized;
  }
  if (!initialized) {
    try {
      backend::DeviceSelector selector = backend::DeviceSelector::from_environment();
      if (d->device_index >= 0) {
        selector.kind = backend::DeviceSelector::Kind::Index;
        selector.index = static_cast<uint32_t>(d->device_index);
      }
      auto state = device_state_for(validation_requested(), selector);
      if (!state) {
        std::fprintf(stderr, "bismuth-gl: eglInitialize: %s\n", state.error().message.c_str());
        return egl_fail(EGL_NOT_INITIALIZED, EGL_FALSE);
      }
      std::lock_guard lock(g_egl_mutex);
      if (!d->initialized) {  // another thread may have initialized it meanwhile (with the same device state)
        d->state = *state;
        d->initialized = true;
      }
    } catch (...) {
      return egl_fail(EGL_BAD_ALLOC, EGL_FALSE);
    }
  }
  if (major) *major = 1;
  if (minor) *minor = 5;
  return egl_ok();
}

EGLBoolean EGLAPIENTRY eglTerminate(EGLDisplay dpy) {
  EglCall call;
  EglDisplay* d = find_display(dpy);
  if (d == nullptr) return egl_fail(EGL_BAD_DISPLAY, EGL_FALSE);
  std::vector<Context*> contexts;
  std::shared_ptr<DeviceState> state;  // released outside the lock: the last reference destroys the device
  {
    std::lock_guard lock(g_egl_mutex);
    contexts.swap(d->contexts);
    state.swap(d->state);
    d->initialized = false;
  }
  // Contexts are destroyed now, or when released where they are current (EGL 1.5 §3.2).
  for (Context* ctx : contexts) destroy_context(ctx);
  return egl_ok();
}

EGLBoolean EGLAPIENTRY eglQueryDisplayAttribEXT(EGLDisplay dpy, EGLint attribute, EGLAttrib* value) {
  EglCall call;
  // EGL_EXT_device_query: "An EGL_NOT_INITIALIZED error is generated if EGL is not initialized for <dpy>. An
  // EGL_BAD_ATTRIBUTE error is generated if <attribute> is not a valid value."
  EglDisplay* d = ready_display(dpy);
  if (d == nullptr) return EGL_FALSE;
  if (attribute != EGL_DEVICE_EXT) return egl_fail(EGL_BAD_ATTRIBUTE, EGL_FALSE);
  if (value == nullptr) return egl_fail(EGL_BAD_PARAMETER, EGL_FALSE);
  // "If <attribute> is EGL_DEVICE_EXT, the EGL device associated with <dpy> is returned in <value>. All displays
  // have an associated EGL device, regardless of how they were created. A successful query of EGL_DEVICE_EXT will
  // never return EGL_NO_DEVICE_EXT." Default and surfaceless displays answer with the device BISMUTH_DEVICE chose.
  uint32_t index = 0;
  {
    std::lock_guard lock(g_egl_mutex);
    if (!d->state || !d->state->device) return egl_fail(EGL_NOT_INITIALIZED, EGL_FALSE);
    index = d->state->device->info().index;
  }
  if (!egl_devices_ready()) return egl_fail(EGL_BAD_ALLOC, EGL_FALSE);
  std::lock_guard lock(g_egl_mutex);
  for (auto& device : egl_devices()) {
    if (device->index == index) {
      *value = reinterpret_cast<EGLAttrib>(device.get());
      return egl_ok();
    }
  }
  return egl_fail(EGL_BAD_ALLOC, EGL_FALSE);
}

const char* EGLAPIENTRY eglQueryString(EGLDisplay dpy, EGLint name) {
  if (dpy == EGL_NO_DISPLAY) {
    if (name == EGL_EXTENSIONS) {
      t_egl_error = EGL_SUCCESS;
      return kClientExtensions;
    }
    if (name == EGL_VERSION) {
      t_egl_error = EGL_SUCCESS;
      return "1.5 Bismuth";
    }
    return egl_fail(EGL_BAD_DISPLAY, static_cast<const char*>(nullptr));
  }
  if (ready_display(dpy) == nullptr) return nullptr;
  t_egl_error = EGL_SUCCESS;
  switch (name) {
    case EGL_VENDOR: return "Bismuth";
    case EGL_VERSION: return "1.5 Bismuth";
    case EGL_CLIENT_APIS: return "OpenGL OpenGL_ES";
    case EGL_EXTENSIONS: return kDisplayExtensions;
    default: return egl_fail(EGL_BAD_PARAMETER, static_cast<const char*>(nullptr));
  }
}

EGLBoolean EGLAPIENTRY eglBindAPI(EGLenum api) {
  if (api != EGL_OPENGL_API && api != EGL_OPENGL_ES_API) return egl_fail(EGL_BAD_PARAMETER, EGL_FALSE);
  t_egl_api = api;
  return egl_ok();
}

EGLenum EGLAPIENTRY eglQueryAPI(void) {
  return t_egl_api;
}

EGLBoolean EGLAPIENTRY eglGetConfigs(EGLDisplay dpy, EGLConfig* configs, EGLint config_size, EGLint* num_config) {
  if (ready_display(dpy) == nullptr) return EGL_FALSE;
  if (num_config == nullptr) return egl_fail(EGL_BAD_PARAMETER, EGL_FALSE);
  *num_config = (configs == nullptr || config_size > 0) ? 1 : 0;
  if (configs != nullptr && config_size > 0) configs[0] = &g_config;
  return egl_ok();
}

// One config: OpenGL and OpenGL ES renderable, no surfaces (compute only). Attributes asking for something else match
// nothing.
EGLBoolean EGLAPIENTRY eglChooseConfig(EGLDisplay dpy, const EGLint* attrib_list, EGLConfig* configs,
                                       EGLint config_size, EGLint* num_config) {
  if (ready_display(dpy) == nullptr) return EGL_FALSE;
  if (num_config == nullptr) return egl_fail(EGL_BAD_PARAMETER, EGL_FALSE);
  bool match = true;
  for (const EGLint* a = attrib_list; a != nullptr && a[0] != EGL_NONE; a += 2) {
    const EGLint value = a[1];
    switch (a[0]) {
      case EGL_RENDERABLE_TYPE:
      case EGL_CONFORMANT:
        if (value != EGL_DONT_CARE && (value & ~kRenderableApis) != 0) match = false;
        break;
      case EGL_CONFIG_ID:
        if (value != EGL_DONT_CARE && value != g_config.id) match = false;
        break;
      case EGL_SURFACE_TYPE:
      case EGL_RED_SIZE:
      case EGL_GREEN_SIZE:
      case EGL_BLUE_SIZE:
      case EGL_ALPHA_SIZE:
      case EGL_DEPTH_SIZE:
      case EGL_STENCIL_SIZE:
      case EGL_BUFFER_SIZE:
      case EGL_SAMPLES:
      case EGL_SAMPLE_BUFFERS:
      case EGL_CONFIG_CAVEAT:
      case EGL_COLOR_BUFFER_TYPE:
      case EGL_LEVEL:
      case EGL_TRANSPARENT_TYPE:
      case EGL_NATIVE_RENDERABLE:
      case EGL_MIN_SWAP_INTERVAL:
      case EGL_MAX_SWAP_INTERVAL:
      case EGL_LUMINANCE_SIZE:
      case EGL_ALPHA_MASK_SIZE:
        // Headless programs often ask for a pbuffer RGBA8 config they never use; a compute context has no
        // framebuffer, so these are accepted and ignored.
        break;
      default: return egl_fail(EGL_BAD_ATTRIBUTE, EGL_FALSE);
    }
  }
  *num_config = match ? 1 : 0;
  if (match && configs != nullptr && config_size > 0) configs[0] = &g_config;
  if (configs != nullptr && config_size <= 0) *num_config = 0;
  return egl_ok();
}

EGLBoolean EGLAPIENTRY eglGetConfigAttrib(EGLDisplay dpy, EGLConfig config, EGLint attribute, EGLint* value) {
  if (ready_display(dpy) == nullptr) return EGL_FALSE;
  if (config != &g_config) return egl_fail(EGL_BAD_CONFIG, EGL_FALSE);
  if (value == nullptr) return egl_fail(EGL_BAD_PARAMETER, EGL_FALSE);
  switch (attribute) {
    case EGL_CONFIG_ID: *value = g_config.id; break;
    case EGL_RENDERABLE_TYPE:
    case EGL_CONFORMANT: *value = kRenderableApis; break;
    case EGL_SURFACE_TYPE: *value = 0; break;
    case EGL_CONFIG_CAVEAT: *value = EGL_NONE; break;
    default: *value = 0; break;
  }
  return egl_ok();
}

EGLContext EGLAPIENTRY eglCreateContext(EGLDisplay dpy, EGLConfig config, EGLContext share_context,
                                        const EGLint* attrib_list) {
  EglCall call;
  EglDisplay* d = ready_display(dpy);
  if (d == nullptr) return EGL_NO_CONTEXT;
  const EGLenum api = t_egl_api;
  if (api != EGL_OPENGL_API && api != EGL_OPENGL_ES_API) return egl_fail(EGL_BAD_MATCH, EGL_NO_CONTEXT);
  if (config != EGL_NO_CONFIG_KHR && config != &g_config) return egl_fail(EGL_BAD_CONFIG, EGL_NO_CONTEXT);
  ContextRequest request;
  if (const EGLint error = parse_context_attributes(api, attrib_list, request); error != EGL_SUCCESS) {
    return egl_fail(error, EGL_NO_CONTEXT);
  }
  Context* share = nullptr;
  std::shared_ptr<DeviceState> state;
  {
    std::lock_guard lock(g_egl_mutex);
    state = d->state;
    if (share_context != EGL_NO_CONTEXT) {
      share = static_cast<Context*>(share_context);
      if (!d->has_context(share) || !is_live(share)) return egl_fail(EGL_BAD_CONTEXT, EGL_NO_CONTEXT);
      // EGL 1.5 §3.7.1: "If share_context is neither EGL_NO_CONTEXT nor a valid context of the same client API
      // type as the newly created context, then an EGL_BAD_CONTEXT error is generated."
      if (share->version.es != request.version.es) return egl_fail(EGL_BAD_CONTEXT, EGL_NO_CONTEXT);
    }
  }
  if (!state) return egl_fail(EGL_NOT_INITIALIZED, EGL_NO_CONTEXT);  // terminated meanwhile
  try {
    auto ctx =
        create_context(state, share, request.debug,
                       request.profile == EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT ? GL_CONTEXT_CORE_PROFILE_BIT
                                                                              : GL_CONTEXT_COMPATIBILITY_PROFILE_BIT,
                       request.version);
    if (!ctx) {
      std::fprintf(stderr, "bismuth-gl: eglCreateContext: %s\n", ctx.error().message.c_str());
      return egl_fail(EGL_BAD_ALLOC, EGL_NO_CONTEXT);
    }
    {
      std::lock_guard lock(g_egl_mutex);
      d->contexts.push_back(*ctx);
    }
    t_egl_error = EGL_SUCCESS;
    return *ctx;
  } catch (...) {
    return egl_fail(EGL_BAD_ALLOC, EGL_NO_CONTEXT);
  }
}

EGLBoolean EGLAPIENTRY eglDestroyContext(EGLDisplay dpy, EGLContext context) {
  EglCall call;
  EglDisplay* d = ready_display(dpy);
  if (d == nullptr) return EGL_FALSE;
  auto* ctx = static_cast<Context*>(context);
  {
    std::lock_guard lock(g_egl_mutex);
    auto it = std::find(d->contexts.begin(), d->contexts.end(), ctx);
    if (it == d->contexts.end()) return egl_fail(EGL_BAD_CONTEXT, EGL_FALSE);
    d->contexts.erase(it);
  }
  destroy_context(ctx);
  return egl_ok();
}

EGLBoolean EGLAPIENTRY eglMakeCurrent(EGLDisplay dpy, EGLSurface draw, EGLSurface read, EGLContext context) {
  EglCall call;
  if (context == EGL_NO_CONTEXT) {
    if (draw != EGL_NO_SURFACE || read != EGL_NO_SURFACE) return egl_fail(EGL_BAD_MATCH, EGL_FALSE);
    if (dpy != EGL_NO_DISPLAY && find_display(dpy) == nullptr) return egl_fail(EGL_BAD_DISPLAY, EGL_FALSE);
    make_current(nullptr);
    return egl_ok();
  }
  EglDisplay* d = ready_display(dpy);
  if (d == nullptr) return EGL_FALSE;
  // Only surfaceless contexts exist (EGL_KHR_surfaceless_context).
  if (draw != EGL_NO_SURFACE || read != EGL_NO_SURFACE) return egl_fail(EGL_BAD_SURFACE, EGL_FALSE);
  auto* ctx = static_cast<Context*>(context);
  // The display lists it and it is still live when it becomes current (acquire_current checks under the mutex
  // destroy_context takes), so it cannot be deleted under this thread.
  if (!display_has_context(d, ctx)) return egl_fail(EGL_BAD_CONTEXT, EGL_FALSE);
  if (ctx == current_context()) return egl_ok();
  switch (acquire_current(ctx)) {
    case Acquire::Ok: break;
    case Acquire::NotLive: return egl_fail(EGL_BAD_CONTEXT, EGL_FALSE);
    case Acquire::CurrentElsewhere: return egl_fail(EGL_BAD_ACCESS, EGL_FALSE);
  }
  switch_current(ctx);
  return egl_ok();
}

EGLContext EGLAPIENTRY eglGetCurrentContext(void) {
  Context* current = current_context();
  return current ? static_cast<EGLContext>(current) : EGL_NO_CONTEXT;
}

EGLDisplay EGLAPIENTRY eglGetCurrentDisplay(void) {
  Context* current = current_context();
  if (current == nullptr) return EGL_NO_DISPLAY;
  std::lock_guard lock(g_egl_mutex);
  for (auto& d : displays()) {
    if (d->has_context(current)) return d.get();
  }
  return EGL_NO_DISPLAY;
}

EGLSurface EGLAPIENTRY eglGetCurrentSurface(EGLint) {
  return EGL_NO_SURFACE;
}

EGLBoolean EGLAPIENTRY eglReleaseThread(void) {
  EglCall call;
  make_current(nullptr);
  t_egl_api = EGL_OPENGL_ES_API;  // EGL 1.5 §3.11: the thread's state goes back to its initial values
  return egl_ok();
}

EGLBoolean EGLAPIENTRY eglQueryContext(EGLDisplay dpy, EGLContext context, EGLint attribute, EGLint* value) {
  EglDisplay* d = ready_display(dpy);
  if (d == nullptr) return EGL_FALSE;
  auto* ctx = static_cast<Context*>(context);
  if (!display_has_context(d, ctx)) return egl_fail(EGL_BAD_CONTEXT, EGL_FALSE);
  if (value == nullptr) return egl_fail(EGL_BAD_PARAMETER, EGL_FALSE);
  switch (attribute) {
    case EGL_CONFIG_ID: *value = g_config.id; break;
    case EGL_CONTEXT_CLIENT_TYPE: *value = ctx->version.es ? EGL_OPENGL_ES_API : EGL_OPENGL_API; break;
    // EGL 1.5 §3.7.4: the major version of the context (an ES 3.x context answers 3).
    case EGL_CONTEXT_CLIENT_VERSION: *value = ctx->version.major; break;
    case EGL_RENDER_BUFFER: *value = EGL_NONE; break;
    default: return egl_fail(EGL_BAD_ATTRIBUTE, EGL_FALSE);
  }
  return egl_ok();
}

EGLBoolean EGLAPIENTRY eglSwapInterval(EGLDisplay dpy, EGLint) {
  return ready_display(dpy) ? egl_ok() : EGL_FALSE;
}

}  // extern "C"
