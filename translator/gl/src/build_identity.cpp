// build_identity(): the GNU build ID (ld --build-id, on by default in Debian's toolchain) is a hash of the linked
// module's contents, so it changes with every rebuilt library and with nothing else. The module is found among
// the loaded ones (dl_iterate_phdr) as the one whose PT_LOAD segments hold this function's code.
#include "build_identity.hpp"

#include <elf.h>
#include <link.h>

#include <cstdint>
#include <cstring>

namespace bismuth::gl {

namespace {

struct BuildIdSearch {
  uintptr_t code = 0;
  std::string hex;
};

bool holds_address(const dl_phdr_info& module, uintptr_t address) {
  for (ElfW(Half) i = 0; i < module.dlpi_phnum; ++i) {
    const ElfW(Phdr)& segment = module.dlpi_phdr[i];
    const uintptr_t begin = module.dlpi_addr + segment.p_vaddr;
    if (segment.p_type == PT_LOAD && address >= begin && address - begin < segment.p_memsz) return true;
  }
  return false;
}

// The NT_GNU_BUILD_ID note of a loaded module, in hex; empty when it has none.
std::string build_id_of(const dl_phdr_info& module) {
  for (ElfW(Half) i = 0; i < module.dlpi_phnum; ++i) {
    const ElfW(Phdr)& segment = module.dlpi_phdr[i];
    if (segment.p_type != PT_NOTE) continue;
    const auto* notes = reinterpret_cast<const unsigned char*>(module.dlpi_addr + segment.p_vaddr);
    size_t at = 0;
    auto aligned = [](size_t n) { return (n + 3) & ~size_t{3}; };
    while (at + sizeof(ElfW(Nhdr)) <= segment.p_memsz) {
      ElfW(Nhdr) note;
      std::memcpy(&note, notes + at, sizeof note);
      const size_t name_at = at + sizeof note;
      const size_t desc_at = name_at + aligned(note.n_namesz);
      const size_t next = desc_at + aligned(note.n_descsz);
      if (next > segment.p_memsz) break;
      if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 && std::memcmp(notes + name_at, "GNU", 4) == 0) {
        static constexpr char kDigits[] = "0123456789abcdef";
        std::string hex;
        for (size_t b = 0; b < note.n_descsz; ++b) {
          hex += kDigits[notes[desc_at + b] >> 4];
          hex += kDigits[notes[desc_at + b] & 15];
        }
        return hex;
      }
      at = next;
    }
  }
  return {};
}

}  // namespace

const std::string& build_identity() {
  static const std::string identity = [] {
    BuildIdSearch search;
    search.code = reinterpret_cast<uintptr_t>(&build_identity);
    dl_iterate_phdr(
        [](dl_phdr_info* module, size_t, void* data) {
          auto* s = static_cast<BuildIdSearch*>(data);
          if (!holds_address(*module, s->code)) return 0;
          s->hex = build_id_of(*module);
          return 1;
        },
        &search);
    std::string id = BISMUTH_GL_VERSION;
    if (!search.hex.empty()) id += "+" + search.hex;
    return id;
  }();
  return identity;
}

}  // namespace bismuth::gl
