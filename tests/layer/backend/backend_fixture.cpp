#include "backend_fixture.hpp"

#include <unistd.h>

#include <atomic>
#include <map>
#include <mutex>

#include "bismuth/translator/glsl_compiler.hpp"

namespace bismuth::test {

const std::vector<uint32_t>& spirv_of(const char* source) {
  static std::mutex mutex;
  static std::map<const char*, std::vector<uint32_t>> compiled;
  std::lock_guard lock(mutex);
  auto it = compiled.find(source);
  if (it != compiled.end()) return it->second;
  auto spirv = translator::compile_glsl_compute(source, {.source_name = "backend_test.comp"});
  if (!spirv) FAIL(spirv.error().message);
  return compiled.emplace(source, std::move(*spirv)).first->second;
}

std::unique_ptr<backend::Device> make_device(ValidatedVulkan& vk, const backend::DeviceOptions& options) {
  auto device = backend::Device::create(vk.instance(), vk.selected_device(), options);
  if (!device) FAIL(device.error().message);
  return std::move(*device);
}

namespace {

std::shared_ptr<backend::Shader> make_shader(backend::Device& device, const char* source, backend::BindingLayout layout,
                                             const char* name) {
  backend::ShaderDesc desc;
  desc.spirv = spirv_of(source);
  desc.layout = std::move(layout);
  desc.name = name;
  auto shader = backend::Shader::create(device, desc);
  if (!shader) FAIL(shader.error().message);
  return std::move(*shader);
}

}  // namespace

std::shared_ptr<backend::Shader> make_add_shader(backend::Device& device, const char* name) {
  return make_shader(device, kAddShader,
                     {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, 2 * sizeof(uint32_t)},
                     name);
}

std::shared_ptr<backend::Shader> make_probe_shader(backend::Device& device) {
  return make_shader(device, kSizeProbeShader, {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, 0}, "probe");
}

std::shared_ptr<backend::Shader> make_spin_shader(backend::Device& device) {
  return make_shader(device, kSpinShader, {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, sizeof(uint32_t)}, "spin");
}

backend::PipelineCacheOptions quiet_cache_options() {
  backend::PipelineCacheOptions options;
  options.cache_dir = "off";
  options.print_stats_at_exit = false;
  return options;
}

std::unique_ptr<backend::PipelineCache> make_cache(backend::Device& device, const backend::PipelineCacheOptions& options) {
  auto cache = backend::PipelineCache::create(device, options);
  if (!cache) FAIL(cache.error().message);
  return std::move(*cache);
}

std::shared_ptr<backend::Buffer> make_buffer(backend::Device& device, size_t words) {
  auto buffer = backend::Buffer::create(device, words * sizeof(uint32_t));
  if (!buffer) FAIL(buffer.error().message);
  return std::move(*buffer);
}

std::unique_ptr<backend::CommandStream> make_stream(backend::Device& device, backend::PipelineCache& cache,
                                                    const backend::StreamOptions& options) {
  auto stream = backend::CommandStream::create(device, cache, options);
  if (!stream) FAIL(stream.error().message);
  return std::move(*stream);
}

std::vector<uint32_t> read_words(backend::CommandStream& stream, backend::Buffer& buffer, size_t words) {
  std::vector<uint32_t> out(words);
  auto ok = stream.readback(buffer, 0, std::as_writable_bytes(std::span(out)));
  if (!ok) FAIL(ok.error().message);
  return out;
}

TempDir::TempDir() {
  static std::atomic<int> counter{0};
  path_ = std::filesystem::temp_directory_path() /
          ("bismuth-test-" + std::to_string(getpid()) + "-" + std::to_string(counter.fetch_add(1)));
  std::filesystem::remove_all(path_);
  std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

}  // namespace bismuth::test
