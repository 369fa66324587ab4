#include "spirv_dump.hpp"

#include <cstdlib>
#include <fstream>
#include <string>

namespace bismuth::backend {

void dump_spirv_if_asked(std::string_view shader_name, std::span<const uint32_t> words) {
  // Read at each module creation, not cached: tests change it between programs, and a getenv is nothing next to
  // a vkCreateShaderModule.
  const char* dir = std::getenv("BISMUTH_DUMP_SPIRV");
  if (dir == nullptr || *dir == '\0') return;
  std::string file(shader_name);
  for (char& c : file) {
    const bool plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
                       c == '_' || c == '-';
    if (!plain) c = '_';
  }
  std::ofstream out(std::string(dir) + "/" + (file.empty() ? "shader" : file) + ".spv",
                    std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(words.data()), static_cast<std::streamsize>(words.size_bytes()));
}

}  // namespace bismuth::backend
