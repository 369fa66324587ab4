// Multisample textures (GL 4.6 §8.8 "Multisample Textures", §8.19; OpenGL ES 3.2 §8.8, §8.18; issue 18): what the
// device allows them (sample counts per format, the MAX_*_SAMPLES limits, sample positions), shared by their entry
// points (texture_multisample.cpp), glGetInternalformativ, glGet* and glClearTex(Sub)Image.
#pragma once

#include <cstdint>
#include <vector>

#include "gl_internal.hpp"
#include "textures.hpp"

namespace bismuth::gl {

inline bool is_multisample(GLenum target) {
  return target == GL_TEXTURE_2D_MULTISAMPLE || target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY;
}

// The sample counts above 1 a multisample texture of `format` can have on the device, largest first: those of
// VkImageFormatProperties::sampleCounts for a 2D image of the Vulkan format the texture is stored in
// (storage_format) with the sampled usage the device allows it (which bounds them by the limits'
// sampledImage{Color,Integer,Depth}SampleCounts). Empty for a format that is not color-, depth- or
// stencil-renderable (GL 4.6 §22.3.2 NUM_SAMPLE_COUNTS / SAMPLES; es / es_minor: the context's rules).
std::vector<uint32_t> texture_sample_counts(const backend::Device& device, const SizedFormat& format, bool es,
                                            int es_minor);

// GL 4.6 table 23.64's MAX_COLOR_TEXTURE_SAMPLES, MAX_DEPTH_TEXTURE_SAMPLES, MAX_INTEGER_SAMPLES (the largest count
// of VkPhysicalDeviceLimits::sampledImage{Color,Depth,Integer}SampleCounts; depth textures stored in colour formats
// (depth_textures_as_color) take the colour counts), MAX_IMAGE_SAMPLES (the largest of storageImageSampleCounts
// with shaderStorageImageMultisample, else 0: image units take no multisample textures) and table 23.73's
// MAX_SAMPLES, "the maximum number of samples supported for all non-integer formats": the largest count both the
// colour and the depth counts have (renderbuffers are sampled images here, so the sampled-image counts bound them).
struct MultisampleLimits {
  uint32_t color = 1, depth = 1, integer = 1, image = 0, samples = 1;
};
MultisampleLimits multisample_limits(const backend::Device& device);

// glClearTex(Sub)Image of a multisample texture: `texel` (one texel of the level's format, as unpack_pixels made it)
// written to every sample of `region` (level 0's box and layers) with vkCmdClearColorImage, which takes a clear
// colour rather than texel bytes, so the texel is read back into one (pack_pixels). Vulkan clears whole
// subresources only and copies no buffer into a multisample image, so a box smaller than the layer is cleared in a
// scratch image of the box's size and samples and copied in (vkCmdCopyImage copies every sample). False after an
// error (recorded).
bool clear_multisample(Context* ctx, TextureObject& texture, const std::vector<std::byte>& texel,
                       const backend::ImageRegion& region, const char* func);

}  // namespace bismuth::gl
