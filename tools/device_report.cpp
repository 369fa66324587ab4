#include "device_report.hpp"

#include <cstdio>

#include "bismuth/backend/vk_strings.hpp"

namespace bismuth::tools {

namespace {

using backend::DeviceInfo;

std::string join(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (const std::string& item : items) {
    if (!out.empty()) out += separator;
    out += item;
  }
  return out;
}

std::string uuid_string(const std::array<uint8_t, VK_UUID_SIZE>& uuid) {
  std::string out;
  char byte[3];
  for (uint8_t b : uuid) {
    std::snprintf(byte, sizeof byte, "%02x", b);
    out += byte;
  }
  return out;
}

nlohmann::json extension_flags(const DeviceInfo& d) {
  return {{"VK_EXT_shader_subgroup_ballot", d.has_shader_subgroup_ballot},
          {"VK_EXT_shader_subgroup_vote", d.has_shader_subgroup_vote},
          {"VK_EXT_subgroup_size_control", d.has_subgroup_size_control},
          {"VK_KHR_maintenance4", d.has_maintenance4},
          {"VK_KHR_push_descriptor", d.has_push_descriptor}};
}

}  // namespace

nlohmann::json device_to_json(const DeviceInfo& d, bool selected) {
  return {
      {"index", d.index},
      {"name", d.name},
      {"type", backend::device_type_string(d.type)},
      {"selected", selected},
      {"vendor_id", d.vendor_id},
      {"device_id", d.device_id},
      {"driver_name", d.driver_name},
      {"driver_info", d.driver_info},
      {"driver_version", d.driver_version},
      {"api_version", backend::vk_version_string(d.api_version)},
      {"pipeline_cache_uuid", uuid_string(d.pipeline_cache_uuid)},
      {"subgroup",
       {{"size", d.subgroup_size},
        {"min_size", d.min_subgroup_size},
        {"max_size", d.max_subgroup_size},
        {"size_control", d.subgroup_size_control},
        {"compute_operations", backend::subgroup_operation_names(d.compute_subgroup_operations())}}},
      {"extensions", extension_flags(d)},
      {"compute_limits",
       {{"max_work_group_size", d.max_compute_work_group_size},
        {"max_work_group_invocations", d.max_compute_work_group_invocations},
        {"max_work_group_count", d.max_compute_work_group_count},
        {"max_shared_memory_bytes", d.max_compute_shared_memory_size}}},
  };
}

std::string device_to_text(const DeviceInfo& d, bool selected) {
  auto yes_no = [](bool b) { return b ? "yes" : "no"; };
  const auto& size = d.max_compute_work_group_size;
  const auto& count = d.max_compute_work_group_count;
  const std::vector<std::string> ops = backend::subgroup_operation_names(d.compute_subgroup_operations());
  char buffer[1024];
  std::string out;
  std::snprintf(buffer, sizeof buffer, "[%u] %s (%s)%s\n", d.index, d.name.c_str(),
                std::string(backend::device_type_string(d.type)).c_str(), selected ? "  <- selected" : "");
  out += buffer;
  std::snprintf(buffer, sizeof buffer, "    driver            %s%s%s\n", d.driver_name.empty() ? "?" : d.driver_name.c_str(),
                d.driver_info.empty() ? "" : ", ", d.driver_info.c_str());
  out += buffer;
  std::snprintf(buffer, sizeof buffer, "    api version       %s\n", backend::vk_version_string(d.api_version).c_str());
  out += buffer;
  std::snprintf(buffer, sizeof buffer, "    subgroup size     %u (min %u, max %u, size control %s)\n", d.subgroup_size,
                d.min_subgroup_size, d.max_subgroup_size, yes_no(d.subgroup_size_control));
  out += buffer;
  std::snprintf(buffer, sizeof buffer, "    subgroup ops      %s\n",
                ops.empty() ? "none in compute" : join(ops, " ").c_str());
  out += buffer;
  std::snprintf(buffer, sizeof buffer,
                "    extensions        shader_subgroup_ballot %s, shader_subgroup_vote %s, subgroup_size_control %s,\n"
                "                      maintenance4 %s, push_descriptor %s\n",
                yes_no(d.has_shader_subgroup_ballot), yes_no(d.has_shader_subgroup_vote),
                yes_no(d.has_subgroup_size_control), yes_no(d.has_maintenance4), yes_no(d.has_push_descriptor));
  out += buffer;
  std::snprintf(buffer, sizeof buffer,
                "    compute limits    group size %ux%ux%u, invocations %u, group count %ux%ux%u,\n"
                "                      shared memory %u bytes\n",
                size[0], size[1], size[2], d.max_compute_work_group_invocations, count[0], count[1], count[2],
                d.max_compute_shared_memory_size);
  out += buffer;
  return out;
}

}  // namespace bismuth::tools
