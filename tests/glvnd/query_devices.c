/* EGL devices through glvnd (docs/glvnd.md): a program linked against the system libEGL + libOpenGL, with Bismuth's
 * vendor JSON as the only vendor, enumerates Bismuth's EGL devices, names them, opens each, and reaches Bismuth's
 * GL through libGLdispatch. The expected devices are the Vulkan loader's physical devices, asked directly. */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>
#include <stdio.h>
#include <string.h>
#include <vulkan/vulkan.h>

#include "conformance.h"

#define MAX_DEVICES 16

/* The Vulkan physical devices, in enumeration order: what Bismuth's EGL devices stand for; their names and device
 * UUIDs (VkPhysicalDeviceIDProperties, what EGL_EXT_device_persistent_id's EGL_DEVICE_UUID_EXT matches). */
static uint8_t g_vk_uuids[MAX_DEVICES][VK_UUID_SIZE];
static uint32_t vulkan_device_names(char names[MAX_DEVICES][VK_MAX_PHYSICAL_DEVICE_NAME_SIZE]) {
  const VkApplicationInfo app = {
      VK_STRUCTURE_TYPE_APPLICATION_INFO, NULL, "query_devices", 1, NULL, 0, VK_API_VERSION_1_1};
  const VkInstanceCreateInfo info = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, NULL, 0, &app, 0, NULL, 0, NULL};
  VkInstance instance = VK_NULL_HANDLE;
  if (vkCreateInstance(&info, NULL, &instance) != VK_SUCCESS) return 0;
  VkPhysicalDevice devices[MAX_DEVICES];
  uint32_t count = MAX_DEVICES;
  if (vkEnumeratePhysicalDevices(instance, &count, devices) < 0) count = 0;
  for (uint32_t i = 0; i < count; ++i) {
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(devices[i], &properties);
    memcpy(names[i], properties.deviceName, VK_MAX_PHYSICAL_DEVICE_NAME_SIZE);
    VkPhysicalDeviceIDProperties ids = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES, NULL};
    VkPhysicalDeviceProperties2 properties2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &ids};
    vkGetPhysicalDeviceProperties2(devices[i], &properties2);
    memcpy(g_vk_uuids[i], ids.deviceUUID, VK_UUID_SIZE);
  }
  vkDestroyInstance(instance, NULL);
  return count;
}

static int has_token(const char* list, const char* token) {
  const size_t n = strlen(token);
  for (const char* p = list; p != NULL && (p = strstr(p, token)) != NULL; p += n) {
    if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return 1;
  }
  return 0;
}

static int g_validation_messages = 0;
static void APIENTRY on_debug_message(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                                      const GLchar* message, const void* user) {
  (void)source, (void)type, (void)severity, (void)length, (void)user;
  if (id == 0xB15B0001u) ++g_validation_messages; /* Bismuth's id of a Vulkan validation message (gl_shim.md) */
  fprintf(stderr, "GL debug: %s\n", message);
}

static PFNEGLQUERYDISPLAYATTRIBEXTPROC g_query_display_attrib;

/* Opens the device's display, makes a GL 4.3 context current and checks that GL calls reach Bismuth on `name`. */
static void check_device_display(EGLDeviceEXT device, const char* name) {
  EGLDisplay display = eglGetPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, device, NULL);
  CHECK(display != EGL_NO_DISPLAY, "EGL_EXT_platform_device: a display for each device (error 0x%x)", eglGetError());
  if (display == EGL_NO_DISPLAY) return;
  EGLAttrib attrib = 0;
  /* EGL_EXT_device_query: "An EGL_NOT_INITIALIZED error is generated if EGL is not initialized for <dpy>." Other
   * tests may have initialized it in this process: only a fresh process sees it uninitialized, which this is. */
  CHECK(!g_query_display_attrib(display, EGL_DEVICE_EXT, &attrib) && eglGetError() == EGL_NOT_INITIALIZED,
        "eglQueryDisplayAttribEXT before eglInitialize: EGL_NOT_INITIALIZED");
  CHECK(eglInitialize(display, NULL, NULL), "eglInitialize of the device's display");
  /* "If <attribute> is EGL_DEVICE_EXT, the EGL device associated with <dpy> is returned in <value>": the device the
   * display was made from. "An EGL_BAD_ATTRIBUTE error is generated if <attribute> is not a valid value." */
  CHECK(g_query_display_attrib(display, EGL_DEVICE_EXT, &attrib) && (EGLDeviceEXT)attrib == device,
        "eglQueryDisplayAttribEXT(EGL_DEVICE_EXT) is the display's device (error 0x%x)", eglGetError());
  CHECK(!g_query_display_attrib(display, EGL_VENDOR, &attrib) && eglGetError() == EGL_BAD_ATTRIBUTE,
        "eglQueryDisplayAttribEXT: EGL_BAD_ATTRIBUTE for another attribute");
  CHECK(eglBindAPI(EGL_OPENGL_API), "eglBindAPI(EGL_OPENGL_API)");
  const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 3, EGL_NONE};
  EGLContext context = eglCreateContext(display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attribs);
  CHECK(context != EGL_NO_CONTEXT, "eglCreateContext (error 0x%x)", eglGetError());
  if (context == EGL_NO_CONTEXT) return;
  CHECK(eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context), "eglMakeCurrent");
  CHECK(eglGetCurrentContext() == context, "EGL 1.5 §3.10: eglGetCurrentContext returns the current context");
  glEnable(GL_DEBUG_OUTPUT);
  glDebugMessageCallback(on_debug_message, NULL);
  const char* renderer = (const char*)glGetString(GL_RENDERER);
  printf("GL_RENDERER: %s\n", renderer ? renderer : "(null)");
  CHECK(renderer != NULL && strstr(renderer, "Bismuth") != NULL && strstr(renderer, name) != NULL,
        "the GL of a Bismuth device's display is Bismuth's on that device: GL_RENDERER \"%s\", device \"%s\"",
        renderer ? renderer : "(null)", name);
  CHECK_GL_ERROR(GL_NO_ERROR, "after glGetString through libGLdispatch");

  /* EGL 1.5 §3.5.2: "If config does not support pbuffers, an EGL_BAD_MATCH error is generated" — Bismuth's config
   * has EGL_SURFACE_TYPE 0 (the vendor's surface functions libglvnd requires of every vendor). */
  EGLConfig config;
  EGLint configs = 0;
  CHECK(eglGetConfigs(display, &config, 1, &configs) && configs == 1, "one config");
  EGLint surface_type = -1;
  CHECK(eglGetConfigAttrib(display, config, EGL_SURFACE_TYPE, &surface_type), "EGL_SURFACE_TYPE");
  if (configs == 1 && surface_type == 0) {
    CHECK(eglCreatePbufferSurface(display, config, NULL) == EGL_NO_SURFACE, "no pbuffer surface");
    CHECK(eglGetError() == EGL_BAD_MATCH, "EGL 1.5 §3.5.2: EGL_BAD_MATCH for a config without EGL_PBUFFER_BIT");
  }
  CHECK(eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT), "release");
  CHECK(eglDestroyContext(display, context), "eglDestroyContext");
  CHECK(eglTerminate(display), "eglTerminate");
}

int main(void) {
  const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  CHECK(client != NULL, "EGL_EXT_client_extensions: the client extension string");
  if (client == NULL) return conformance_result();
  const char* needed[] = {"EGL_EXT_device_enumeration", "EGL_EXT_device_query", "EGL_EXT_platform_device",
                          "EGL_MESA_platform_surfaceless"};
  for (size_t i = 0; i < sizeof needed / sizeof needed[0]; ++i) {
    CHECK(has_token(client, needed[i]), "client extension %s (Bismuth's vendor supports it): \"%s\"", needed[i],
          client);
  }
  PFNEGLQUERYDEVICESEXTPROC query_devices = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
  PFNEGLQUERYDEVICESTRINGEXTPROC query_string =
      (PFNEGLQUERYDEVICESTRINGEXTPROC)eglGetProcAddress("eglQueryDeviceStringEXT");
  PFNEGLQUERYDEVICEATTRIBEXTPROC query_attrib =
      (PFNEGLQUERYDEVICEATTRIBEXTPROC)eglGetProcAddress("eglQueryDeviceAttribEXT");
  PFNEGLQUERYDEVICEBINARYEXTPROC query_binary =
      (PFNEGLQUERYDEVICEBINARYEXTPROC)eglGetProcAddress("eglQueryDeviceBinaryEXT");
  g_query_display_attrib = (PFNEGLQUERYDISPLAYATTRIBEXTPROC)eglGetProcAddress("eglQueryDisplayAttribEXT");
  CHECK(query_devices != NULL && query_string != NULL && query_attrib != NULL && query_binary != NULL &&
            g_query_display_attrib != NULL,
        "EGL_EXT_device_enumeration / _query / _persistent_id entry points");
  if (query_devices == NULL || query_string == NULL || query_attrib == NULL || query_binary == NULL ||
      g_query_display_attrib == NULL) {
    return conformance_result();
  }

  char vk_names[MAX_DEVICES][VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
  const uint32_t vk_count = vulkan_device_names(vk_names);
  if (vk_count == 0) conformance_skip("no Vulkan device");

  /* EGL_EXT_device_enumeration: "If <devices> is NULL, then <max_devices> will be ignored, no devices will be
   * returned in <devices>, and <num_devices> will be set to the number of supported devices in the system." */
  EGLint count = -1;
  CHECK(query_devices(0, NULL, &count), "eglQueryDevicesEXT(0, NULL, &count)");
  EGLDeviceEXT all[MAX_DEVICES];
  EGLint all_listed = 0;
  CHECK(query_devices(MAX_DEVICES, all, &all_listed) && all_listed == count, "the devices themselves");
  /* glvnd lists every vendor's devices: next to NVIDIA's own EGL vendor (as on a machine with NVIDIA's driver, whose
   * Vulkan driver needs its EGL vendor loaded) its GPU is listed twice. Bismuth's devices are those whose EGL_VENDOR
   * (EGL_EXT_device_query_name) is "Bismuth", one per Vulkan physical device, in Vulkan's order. */
  EGLDeviceEXT devices[MAX_DEVICES];
  EGLint listed = 0;
  for (EGLint i = 0; i < all_listed; ++i) {
    const char* vendor = query_string(all[i], EGL_VENDOR);
    if (vendor != NULL && strcmp(vendor, "Bismuth") == 0) devices[listed++] = all[i];
  }
  (void)eglGetError(); /* another vendor's device may not define EGL_VENDOR */
  CHECK(listed == (EGLint)vk_count, "one Bismuth EGL device per Vulkan physical device: %d Bismuth (of %d EGL), %u Vulkan",
        listed, count, vk_count);
  if (listed > (EGLint)vk_count) listed = (EGLint)vk_count;

  for (EGLint i = 0; i < listed; ++i) {
    /* EGL_EXT_device_query: eglQueryDeviceStringEXT(EGL_EXTENSIONS) lists the device extensions;
     * EGL_EXT_device_query_name adds EGL_RENDERER_EXT (the device's name) and EGL_VENDOR. */
    const char* extensions = query_string(devices[i], EGL_EXTENSIONS);
    CHECK(extensions != NULL && has_token(extensions, "EGL_EXT_device_query_name"),
          "device %d: EGL_EXT_device_query_name in \"%s\"", i, extensions ? extensions : "(null)");
    const char* renderer = query_string(devices[i], EGL_RENDERER_EXT);
    const char* vendor = query_string(devices[i], EGL_VENDOR);
    printf("EGL device %d: EGL_RENDERER_EXT \"%s\", EGL_VENDOR \"%s\"\n", i, renderer ? renderer : "(null)",
           vendor ? vendor : "(null)");
    CHECK(renderer != NULL && strcmp(renderer, vk_names[i]) == 0,
          "device %d names Vulkan physical device %d: \"%s\" vs \"%s\"", i, i, renderer ? renderer : "(null)",
          vk_names[i]);
    CHECK(vendor != NULL && vendor[0] != '\0', "device %d: EGL_VENDOR", i);
    /* EGL_EXT_device_query: "If <name> is not a valid value, EGL_BAD_PARAMETER is generated" (and NULL returned). */
    CHECK(query_string(devices[i], EGL_CLIENT_APIS) == NULL && eglGetError() == EGL_BAD_PARAMETER,
          "device %d: EGL_BAD_PARAMETER for a name the device does not define", i);
    /* EGL_EXT_device_query: "An EGL_BAD_ATTRIBUTE error is generated if <attribute> is not a valid attribute" —
     * Bismuth's devices define no attribute (EGL_CUDA_DEVICE_NV is NVIDIA's). */
    EGLAttrib attrib = 0;
    CHECK(!query_attrib(devices[i], EGL_CUDA_DEVICE_NV, &attrib) && eglGetError() == EGL_BAD_ATTRIBUTE,
          "device %d: eglQueryDeviceAttribEXT gives EGL_BAD_ATTRIBUTE", i);

    /* EGL_EXT_device_persistent_id: "EGL_DEVICE_UUID_EXT is a UUID that identifies a physical device, returned as a
     * 16-byte binary value"; "A device UUID and driver UUID allow an application to correlate an EGLDeviceEXT with
     * the same device in other APIs, such as a VkPhysicalDevice in Vulkan." */
    CHECK(has_token(extensions, "EGL_EXT_device_persistent_id"), "device %d: EGL_EXT_device_persistent_id", i);
    if (extensions != NULL && has_token(extensions, "EGL_EXT_device_persistent_id")) {
      EGLint size = -1;
      /* "If <value> is NULL, then <max_size> is ignored, and the size of the attribute in bytes is returned". */
      CHECK(query_binary(devices[i], EGL_DEVICE_UUID_EXT, -5, NULL, &size) && size == 16,
            "device %d: EGL_DEVICE_UUID_EXT is 16 bytes (%d)", i, size);
      uint8_t uuid[16] = {0};
      CHECK(query_binary(devices[i], EGL_DEVICE_UUID_EXT, 16, uuid, &size) && size == 16 &&
                memcmp(uuid, g_vk_uuids[i], 16) == 0,
            "device %d: EGL_DEVICE_UUID_EXT is the Vulkan device's deviceUUID", i);
      /* "At most <max_size> bytes are written. <size> returns the number of bytes that were actually written." */
      uint8_t part[16];
      memset(part, 0xAB, sizeof part);
      CHECK(query_binary(devices[i], EGL_DRIVER_UUID_EXT, 4, part, &size) && size == 4 && part[4] == 0xAB,
            "device %d: EGL_DRIVER_UUID_EXT truncated to max_size", i);
      CHECK(!query_binary(devices[i], EGL_RENDERER_EXT, 16, uuid, &size) && eglGetError() == EGL_BAD_ATTRIBUTE,
            "device %d: eglQueryDeviceBinaryEXT gives EGL_BAD_ATTRIBUTE for another name", i);
      const char* driver = query_string(devices[i], EGL_DRIVER_NAME_EXT);
      printf("EGL device %d: EGL_DRIVER_NAME_EXT \"%s\"\n", i, driver ? driver : "(null)");
      CHECK(driver != NULL && driver[0] != '\0', "device %d: EGL_DRIVER_NAME_EXT", i);
    }
    if (renderer != NULL) check_device_display(devices[i], renderer);
  }

  /* EGL_EXT_device_query: "On failure, NULL is returned. An EGL_BAD_DEVICE_EXT error is generated if <device> is
   * not a valid EGLDeviceEXT"; the handle here is no vendor's, so libEGL's device map has no vendor for it and the
   * vendor's dispatch function reports it. */
  int not_a_device = 0;
  CHECK(query_string((EGLDeviceEXT)&not_a_device, EGL_EXTENSIONS) == NULL, "NULL for an invalid device");
  CHECK(eglGetError() == EGL_BAD_DEVICE_EXT, "EGL_BAD_DEVICE_EXT for an invalid device");
  EGLAttrib attrib = 0;
  EGLint size = 0;
  CHECK(!query_attrib((EGLDeviceEXT)&not_a_device, EGL_CUDA_DEVICE_NV, &attrib) && eglGetError() == EGL_BAD_DEVICE_EXT,
        "eglQueryDeviceAttribEXT: EGL_BAD_DEVICE_EXT for an invalid device");
  CHECK(!query_binary((EGLDeviceEXT)&not_a_device, EGL_DEVICE_UUID_EXT, 0, NULL, &size) &&
            eglGetError() == EGL_BAD_DEVICE_EXT,
        "eglQueryDeviceBinaryEXT: EGL_BAD_DEVICE_EXT for an invalid device");

  CHECK(g_validation_messages == 0, "%d Vulkan validation message(s)", g_validation_messages);
  return conformance_result();
}
