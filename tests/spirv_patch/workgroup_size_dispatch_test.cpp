// workgroup_size_to_spec_constants on a real device: one patched module dispatched through specialization at many
// sizes, every invocation accounted for. Runs on the selected device (lavapipe on CI) with the validation layer on.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <tuple>

#include "bismuth/spirv_patch/passes/workgroup_size_to_spec_constants.hpp"
#include "shader_sources.hpp"
#include "support/compute_harness.hpp"
#include "support/validated_vulkan.hpp"

using bismuth::spirv_patch::TargetEnv;
using bismuth::spirv_patch::WorkgroupSizeForm;
using bismuth::spirv_patch::workgroup_size_to_spec_constants;
using bismuth::test::compile_or_fail;
using bismuth::test::ComputeDevice;
using bismuth::test::ComputeDispatch;
using bismuth::test::ValidatedVulkan;

namespace {

// Every invocation appends one record; nothing depends on a size the front end could have folded, except the
// last word, which reads gl_WorkGroupSize and is checked only for inputs that keep it specializable.
const char* kRecorder = R"(#version 450
layout(%LAYOUT%) in;
layout(std430, binding = 0) buffer B { uint count; uint records[]; };
void main() {
  uint slot = atomicAdd(count, 1u);
  records[slot * 4u + 0u] = gl_LocalInvocationID.x | (gl_LocalInvocationID.y << 10) | (gl_LocalInvocationID.z << 20);
  records[slot * 4u + 1u] = gl_WorkGroupID.x | (gl_WorkGroupID.y << 10) | (gl_WorkGroupID.z << 20);
  records[slot * 4u + 2u] = gl_LocalInvocationIndex;
  records[slot * 4u + 3u] = gl_WorkGroupSize.x | (gl_WorkGroupSize.y << 10) | (gl_WorkGroupSize.z << 20);
}
)";

std::string recorder(const std::string& layout) {
  std::string source = kRecorder;
  source.replace(source.find("%LAYOUT%"), 8, layout);
  return source;
}

using Size = std::array<uint32_t, 3>;

// Sizes: 1-, 2- and 3-D, odd ones, and the device maximum along x and z (capped by the invocation limit).
std::vector<Size> sizes_for(const bismuth::backend::DeviceInfo& device) {
  const uint32_t invocations = device.max_compute_work_group_invocations;
  std::vector<Size> sizes = {{1, 1, 1}, {7, 1, 1},  {33, 1, 1}, {64, 1, 1}, {8, 8, 1}, {7, 3, 1},
                             {3, 5, 7}, {16, 4, 2}, {2, 2, 2},  {1, 13, 1}};
  sizes.push_back({std::min(device.max_compute_work_group_size[0], invocations), 1, 1});
  sizes.push_back({1, 1, std::min(device.max_compute_work_group_size[2], invocations)});
  return sizes;
}

std::string describe(const Size& s) {
  return std::to_string(s[0]) + "x" + std::to_string(s[1]) + "x" + std::to_string(s[2]);
}

// Dispatches `words` at `size` through the report's SpecIds on 2x1x1 workgroups and checks every record.
void dispatch_and_check(ComputeDevice& device, const std::vector<uint32_t>& words,
                        const std::array<uint32_t, 3>& spec_ids, const Size& size, bool check_size_builtin) {
  INFO("workgroup size " << describe(size));
  const std::array<uint32_t, 3> groups{2, 1, 1};
  const uint32_t per_group = size[0] * size[1] * size[2];
  const uint32_t total = per_group * groups[0];
  ComputeDispatch dispatch;
  dispatch.spirv = words;
  dispatch.specialization = {{spec_ids[0], size[0]}, {spec_ids[1], size[1]}, {spec_ids[2], size[2]}};
  dispatch.group_count = groups;
  dispatch.buffer.assign(1 + total * 4, 0);
  auto out = device.run(dispatch);
  REQUIRE_OK(out);
  REQUIRE((*out)[0] == total);
  std::set<std::tuple<uint32_t, uint32_t, uint32_t>> seen;
  for (uint32_t slot = 0; slot < total; ++slot) {
    const uint32_t* record = out->data() + 1 + slot * 4;
    const uint32_t x = record[0] & 0x3ff, y = (record[0] >> 10) & 0x3ff, z = record[0] >> 20;
    REQUIRE(x < size[0]);
    REQUIRE(y < size[1]);
    REQUIRE(z < size[2]);
    REQUIRE(record[2] == x + y * size[0] + z * size[0] * size[1]);  // LocalInvocationIndex, SPIR-V 3.21
    if (check_size_builtin) REQUIRE(record[3] == (size[0] | (size[1] << 10) | (size[2] << 20)));
    seen.insert({record[1], record[0], record[2]});
  }
  CHECK(seen.size() == total);  // every (group, local id) exactly once
}

}  // namespace

TEST_CASE("One module runs at every workgroup size through specialization (WorkgroupSize built-in form)") {
  ValidatedVulkan vk;
  auto device = ComputeDevice::create(vk);
  REQUIRE_OK(device);
  // local_size_x_id: the front end keeps gl_WorkGroupSize specializable, so the in-shader size is checked too.
  const auto input = compile_or_fail(recorder("local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2"));
  auto patch = workgroup_size_to_spec_constants(input, {});
  REQUIRE_OK(patch);
  REQUIRE_VALID(patch->words, TargetEnv::Vulkan1_1);
  CHECK(patch->report.spec_ids == std::array<uint32_t, 3>{0, 1, 2});
  const auto sizes = sizes_for(vk.selected_device());
  REQUIRE(sizes.size() >= 10);
  for (const Size& size : sizes) dispatch_and_check(**device, patch->words, patch->report.spec_ids, size, true);
  device->reset();
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("A fixed-size module made variable runs at every size, only folded values keep the old size") {
  ValidatedVulkan vk;
  auto device = ComputeDevice::create(vk);
  REQUIRE_OK(device);
  const auto input = compile_or_fail(recorder("local_size_x = 4, local_size_y = 2"));
  auto patch = workgroup_size_to_spec_constants(input, {.preferred_spec_ids = {7u, 8u, 9u}});
  REQUIRE_OK(patch);
  REQUIRE_VALID(patch->words, TargetEnv::Vulkan1_1);
  CHECK(patch->report.input_was_fixed);
  CHECK(patch->report.spec_ids == std::array<uint32_t, 3>{7, 8, 9});
  for (const Size& size : sizes_for(vk.selected_device())) {
    dispatch_and_check(**device, patch->words, patch->report.spec_ids, size, false);
  }
  device->reset();
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("A LocalSize-only module made variable runs at every size") {
  ValidatedVulkan vk;
  auto device = ComputeDevice::create(vk);
  REQUIRE_OK(device);
  const auto input = bismuth::test::strip_workgroup_size_builtin(compile_or_fail(recorder("local_size_x = 3")));
  auto patch = workgroup_size_to_spec_constants(input, {});
  REQUIRE_OK(patch);
  CHECK(patch->report.input_form == WorkgroupSizeForm::LocalSize);
  REQUIRE_VALID(patch->words, TargetEnv::Vulkan1_1);
  for (const Size& size : sizes_for(vk.selected_device())) {
    dispatch_and_check(**device, patch->words, patch->report.spec_ids, size, false);
  }
  device->reset();
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("The LocalSizeId form runs at every size on a device with maintenance4") {
  ValidatedVulkan vk;
  auto device = ComputeDevice::create(vk);
  REQUIRE_OK(device);
  if (!(*device)->maintenance4()) {
    WARN("the selected device lacks maintenance4: LocalSizeId form not dispatched");
    return;
  }
  const auto input = compile_or_fail(recorder("local_size_x_id = 3, local_size_y_id = 4, local_size_z_id = 5"),
                                     TargetEnv::Vulkan1_3);
  auto patch = workgroup_size_to_spec_constants(input, {.output_form = WorkgroupSizeForm::LocalSizeId});
  REQUIRE_OK(patch);
  REQUIRE_VALID(patch->words, TargetEnv::Vulkan1_3);
  CHECK(patch->report.spec_ids == std::array<uint32_t, 3>{3, 4, 5});
  for (const Size& size : sizes_for(vk.selected_device())) {
    dispatch_and_check(**device, patch->words, patch->report.spec_ids, size, true);
  }
  device->reset();
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("Uses of the old WorkgroupSize composite, in code and in OpSpecConstantOp, follow the specialization") {
  ValidatedVulkan vk;
  auto device = ComputeDevice::create(vk);
  REQUIRE_OK(device);
  // x is a spec constant, so glslang keeps `gl_WorkGroupSize.x * 2u + gl_WorkGroupSize.y * 100u` as an
  // OpSpecConstantOp over the composite; y (fixed 3) becomes specializable through the pass.
  const auto input = compile_or_fail(R"(#version 450
layout(local_size_x_id = 5, local_size_y = 3) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void main() {
  uvec3 size = gl_WorkGroupSize;
  data[gl_LocalInvocationIndex] = gl_WorkGroupSize.x * 2u + gl_WorkGroupSize.y * 100u + size.z * 10000u;
}
)");
  auto patch = workgroup_size_to_spec_constants(input, {});
  REQUIRE_OK(patch);
  REQUIRE_VALID(patch->words, TargetEnv::Vulkan1_1);
  CHECK(patch->report.reused_spec_constant == std::array<bool, 3>{true, false, false});
  for (const Size& size : std::vector<Size>{{1, 3, 1}, {4, 5, 1}, {2, 7, 2}, {7, 3, 1}}) {
    INFO("workgroup size " << describe(size));
    ComputeDispatch dispatch;
    dispatch.spirv = patch->words;
    dispatch.specialization = {{patch->report.spec_ids[0], size[0]},
                               {patch->report.spec_ids[1], size[1]},
                               {patch->report.spec_ids[2], size[2]}};
    dispatch.buffer.assign(size[0] * size[1] * size[2], 0);
    auto out = (*device)->run(dispatch);
    REQUIRE_OK(out);
    for (uint32_t value : *out) REQUIRE(value == size[0] * 2 + size[1] * 100 + size[2] * 10000);
  }
  device->reset();
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}
