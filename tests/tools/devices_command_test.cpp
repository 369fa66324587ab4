// `bismuth devices`, run as a user runs it.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "support/run_process.hpp"

using bismuth::test::run_process;

TEST_CASE("bismuth devices --json lists every device with its compute facts", "[vulkan]") {
  auto result = run_process({bismuth::test::tool_path(BISMUTH_CLI_PATH), "devices", "--json"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const auto json = nlohmann::json::parse(result.out);
  REQUIRE(json["devices"].is_array());
  REQUIRE_FALSE(json["devices"].empty());
  int selected = 0;
  for (const auto& d : json["devices"]) {
    for (const char* key : {"index", "name", "type", "driver_name", "driver_info", "api_version", "subgroup",
                            "extensions", "compute_limits"}) {
      INFO(key);
      CHECK(d.contains(key));
    }
    for (const char* key : {"size", "min_size", "max_size", "compute_operations"}) CHECK(d["subgroup"].contains(key));
    for (const char* ext : {"VK_EXT_shader_subgroup_ballot", "VK_EXT_shader_subgroup_vote",
                            "VK_EXT_subgroup_size_control", "VK_KHR_maintenance4", "VK_KHR_push_descriptor"}) {
      CHECK(d["extensions"][ext].is_boolean());
    }
    CHECK(d["compute_limits"]["max_work_group_size"].size() == 3);
    CHECK(d["compute_limits"]["max_work_group_count"].size() == 3);
    selected += d["selected"].get<bool>() ? 1 : 0;
  }
  CHECK(selected == 1);
  CHECK(json["devices"][json["selected"].get<int>()]["selected"] == true);
}

TEST_CASE("bismuth devices prints one block per device", "[vulkan]") {
  auto result = run_process({bismuth::test::tool_path(BISMUTH_CLI_PATH), "devices"});
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("[0] ") && Catch::Contains("subgroup size") &&
                             Catch::Contains("compute limits") && Catch::Contains("<- selected"));
}

TEST_CASE("BISMUTH_DEVICE=cpu selects the CPU device (lavapipe) when there is one", "[vulkan]") {
  const auto all = nlohmann::json::parse(run_process({bismuth::test::tool_path(BISMUTH_CLI_PATH), "devices", "--json"}).out);
  bool has_cpu = false;
  for (const auto& d : all["devices"]) has_cpu |= d["type"] == "cpu";
  auto result = run_process({bismuth::test::tool_path(BISMUTH_CLI_PATH), "devices", "--json"}, {"BISMUTH_DEVICE=cpu"});
  if (!has_cpu) {  // e.g. a GPU machine without lavapipe: the selector matches nothing
    CHECK(result.exit_code == 1);
    return;
  }
  REQUIRE(result.exit_code == 0);
  const auto json = nlohmann::json::parse(result.out);
  CHECK(json["devices"][json["selected"].get<int>()]["type"] == "cpu");
}

TEST_CASE("A selector that matches no device exits 1 and lists the devices", "[vulkan]") {
  auto result = run_process({bismuth::test::tool_path(BISMUTH_CLI_PATH), "devices"}, {"BISMUTH_DEVICE=no-such-device-name"});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("no device matches") && Catch::Contains("[0] "));
}

TEST_CASE("No Vulkan driver at all exits 2 naming the package to install") {
  auto result = run_process({bismuth::test::tool_path(BISMUTH_CLI_PATH), "devices"}, {"VK_DRIVER_FILES=/nonexistent/icd.json",
                                                            "VK_ICD_FILENAMES=/nonexistent/icd.json"});
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.err, Catch::Contains("no Vulkan driver") && Catch::Contains("mesa-vulkan-drivers"));
}

TEST_CASE("bismuth without a subcommand prints usage and fails") {
  auto result = run_process({bismuth::test::tool_path(BISMUTH_CLI_PATH)});
  CHECK(result.exit_code != 0);
  CHECK_THAT(result.out + result.err, Catch::Contains("devices"));
}
