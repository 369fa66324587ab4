// Buffer device addresses (docs/backend.md, "Buffer device addresses"): Device::create enables bufferDeviceAddress
// exactly where the physical device has it (with shaderInt64), shader-visible buffers then have distinct non-zero
// addresses, and a dispatch's address buffers (DispatchInfo::address_buffers, no descriptor) are kept alive by the
// batch and ordered before a later readback by the hazard tracking.
#include <span>
#include <string>
#include <vector>

#include "backend_fixture.hpp"
#include "bismuth/backend/compile_target.hpp"
#include "bismuth/nvasm/assembler.hpp"

using namespace bismuth;
using namespace bismuth::backend;
using bismuth::test::ValidatedVulkan;

namespace {

// bufferDeviceAddress && shaderInt64, asked straight from Vulkan (Vulkan 1.2 core; the KHR extension's struct has
// the same type on 1.1, where the extension must be listed to chain it).
bool vulkan_has_device_address(const Device& device) {
  const bool core = device.info().api_version >= VK_API_VERSION_1_2;
  bool listed = core;
  if (!core) {
    uint32_t count = 0;
    device.vki().vkEnumerateDeviceExtensionProperties(device.physical_device(), nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> properties(count);
    device.vki().vkEnumerateDeviceExtensionProperties(device.physical_device(), nullptr, &count, properties.data());
    for (const auto& p : properties)
      listed |= std::string(p.extensionName) == VK_KHR_BUFFER_DEVICE_ADDRESS_EXTENSION_NAME;
  }
  if (!listed) return false;
  VkPhysicalDeviceBufferDeviceAddressFeatures address{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES};
  VkPhysicalDeviceFeatures2 features2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  features2.pNext = &address;
  device.vki().vkGetPhysicalDeviceFeatures2(device.physical_device(), &features2);
  return address.bufferDeviceAddress && features2.features.shaderInt64;
}

}  // namespace

TEST_CASE("bufferDeviceAddress is enabled where the device has it, and buffers then have addresses",
          "[backend][device_address]") {
  ValidatedVulkan vk;
  auto device = bismuth::test::make_device(vk);
  const bool expected = vulkan_has_device_address(*device);
  CHECK(device->features().buffer_device_address == expected);
  CHECK(compile_target(*device).buffer_device_address == expected);
  auto a = bismuth::test::make_buffer(*device, 16);
  auto b = bismuth::test::make_buffer(*device, 16);
  auto staging = Buffer::create(*device, 64, BufferKind::Staging);
  REQUIRE(staging);
  CHECK((*staging)->device_address() == 0);  // not shader-visible
  if (!expected) {
    CHECK(a->device_address() == 0);
    WARN("the test device has no bufferDeviceAddress");
    return;
  }
  CHECK(a->device_address() != 0);
  CHECK(b->device_address() != 0);
  CHECK(a->device_address() != b->device_address());
}

TEST_CASE("a dispatch's address buffers are kept alive and its writes through them reach a readback",
          "[backend][device_address]") {
  ValidatedVulkan vk;
  auto device = bismuth::test::make_device(vk);
  if (!device->features().buffer_device_address) {
    WARN("the test device has no bufferDeviceAddress; not run");
    return;
  }
  // out[i] = 42 + i at the address in the uniform buffer (program.buffer[0] at binding 0), through a pointer.
  nvasm::AssembleOptions options;
  options.buffer_device_address = true;
  options.parameter_buffer_bindings = {0};
  auto program = nvasm::assemble(R"(!!NVcp5.0
OPTION NV_shader_buffer_store;
GROUP_SIZE 4;
CBUFFER cb[] = { program.buffer[0] };
TEMP R0, R1;
LONG TEMP P;
LDC.U32X2 R0, cb[0];
PK64.U P.x, R0;
CVT.U64.U32 P.y, invocation.localid.x;
MUL.U64 P.y, P.y, {4}.x;
ADD.U64 P.z, P.x, P.y;
ADD.U R1.x, invocation.localid.x, {42}.x;
STORE.U32 R1.x, P.z;
END
)",
                                 options);
  INFO((program ? std::string() : program.error().message));
  REQUIRE(program);
  ShaderDesc desc;
  desc.spirv = program->spirv;
  desc.layout = {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER}, 0};
  desc.name = "store through a pointer";
  auto shader = Shader::create(*device, desc);
  REQUIRE(shader);
  auto cache = bismuth::test::make_cache(*device);
  auto stream = bismuth::test::make_stream(*device, *cache);
  // The assembler's uniform block is the parameter buffer window (nvasm::kParameterBufferBytes): bind all of it.
  auto parameters = bismuth::test::make_buffer(*device, nvasm::kParameterBufferBytes / 4);
  for (int run = 0; run < 2; ++run) {
    auto target = bismuth::test::make_buffer(*device, 4);
    const uint64_t address = target->device_address();
    const uint32_t words[2] = {static_cast<uint32_t>(address), static_cast<uint32_t>(address >> 32)};
    REQUIRE(stream->upload(*parameters, 0, std::as_bytes(std::span(words))));
    const BufferBinding binding{parameters.get(), 0, VK_WHOLE_SIZE, Access::Read};
    const BufferBinding reached{target.get(), 0, VK_WHOLE_SIZE, Access::Write};
    DispatchInfo info;
    info.shader = shader->get();
    info.size = {4, 1, 1};
    info.bindings = std::span(&binding, 1);
    info.address_buffers = std::span(&reached, 1);
    REQUIRE(stream->dispatch(info));
    if (run == 0) {
      // The readback comes after the dispatch's writes through the address.
      CHECK(bismuth::test::read_words(*stream, *target, 4) == std::vector<uint32_t>{42, 43, 44, 45});
    } else {
      // Only the batch holds the buffer now: it stays alive until the batch completed.
      std::weak_ptr<Buffer> weak = target;
      target.reset();
      CHECK_FALSE(weak.expired());
      REQUIRE(stream->finish());
    }
  }
}
