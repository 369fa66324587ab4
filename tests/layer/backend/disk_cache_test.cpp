// The persistent VkPipelineCache file: format, atomic saves, and what else may sit at its path (corrupt or foreign
// files, a FIFO, a directory).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <future>

#include "backend_fixture.hpp"
#include "bismuth/backend/disk_cache.hpp"

using namespace bismuth;
using namespace bismuth::backend;
using bismuth::test::ValidatedVulkan;

namespace {

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

void write_file(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

struct Warnings {
  std::shared_ptr<std::vector<std::string>> list = std::make_shared<std::vector<std::string>>();
  std::function<void(const std::string&)> sink() {
    return [list = list](const std::string& m) { list->push_back(m); };
  }
};

PipelineCacheOptions disk_options(const test::TempDir& dir, Warnings& warnings) {
  auto options = test::quiet_cache_options();
  options.cache_dir = dir.path().string();
  options.on_warning = warnings.sink();
  return options;
}

// Creates a cache in `dir`, compiles a few sizes, destroys it (which saves); returns the file's path.
std::string populate(Device& device, const test::TempDir& dir) {
  Warnings warnings;
  auto cache = test::make_cache(device, disk_options(dir, warnings));
  auto shader = test::make_add_shader(device);
  for (uint32_t x : {16u, 32u, 64u}) REQUIRE(cache->get_or_compile({shader.get(), {x, 1, 1}, 0, {}}));
  const std::string path = cache->disk_path();
  cache.reset();
  CHECK(warnings.list->empty());
  return path;
}

CacheIdentity identity() {
  CacheIdentity id;
  id.vendor_id = 0x10de;
  id.device_id = 0x2330;
  id.driver_version = 42;
  for (size_t i = 0; i < id.uuid.size(); ++i) id.uuid[i] = static_cast<uint8_t>(i * 7);
  return id;
}

std::vector<uint8_t> vulkan_blob(const CacheIdentity& id, size_t payload) {
  std::vector<uint8_t> data(32 + payload, 0xab);
  const uint32_t words[4] = {32, VK_PIPELINE_CACHE_HEADER_VERSION_ONE, id.vendor_id, id.device_id};
  std::memcpy(data.data(), words, sizeof words);
  std::memcpy(data.data() + 16, id.uuid.data(), 16);
  return data;
}

// Runs `work` on another thread and waits up to 10 s; if it has not returned by then, `release` unblocks it (the
// test fails either way, but does not hang). Returns whether it returned in time, and its result.
template <class Work, class Release>
auto within_10s(Work work, Release release) {
  auto done = std::async(std::launch::async, work);
  const bool in_time = done.wait_for(std::chrono::seconds(10)) == std::future_status::ready;
  if (!in_time) release();
  return std::make_pair(in_time, done.get());
}

// Opens the FIFO at `path` from the other end, without blocking: a reader blocked in open() for reading proceeds
// (and reads end of file once the returned descriptor is closed).
int open_writer(const std::string& path) {
  return ::open(path.c_str(), O_WRONLY | O_NONBLOCK);
}

}  // namespace

TEST_CASE("The file format round-trips and rejects anything that does not match") {
  const CacheIdentity id = identity();
  const auto data = vulkan_blob(id, 100);
  const auto file = encode_cache_file(id, data);
  auto decoded = decode_cache_file(file, id);
  REQUIRE(decoded);
  CHECK(*decoded == data);

  auto truncated = file;
  truncated.resize(file.size() - 1);
  CHECK_THAT(decode_cache_file(truncated, id).error().message, Catch::Contains("truncated"));
  CHECK_THAT(decode_cache_file({file.begin(), file.begin() + 20}, id).error().message, Catch::Contains("truncated"));
  auto corrupted = file;
  corrupted.back() ^= 1;
  CHECK_THAT(decode_cache_file(corrupted, id).error().message, Catch::Contains("checksum"));
  auto bad_magic = file;
  bad_magic[0] = 'X';
  CHECK_THAT(decode_cache_file(bad_magic, id).error().message, Catch::Contains("magic"));
  CacheIdentity other_device = id;
  other_device.device_id += 1;
  CHECK_THAT(decode_cache_file(file, other_device).error().message, Catch::Contains("another device"));
  CacheIdentity other_driver = id;
  other_driver.driver_version += 1;
  CHECK_THAT(decode_cache_file(file, other_driver).error().message, Catch::Contains("driver version"));
  CacheIdentity other_uuid = id;
  other_uuid.uuid[3] ^= 1;
  CHECK_THAT(decode_cache_file(file, other_uuid).error().message, Catch::Contains("pipelineCacheUUID"));
  // Our header matches but the driver's own header inside the data names another device.
  auto inner_foreign = vulkan_blob(id, 10);
  inner_foreign[8] ^= 1;
  CHECK_THAT(decode_cache_file(encode_cache_file(id, inner_foreign), id).error().message,
             Catch::Contains("VkPipelineCache header"));
}

TEST_CASE("Writes are atomic: the target is replaced and no temporary file is left") {
  test::TempDir dir;
  const CacheIdentity id = identity();
  const std::string path = cache_file_path((dir.path() / "nested").string(), id);
  REQUIRE_OK(write_cache_file(path, id, vulkan_blob(id, 10)));
  REQUIRE_OK(write_cache_file(path, id, vulkan_blob(id, 20)));
  auto read = read_cache_file(path, id, 1 << 20);
  REQUIRE(read);
  REQUIRE(read->has_value());
  CHECK((*read)->size() == 52);
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path() / "nested")) {
    ++files;
    CHECK(entry.path().string() == path);
  }
  CHECK(files == 1);
  auto too_big = read_cache_file(path, id, 8);
  REQUIRE_FALSE(too_big);
  CHECK_THAT(too_big.error().message, Catch::Contains("size cap"));
}

TEST_CASE("The cache directory comes from BISMUTH_CACHE_DIR, XDG_CACHE_HOME or HOME, and off disables") {
  setenv("BISMUTH_CACHE_DIR", "/somewhere", 1);
  CHECK(cache_dir_from_environment() == std::optional<std::string>("/somewhere"));
  setenv("BISMUTH_CACHE_DIR", "off", 1);
  CHECK_FALSE(cache_dir_from_environment().has_value());
  unsetenv("BISMUTH_CACHE_DIR");
  setenv("XDG_CACHE_HOME", "/xdg", 1);
  CHECK(cache_dir_from_environment() == std::optional<std::string>("/xdg/bismuth"));
  unsetenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  if (home != nullptr)
    CHECK(cache_dir_from_environment() == std::optional<std::string>(std::string(home) + "/.cache/bismuth"));
}

TEST_CASE("The pipeline cache is saved at shutdown and loaded by the next one", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    test::TempDir dir;
    const std::string path = populate(*device, dir);
    REQUIRE(std::filesystem::exists(path));
    CHECK_THAT(path, Catch::StartsWith(dir.path().string()));
    const auto file = read_file(path);
    auto decoded = decode_cache_file(file, CacheIdentity::of(device->info()));
    REQUIRE(decoded);

    Warnings warnings;
    auto cache = test::make_cache(*device, disk_options(dir, warnings));
    const PipelineCacheStats stats = cache->stats();
    CHECK(stats.disk_status == "loaded");
    CHECK(stats.disk_loaded_bytes == decoded->size());
    CHECK(warnings.list->empty());
    auto shader = test::make_add_shader(*device);
    REQUIRE(cache->get_or_compile({shader.get(), {16, 1, 1}, 0, {}}));
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("Corrupted, truncated and foreign cache files are ignored with a warning", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    test::TempDir dir;
    const std::string path = populate(*device, dir);
    const auto good = read_file(path);
    REQUIRE(good.size() > 60);
    CacheIdentity foreign = CacheIdentity::of(device->info());
    foreign.vendor_id ^= 0xffff;
    auto corrupted = good;
    corrupted[good.size() / 2 + 30] ^= 0x5a;
    const std::vector<std::pair<const char*, std::vector<uint8_t>>> cases = {
        {"truncated", {good.begin(), good.begin() + static_cast<long>(good.size() - 7)}},
        {"truncated", {good.begin(), good.begin() + 10}},
        {"checksum", corrupted},
        {"another device", encode_cache_file(foreign, vulkan_blob(foreign, 64))},
        {"magic", std::vector<uint8_t>(200, 0x42)},
    };
    for (const auto& [reason, bytes] : cases) {
      INFO(reason);
      write_file(path, bytes);
      Warnings warnings;
      auto cache = test::make_cache(*device, disk_options(dir, warnings));
      REQUIRE(warnings.list->size() == 1);
      CHECK_THAT(warnings.list->front(), Catch::Contains(reason) && Catch::Contains(path));
      CHECK_THAT(cache->stats().disk_status, Catch::StartsWith("ignored"));
      CHECK(cache->stats().disk_loaded_bytes == 0);
      auto shader = test::make_add_shader(*device);
      REQUIRE(cache->get_or_compile({shader.get(), {16, 1, 1}, 0, {}}));
      cache.reset();  // saves a valid file over the bad one
      CHECK(decode_cache_file(read_file(path), CacheIdentity::of(device->info())));
    }
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("BISMUTH_CACHE_DIR=off reads and writes nothing", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    test::TempDir dir;
    setenv("BISMUTH_CACHE_DIR", "off", 1);
    auto options = test::quiet_cache_options();
    options.cache_dir.reset();  // from the environment
    auto cache = test::make_cache(*device, options);
    unsetenv("BISMUTH_CACHE_DIR");
    CHECK(cache->disk_path().empty());
    CHECK(cache->stats().disk_status == "off");
    auto shader = test::make_add_shader(*device);
    REQUIRE(cache->get_or_compile({shader.get(), {16, 1, 1}, 0, {}}));
    REQUIRE_OK(cache->save());
    cache.reset();
    CHECK(std::filesystem::is_empty(dir.path()));
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("A blob over the size cap is not written", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    test::TempDir dir;
    Warnings warnings;
    auto options = disk_options(dir, warnings);
    options.max_file_bytes = 8;  // smaller than any VkPipelineCache header
    auto cache = test::make_cache(*device, options);
    auto shader = test::make_add_shader(*device);
    REQUIRE(cache->get_or_compile({shader.get(), {16, 1, 1}, 0, {}}));
    auto saved = cache->save();
    REQUIRE_FALSE(saved);
    CHECK_THAT(saved.error().message, Catch::Contains("cap"));
    CHECK_FALSE(std::filesystem::exists(cache->disk_path()));
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("A FIFO at the cache path is ignored with a reason instead of blocking the reader") {
  // fopen() of a FIFO for reading waits for a writer: the layer hung at its first pipeline cache, forever.
  test::TempDir dir;
  const CacheIdentity id = identity();
  const std::string path = cache_file_path(dir.path().string(), id);
  REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
  auto [in_time, read] =
      within_10s([&] { return read_cache_file(path, id, 1 << 20); }, [&] { ::close(open_writer(path)); });
  CHECK(in_time);
  REQUIRE_FALSE(read);
  CHECK(read.error().message == "not a regular file (a FIFO)");
}

TEST_CASE("A directory at the cache path is ignored with a reason and not replaced") {
  test::TempDir dir;
  const CacheIdentity id = identity();
  const std::string path = cache_file_path(dir.path().string(), id);
  std::filesystem::create_directories(path);
  auto read = read_cache_file(path, id, 1 << 20);
  REQUIRE_FALSE(read);
  CHECK(read.error().message == "not a regular file (a directory)");
  auto written = write_cache_file(path, id, vulkan_blob(id, 10));
  REQUIRE_FALSE(written);
  CHECK_THAT(written.error().message, Catch::EndsWith("is a directory; not saved"));
  CHECK(std::filesystem::is_directory(path));
}

TEST_CASE("Saving never opens what already exists at a temporary file's name") {
  // The temporary name is predictable (<path>.tmp.<pid>.<n>): opening it with O_CREAT | O_TRUNC blocked forever
  // on a FIFO there and wrote through a symlink there to the file it names. Every name this process may try
  // first is taken, alternately by a FIFO and by a symlink to a file that must stay as it is.
  test::TempDir dir;
  const CacheIdentity id = identity();
  const std::string path = cache_file_path(dir.path().string(), id);
  const std::string victim = (dir.path() / "victim").string();
  write_file(victim, {'k', 'e', 'e', 'p'});
  std::vector<std::string> fifos;
  for (int n = 0; n < 256; ++n) {
    const std::string temp = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(n);
    if (n % 2 == 0) {
      REQUIRE(::mkfifo(temp.c_str(), 0600) == 0);
      fifos.push_back(temp);
    } else {
      std::filesystem::create_symlink(victim, temp);
    }
  }
  std::vector<int> readers;  // kept open until the writer is done: closing them first would raise SIGPIPE
  auto [in_time, written] = within_10s([&] { return write_cache_file(path, id, vulkan_blob(id, 10)); },
                                       [&] {
                                         for (const std::string& fifo : fifos) {
                                           readers.push_back(::open(fifo.c_str(), O_RDONLY | O_NONBLOCK));
                                         }
                                       });
  for (int fd : readers) ::close(fd);
  CHECK(in_time);
  CHECK(read_file(victim) == std::vector<uint8_t>{'k', 'e', 'e', 'p'});
  if (written) {
    CHECK(read_cache_file(path, id, 1 << 20));  // a name after the taken ones
  } else {
    CHECK_THAT(written.error().message, Catch::Contains("File exists"));  // all 16 names tried were taken
  }
}

TEST_CASE("A FIFO at the cache path is a cache miss with one warning and the save replaces it", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    test::TempDir dir;
    const std::string path = cache_file_path(dir.path().string(), CacheIdentity::of(device->info()));
    REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
    Warnings warnings;
    auto [in_time, cache] = within_10s([&] { return test::make_cache(*device, disk_options(dir, warnings)); },
                                       [&] { ::close(open_writer(path)); });
    REQUIRE(in_time);
    REQUIRE(warnings.list->size() == 1);
    CHECK_THAT(warnings.list->front(), Catch::Contains(path) && Catch::Contains("not a regular file (a FIFO)"));
    CHECK_THAT(cache->stats().disk_status, Catch::StartsWith("ignored"));
    auto shader = test::make_add_shader(*device);
    REQUIRE(cache->get_or_compile({shader.get(), {16, 1, 1}, 0, {}}));
    cache.reset();  // saves: rename(2) replaces the FIFO without opening it
    CHECK(warnings.list->size() == 1);
    CHECK(std::filesystem::is_regular_file(path));
    CHECK(decode_cache_file(read_file(path), CacheIdentity::of(device->info())));
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}
