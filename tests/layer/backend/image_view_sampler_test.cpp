// Image views (Image::view), samplers (Device::sampler) and texel-buffer views (Buffer::texel_view): what is
// created, what is shared, and every description the Vulkan spec's valid usage forbids refused as an Error before
// the driver sees it. Under the validation layer with zero messages: a refused description must never reach it.
#include <string>

#include "image_binding_support.hpp"

using namespace bismuth;
using namespace bismuth::backend;
using bismuth::test::make_image;
using bismuth::test::ValidatedVulkan;

namespace {

template <class T>
void require_error(const Expected<T>& result, const std::string& needle) {
  REQUIRE_FALSE(result);
  INFO(result.error().message);
  CHECK(result.error().message.find(needle) != std::string::npos);
}

}  // namespace

// Vulkan 1.3 §12.5 "Image Views": views are objects of their own, made from an image, a type, a format and a
// subresource range; one per description is enough (Image::view caches it).
TEST_CASE("Image::view makes one view per description and shares it", "[vulkan][image]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto image = make_image(*device, {.format = VK_FORMAT_R8G8B8A8_UNORM,
                                      .extent = {16, 16, 1},
                                      .mip_levels = 3,
                                      .array_layers = 2,
                                      .usage = kImageSampled | kImageStorage});
    auto a = image->view({.type = VK_IMAGE_VIEW_TYPE_2D});
    REQUIRE_OK(a);
    auto b = image->view({.type = VK_IMAGE_VIEW_TYPE_2D, .format = VK_FORMAT_R8G8B8A8_UNORM});
    REQUIRE_OK(b);
    CHECK(*a == *b);  // the image's format named or left UNDEFINED: one description
    auto c = image->view({.type = VK_IMAGE_VIEW_TYPE_2D_ARRAY, .mip_count = 3, .layer_count = 2});
    REQUIRE_OK(c);
    CHECK(*c != *a);
    auto d = image->view({.type = VK_IMAGE_VIEW_TYPE_2D, .format = VK_FORMAT_R32_UINT, .base_mip = 1});
    REQUIRE_OK(d);
    CHECK(image->view_count() == 3);
  }
  REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
}

// VkImageViewCreateInfo::components (Vulkan 1.3 §12.5, VkComponentMapping): a view's mapping is part of its
// description, so a swizzled view is a view of its own and each mapping is one view; a component mapped to itself
// is the identity (identity_components), which storage-image descriptors require
// (VUID-VkWriteDescriptorSet-descriptorType-00336).
TEST_CASE("Image::view keys views by their component mapping", "[vulkan][image]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto image = make_image(
        *device, {.format = VK_FORMAT_R8G8B8A8_UNORM, .extent = {4, 4, 1}, .usage = kImageSampled | kImageStorage});
    ImageViewDesc plain{.type = VK_IMAGE_VIEW_TYPE_2D};
    ImageViewDesc swizzled = plain;
    swizzled.components = {VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_ZERO, VK_COMPONENT_SWIZZLE_ONE,
                           VK_COMPONENT_SWIZZLE_R};
    ImageViewDesc named_identity = plain;
    named_identity.components = {VK_COMPONENT_SWIZZLE_R, VK_COMPONENT_SWIZZLE_G, VK_COMPONENT_SWIZZLE_B,
                                 VK_COMPONENT_SWIZZLE_A};
    CHECK(plain.identity_components());
    CHECK(named_identity.identity_components());
    CHECK_FALSE(swizzled.identity_components());
    auto a = image->view(plain);
    auto b = image->view(swizzled);
    auto c = image->view(swizzled);
    REQUIRE_OK(a);
    REQUIRE_OK(b);
    REQUIRE_OK(c);
    CHECK(*a != *b);
    CHECK(*b == *c);
    CHECK(image->view_count() == 2);
  }
  REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
}

// VkImageViewCreateInfo valid usage: "subresourceRange.baseMipLevel must be less than the mipLevels ... and
// levelCount ... baseMipLevel + levelCount must be less than or equal to the mipLevels", the same for layers;
// the view type must be compatible with the image type (table "Image type and image view type compatibility"; "If
// the imageCubeArray feature is not enabled, viewType must not be VK_IMAGE_VIEW_TYPE_CUBE_ARRAY", and a cube array's
// layerCount must be a multiple of 6);
// "If image was not created with VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT, format must be identical to the format used
// to create image"; with it, format must be compatible (same texel block size for uncompressed color formats).
TEST_CASE("Image::view refuses ranges, types and formats the image cannot have", "[vulkan][image]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto image = make_image(*device, {.format = VK_FORMAT_R8G8B8A8_UNORM,
                                      .extent = {8, 8, 1},
                                      .mip_levels = 2,
                                      .array_layers = 3,
                                      .usage = kImageSampled});
    require_error(image->view({.type = VK_IMAGE_VIEW_TYPE_2D, .base_mip = 2}), "mip levels");
    require_error(image->view({.type = VK_IMAGE_VIEW_TYPE_2D, .base_mip = 1, .mip_count = 2}), "mip levels");
    require_error(image->view({.type = VK_IMAGE_VIEW_TYPE_2D, .mip_count = 0}), "mip levels");
    require_error(image->view({.type = VK_IMAGE_VIEW_TYPE_2D_ARRAY, .base_layer = 2, .layer_count = 2}), "layers");
    require_error(image->view({.type = VK_IMAGE_VIEW_TYPE_2D, .layer_count = 2}), "one layer");
    require_error(image->view({.type = VK_IMAGE_VIEW_TYPE_1D}), "1D");
    require_error(image->view({.type = VK_IMAGE_VIEW_TYPE_3D}), "3D");
    require_error(image->view({.type = VK_IMAGE_VIEW_TYPE_CUBE, .layer_count = 6}), "layers");
    require_error(image->view({.type = VK_IMAGE_VIEW_TYPE_CUBE, .layer_count = 3}), "cube");
    require_error(image->view({.type = VK_IMAGE_VIEW_TYPE_2D, .format = VK_FORMAT_R32G32_UINT}), "texel size");
    require_error(image->view({.type = VK_IMAGE_VIEW_TYPE_2D, .format = VK_FORMAT_R8_UNORM}), "texel size");
    auto fixed = make_image(
        *device,
        {.format = VK_FORMAT_R8G8B8A8_UNORM, .extent = {8, 8, 1}, .usage = kImageSampled, .mutable_format = false});
    require_error(fixed->view({.type = VK_IMAGE_VIEW_TYPE_2D, .format = VK_FORMAT_R32_UINT}), "mutable_format");
    REQUIRE_OK(fixed->view({.type = VK_IMAGE_VIEW_TYPE_2D}));
    auto transfer_only = make_image(*device, {.format = VK_FORMAT_R8G8B8A8_UNORM, .extent = {8, 8, 1}});
    require_error(transfer_only->view({.type = VK_IMAGE_VIEW_TYPE_2D}), "usage");
    auto cube = make_image(*device, {.format = VK_FORMAT_R8G8B8A8_UNORM,
                                     .extent = {4, 4, 1},
                                     .array_layers = 12,
                                     .cube_compatible = true,
                                     .usage = kImageSampled});
    REQUIRE_OK(cube->view({.type = VK_IMAGE_VIEW_TYPE_CUBE, .base_layer = 6, .layer_count = 6}));
    if (device->features().image_cube_array) {
      REQUIRE_OK(cube->view({.type = VK_IMAGE_VIEW_TYPE_CUBE_ARRAY, .layer_count = 12}));
      require_error(cube->view({.type = VK_IMAGE_VIEW_TYPE_CUBE_ARRAY, .layer_count = 8}), "multiple of 6");
    } else {
      require_error(cube->view({.type = VK_IMAGE_VIEW_TYPE_CUBE_ARRAY, .layer_count = 12}), "imageCubeArray");
    }
    auto volume = make_image(
        *device,
        {.type = ImageType::Image3D, .format = VK_FORMAT_R32_SFLOAT, .extent = {4, 4, 4}, .usage = kImageSampled});
    REQUIRE_OK(volume->view({.type = VK_IMAGE_VIEW_TYPE_3D}));
    require_error(volume->view({.type = VK_IMAGE_VIEW_TYPE_2D}), "2D");
  }
  REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
}

// Vulkan 1.3 §13 "Samplers": a VkSampler is an immutable object made from its create info, so one per distinct
// description serves every texture that samples with it (and the device's maxSamplerAllocationCount bounds how
// many may exist at once).
TEST_CASE("Device::sampler shares one sampler per distinct description", "[vulkan][sampler]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    const size_t before = device->sampler_count();
    const SamplerDesc linear{.mag_filter = VK_FILTER_LINEAR, .min_filter = VK_FILTER_LINEAR};
    VkSampler a = test::make_sampler(*device, linear);
    VkSampler b = test::make_sampler(*device, linear);
    CHECK(a == b);
    SamplerDesc clamped = linear;
    clamped.address_u = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    VkSampler c = test::make_sampler(*device, clamped);
    CHECK(c != a);
    SamplerDesc biased = linear;
    biased.mip_lod_bias = 0.5f;
    CHECK(test::make_sampler(*device, biased) != a);
    CHECK(device->sampler_count() == before + 3);
    SamplerDesc looked_up;
    REQUIRE(device->sampler_desc(c, &looked_up));
    CHECK(looked_up == clamped);
    // A custom border colour: passed through with VK_EXT_custom_border_color, else the nearest built-in one.
    SamplerDesc custom{.address_u = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
                       .border_color = VK_BORDER_COLOR_FLOAT_CUSTOM_EXT};
    custom.custom_border_color.float32[0] = 0.9f;
    custom.custom_border_color.float32[1] = 0.8f;
    custom.custom_border_color.float32[2] = 1.0f;
    custom.custom_border_color.float32[3] = 0.7f;
    REQUIRE_OK(device->sampler(custom));
  }
  REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
}

TEST_CASE("A custom border colour without the extension becomes the nearest built-in colour", "[sampler]") {
  VkClearColorValue near_white{};
  near_white.float32[0] = near_white.float32[1] = near_white.float32[2] = 0.9f;
  near_white.float32[3] = 1.0f;
  CHECK(nearest_builtin_border(VK_BORDER_COLOR_FLOAT_CUSTOM_EXT, near_white) == VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE);
  VkClearColorValue dark_opaque{};
  dark_opaque.float32[3] = 0.9f;
  CHECK(nearest_builtin_border(VK_BORDER_COLOR_FLOAT_CUSTOM_EXT, dark_opaque) == VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK);
  VkClearColorValue clear{};
  CHECK(nearest_builtin_border(VK_BORDER_COLOR_INT_CUSTOM_EXT, clear) == VK_BORDER_COLOR_INT_TRANSPARENT_BLACK);
}

// VkSamplerCreateInfo valid usage: "maxLod must be greater than or equal to minLod"; "If anisotropyEnable is
// VK_TRUE, maxAnisotropy must be between 1.0 and VkPhysicalDeviceLimits::maxSamplerAnisotropy"; "If
// unnormalizedCoordinates is VK_TRUE, minFilter and magFilter must be equal", "mipmapMode must be
// VK_SAMPLER_MIPMAP_MODE_NEAREST", "minLod and maxLod must be zero", "addressModeU and addressModeV must each be
// either VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE or VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER"; "The absolute value of
// mipLodBias must be less than or equal to VkPhysicalDeviceLimits::maxSamplerLodBias".
TEST_CASE("Device::sampler refuses what VkSamplerCreateInfo forbids", "[vulkan][sampler]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    require_error(device->sampler({.min_lod = 2, .max_lod = 1}), "min_lod");
    require_error(device->sampler({.mip_lod_bias = device->info().max_sampler_lod_bias * 2 + 1}), "maxSamplerLodBias");
    require_error(device->sampler({.max_anisotropy = device->info().max_sampler_anisotropy + 1}), "anisotropy");
    const SamplerDesc rect{.address_u = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                           .address_v = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                           .max_lod = 0,
                           .unnormalized_coordinates = true};
    REQUIRE_OK(device->sampler(rect));
    SamplerDesc bad = rect;
    bad.mag_filter = VK_FILTER_LINEAR;
    require_error(device->sampler(bad), "unnormalized");
    bad = rect;
    bad.address_v = VK_SAMPLER_ADDRESS_MODE_REPEAT;
    require_error(device->sampler(bad), "unnormalized");
    bad = rect;
    bad.max_lod = 1;
    require_error(device->sampler(bad), "unnormalized");
  }
  REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
}

// VK_EXT_non_seamless_cube_map: "VK_SAMPLER_CREATE_NON_SEAMLESS_CUBE_MAP_BIT_EXT specifies that cube map edge handling
// is not performed" — another sampler than the seamless one of the same state (part of the key), made only where the
// device has the nonSeamlessCubeMap feature (enabled at device creation), refused elsewhere.
TEST_CASE("Device::sampler keys non-seamless cube samplers apart and needs nonSeamlessCubeMap", "[vulkan][sampler]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    const SamplerDesc seamless{.mag_filter = VK_FILTER_LINEAR, .min_filter = VK_FILTER_LINEAR};
    SamplerDesc per_face = seamless;
    per_face.non_seamless_cube = true;
    CHECK_FALSE(per_face == seamless);
    if (device->features().non_seamless_cube_map) {
      const VkSampler a = test::make_sampler(*device, seamless);
      const VkSampler b = test::make_sampler(*device, per_face);
      CHECK(a != b);
      CHECK(test::make_sampler(*device, per_face) == b);
      SamplerDesc looked_up;
      REQUIRE(device->sampler_desc(b, &looked_up));
      CHECK(looked_up.non_seamless_cube);
    } else {
      WARN("the device has no VK_EXT_non_seamless_cube_map: only the refusal is checked");
      require_error(device->sampler(per_face), "non-seamless");
    }
  }
  REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
}

// VkBufferViewCreateInfo valid usage: "offset must be a multiple of VkPhysicalDeviceLimits::
// minTexelBufferOffsetAlignment"; "If range is not equal to VK_WHOLE_SIZE, range must be a multiple of the texel
// block size of format", "less than or equal to the size of buffer minus offset", and "range divided by the texel
// block size of format, must be less than or equal to VkPhysicalDeviceLimits::maxTexelBufferElements";
// "offset must be less than the size of buffer".
TEST_CASE("Buffer::texel_view checks alignment, range and format", "[vulkan][texel_buffer]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto buffer = test::make_buffer(*device, 1024);  // 4 KiB
    const VkDeviceSize alignment = device->info().min_texel_buffer_offset_alignment;
    auto whole = buffer->texel_view(VK_FORMAT_R32_UINT, 0, VK_WHOLE_SIZE);
    REQUIRE_OK(whole);
    CHECK(whole->range == 4096);
    auto again = buffer->texel_view(VK_FORMAT_R32_UINT, 0, VK_WHOLE_SIZE);
    REQUIRE_OK(again);
    CHECK(again->handle == whole->handle);
    REQUIRE_OK(buffer->texel_view(VK_FORMAT_R32_UINT, alignment, 64));
    if (alignment > 1) {
      require_error(buffer->texel_view(VK_FORMAT_R32_UINT, alignment / 2, 64), "minTexelBufferOffsetAlignment");
    } else {
      WARN("minTexelBufferOffsetAlignment is 1: no misaligned offset exists on this device");
    }
    require_error(buffer->texel_view(VK_FORMAT_R32_UINT, 4096, VK_WHOLE_SIZE), "past the end");
    require_error(buffer->texel_view(VK_FORMAT_R32G32B32A32_UINT, 0, 24), "multiple of 16");
    require_error(buffer->texel_view(VK_FORMAT_R32_UINT, 0, 4100), "beyond the end");
    require_error(buffer->texel_view(VK_FORMAT_D32_SFLOAT, 0, VK_WHOLE_SIZE), "color format");
    auto staging = Buffer::create(*device, 256, BufferKind::Staging);
    REQUIRE_OK(staging);
    require_error((*staging)->texel_view(VK_FORMAT_R32_UINT, 0, VK_WHOLE_SIZE), "staging");
  }
  REQUIRE_NO_VALIDATION_MESSAGES_BUT_GENERAL_LAYOUT_NOTE(vk);
}
