/* A Vulkan driver stand-in that behaves like NVIDIA's (libGLX_nvidia.so.0, 580.x) while the loader loads it: from
 * inside vk_icdNegotiateLoaderICDInterfaceVersion it queries the EGL devices through the process's libEGL (glvnd),
 * which routes the query to every EGL vendor, Bismuth's included. It then declines to be a driver, so the loader goes
 * on with the real ones. With it next to lavapipe, the glvnd tests reproduce the deadlocks first seen on the H200:
 * the vendor enumerating Vulkan devices from inside the loader (tests/glvnd/CMakeLists.txt). */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>

#include <vulkan/vulkan.h>

__attribute__((visibility("default"))) VkResult vk_icdNegotiateLoaderICDInterfaceVersion(uint32_t* version) {
  (void)version;
  void* egl = dlopen("libEGL.so.1", RTLD_NOW | RTLD_GLOBAL);
  if (egl != NULL) {
    PFNEGLGETPROCADDRESSPROC get_proc = (PFNEGLGETPROCADDRESSPROC)dlsym(egl, "eglGetProcAddress");
    PFNEGLQUERYDEVICESEXTPROC query =
        get_proc ? (PFNEGLQUERYDEVICESEXTPROC)get_proc("eglQueryDevicesEXT") : NULL;
    EGLint count = 0;
    if (query != NULL) query(0, NULL, &count);
  }
  return VK_ERROR_INCOMPATIBLE_DRIVER;
}

__attribute__((visibility("default"))) PFN_vkVoidFunction vk_icdGetInstanceProcAddr(VkInstance instance,
                                                                                   const char* name) {
  (void)instance;
  (void)name;
  return NULL;
}
