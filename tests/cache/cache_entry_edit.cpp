// Test helper for disk_cache_trust.cmake: rewrites every kernel entry in a cache so
// that it claims 8 more bytes of arguments, keeping it validly sealed under its own
// key. This is the entry "for another argument layout" that the runtime must rebuild
// instead of failing every launch; only the cache's own API and format are used.
//   cache_entry_edit CACHE_DIR
#include "cache/disk_cache.hpp"
#include "cache/kernel_entry.hpp"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

namespace fs = std::filesystem;
using namespace pacxx::rt;

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: cache_entry_edit CACHE_DIR\n");
    return 2;
  }
  disk_cache::settings s;
  s.directory = argv[1];
  disk_cache cache(s);
  int edited = 0;
  std::vector<fs::path> files; // listed first: storing renames files in the directory
  for (const auto &f : fs::directory_iterator(cache.entries_directory()))
    if (f.path().extension() == disk_cache::entry_extension)
      files.push_back(f.path());
  for (const fs::path &path : files) {
    std::ifstream in(path, std::ios::binary);
    const std::string file(std::istreambuf_iterator<char>(in), {});
    // The key is inside the entry (disk_cache::entry_magic describes the layout).
    std::string why;
    auto body = unseal(disk_cache::entry_magic, file, &why);
    if (!body || body->size() < 8) {
      std::fprintf(stderr, "%s: %s\n", path.c_str(), why.c_str());
      return 1;
    }
    std::uint32_t key_size;
    std::memcpy(&key_size, body->data() + 4, 4); // little-endian hosts only: a test
    const std::string key(body->substr(8, key_size));
    std::string problem;
    auto payload = cache.load(key, &problem);
    auto entry = payload ? unpack_kernel_entry(*payload, &why) : std::nullopt;
    if (!entry) {
      std::fprintf(stderr, "%s: %s%s\n", path.c_str(), problem.c_str(), why.c_str());
      return 1;
    }
    entry->args_size += 8;
    if (!cache.store(key, pack_kernel_entry(*entry), &problem)) {
      std::fprintf(stderr, "%s\n", problem.c_str());
      return 1;
    }
    ++edited;
  }
  std::printf("edited %d entries\n", edited);
  return edited ? 0 : 1;
}
