#include "support/build_id.hpp"

#include <cstring>
#include <dlfcn.h>
#include <elf.h>
#include <link.h>

namespace pacxx {
namespace rt {

std::string library_build_id() {
  Dl_info self{};
  if (!dladdr(reinterpret_cast<void *>(&library_build_id), &self))
    return "unknown build";
  struct search {
    const void *base;
    std::string id;
  } s{self.dli_fbase, "unknown build"};
  dl_iterate_phdr(
      [](dl_phdr_info *info, std::size_t, void *data) {
        auto *s = static_cast<search *>(data);
        if (reinterpret_cast<const void *>(info->dlpi_addr) != s->base)
          return 0;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr) &ph = info->dlpi_phdr[i];
          if (ph.p_type != PT_NOTE)
            continue;
          const char *p = reinterpret_cast<const char *>(info->dlpi_addr + ph.p_vaddr);
          const char *end = p + ph.p_memsz;
          while (p + sizeof(ElfW(Nhdr)) <= end) {
            auto *n = reinterpret_cast<const ElfW(Nhdr) *>(p);
            const char *name = p + sizeof(ElfW(Nhdr));
            const char *desc = name + ((n->n_namesz + 3) & ~3u);
            if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 &&
                std::memcmp(name, "GNU", 4) == 0) {
              s->id.assign(desc, n->n_descsz);
              return 1;
            }
            p = desc + ((n->n_descsz + 3) & ~3u);
          }
        }
        return 1;
      },
      &s);
  return s.id;
}

} // namespace rt
} // namespace pacxx
