/* libbismuth-gl: GL 4.6 compute entry points (GL/glcorearb.h names and signatures) and a minimal EGL on any
 * Vulkan 1.1+ device. This header is the small C API for GL-on-Vulkan ports that create contexts without EGL:
 * on a VkInstance/VkDevice/VkQueue they own, or on a device Bismuth creates (BISMUTH_DEVICE selects it).
 *
 * Environment: BISMUTH_DEVICE (device selection), BISMUTH_VALIDATION=1 (Bismuth-created instances enable
 * VK_LAYER_KHRONOS_validation; every validation message is reported through KHR_debug as GL_DEBUG_SOURCE_API /
 * GL_DEBUG_TYPE_ERROR and printed to stderr). */
#ifndef BISMUTH_GL_BISMUTH_GL_H_
#define BISMUTH_GL_BISMUTH_GL_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct BismuthGLContext_T* BismuthGLContext;

typedef struct BismuthGLContextOptions {
  /* Device selection like BISMUTH_DEVICE ("0", "cpu", "gpu", a name substring); NULL: BISMUTH_DEVICE. */
  const char* device;
  /* Non-zero: the Bismuth-created instance enables the validation layer (as BISMUTH_VALIDATION=1 does). */
  int enable_validation;
  /* Objects (shaders, programs, buffers, syncs) are shared with this context; NULL: a new share group. */
  BismuthGLContext share_context;
  /* Non-zero: a debug context (GL_CONTEXT_FLAG_DEBUG_BIT). */
  int debug;
  /* 0: an OpenGL 4.6 core context. 31 or 32: an OpenGL ES 3.1 or 3.2 context, as eglCreateContext makes for
   * EGL_OPENGL_ES_API (GL_VERSION "OpenGL ES 3.x ...", GLSL ES shaders only; docs/gl_shim.md, "OpenGL ES
   * contexts"). A share context must be of the same API. */
  int es_version;
} BismuthGLContextOptions;

/* Vulkan objects a port owns. Handles are passed as void* / uint64_t so that this header needs no Vulkan
 * header. The port keeps them alive until bismuthDestroyContext of every context created on them returned. The
 * device must have the timelineSemaphore feature enabled; `queue_mutex` (a std::mutex*, may be NULL) is held
 * around Bismuth's vkQueueSubmit when the port submits to the same queue. */
typedef struct BismuthGLVulkanDevice {
  void* instance;               /* VkInstance */
  uint32_t instance_api_version; /* VK_API_VERSION_1_x the instance was created with */
  void* get_instance_proc_addr; /* PFN_vkGetInstanceProcAddr */
  void* physical_device;        /* VkPhysicalDevice */
  void* device;                 /* VkDevice */
  void* queue;                  /* VkQueue (compute capable) */
  uint32_t queue_family;
  /* Features the port enabled at vkCreateDevice (non-zero: enabled). */
  int subgroup_size_control;
  int compute_full_subgroups;
  int shader_int64;
  int shader_float64;
  int shader_buffer_float32_atomic_add;
  void* queue_mutex;
} BismuthGLVulkanDevice;

/* Creates a GL 4.6 core context (or an OpenGL ES one: es_version) on a Bismuth-created device (options may be NULL). NULL on failure; then
 * bismuthGetLastErrorString says why. */
BismuthGLContext bismuthCreateContext(const BismuthGLContextOptions* options);
/* Creates a context on a device the caller owns. */
BismuthGLContext bismuthCreateContextOnVulkan(const BismuthGLVulkanDevice* device,
                                              const BismuthGLContextOptions* options);
/* Makes `context` current in the calling thread (NULL releases the current one). Returns 0 when the context is
 * current in another thread. */
int bismuthMakeCurrent(BismuthGLContext context);
BismuthGLContext bismuthGetCurrentContext(void);
/* Destroys the context (deferred until it is released when current in another thread). */
void bismuthDestroyContext(BismuthGLContext context);
/* The address of a supported GL or EGL entry point (as eglGetProcAddress answers); NULL for names outside the
 * supported surface. */
void (*bismuthGetProcAddress(const char* name))(void);
/* The reason of the last failed bismuthCreateContext* in this thread ("" when none). */
const char* bismuthGetLastErrorString(void);

#ifdef __cplusplus
}
#endif

#endif /* BISMUTH_GL_BISMUTH_GL_H_ */
