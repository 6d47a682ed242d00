// Fuzzing the disk cache's entry reader: random and mutated entry files (bit flips,
// truncations, extensions, header field edits, other keys' entries, edits of the key
// binding re-sealed with a valid checksum) go through the real reader, disk_cache::load
// and then unpack_kernel_entry, as the runtime uses them. Whatever lies at a key's
// path, the outcome is a miss or exactly what was stored under that key: never a crash
// (built with AddressSanitizer and UBSan where available), never another kernel.
// A bounded loop with a fixed seed, so that a failure reproduces; a few seconds.
#include "cache/disk_cache.hpp"
#include "cache/kernel_entry.hpp"
#include "files.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <random>

namespace fs = std::filesystem;
using namespace pacxx::rt;

namespace {

using pacxx_test::read_file;
using pacxx_test::write_file;

class fuzzer {
public:
  explicit fuzzer(std::uint64_t seed) : rng_(seed) {}

  std::uint64_t below(std::uint64_t n) { return n ? rng_() % n : 0; }
  bool chance(int percent) { return below(100) < static_cast<std::uint64_t>(percent); }

  std::string bytes(std::size_t n) {
    std::string s(n, '\0');
    for (char &c : s)
      c = static_cast<char>(rng_());
    return s;
  }

  // A value for a size or header field: small, near a boundary, or anything.
  std::uint64_t field() {
    switch (below(4)) {
    case 0:
      return below(64);
    case 1:
      return ~std::uint64_t{0} - below(64);
    case 2:
      return std::uint64_t{1} << below(64);
    default:
      return rng_();
    }
  }

  void put64(std::string &s, std::size_t at, std::uint64_t v) {
    for (int i = 0; i < 8 && at + i < s.size(); ++i)
      s[at + i] = static_cast<char>(v >> (8 * i));
  }

  // One to four mutations of s.
  void mutate(std::string &s) {
    for (std::uint64_t n = 1 + below(4); n--;) {
      switch (below(6)) {
      case 0: // flip a bit
        if (!s.empty())
          s[below(s.size())] ^= static_cast<char>(1 << below(8));
        break;
      case 1: // truncate
        s.resize(below(s.size() + 1));
        break;
      case 2: // extend
        s += bytes(1 + below(64));
        break;
      case 3: // a header field of the envelope (magic, version, size, checksum) or of
              // the key binding behind it (format and key size)
        put64(s, 8 * below(5), field());
        break;
      case 4: // overwrite a run
        if (!s.empty()) {
          const std::size_t at = below(s.size());
          const std::string r = bytes(1 + below(16));
          s.replace(at, std::min(r.size(), s.size() - at), r, 0, std::min(r.size(), s.size() - at));
        }
        break;
      default: // insert or delete in the middle
        if (!s.empty()) {
          const std::size_t at = below(s.size());
          if (chance(50))
            s.insert(at, bytes(1 + below(8)));
          else
            s.erase(at, 1 + below(8));
        }
      }
    }
  }

  std::mt19937_64 &rng() { return rng_; }

private:
  std::mt19937_64 rng_;
};

class DiskCacheFuzz : public ::testing::Test {
protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "pacxx-disk-cache-fuzz-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    root_ = tmpl;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  fs::path root_;
};

} // namespace

TEST_F(DiskCacheFuzz, MutatedAndRandomEntriesAreMissesOrTheirOwnPayload) {
  fuzzer f(13);
  disk_cache::settings s;
  s.directory = root_ / "cache";
  disk_cache c(s);

  // Kernels under keys of the runtime's form (a digest) and of other forms.
  std::vector<std::string> keys;
  std::vector<kernel_entry> kernels;
  std::vector<std::string> files; // each key's valid entry file
  for (int i = 0; i < 10; ++i) {
    keys.push_back(i < 6 ? cache_digest({"kernel", std::to_string(i)})
                         : std::string(i == 6   ? ""
                                       : i == 7 ? "k"
                                                : "a longer key " + std::to_string(i)));
    kernel_entry e;
    e.args_size = 8 * (1 + f.below(8));
    e.args_align = std::uint64_t{1} << f.below(4);
    e.display = "(lambda at fuzz.cpp:" + std::to_string(i) + ")";
    e.binary = f.bytes(1 + f.below(3000));
    kernels.push_back(e);
    ASSERT_TRUE(c.store(keys[i], pack_kernel_entry(e)));
    files.push_back(read_file(c.entry_path(keys[i])));
  }

  int hits = 0, misses = 0;
  for (int round = 0; round < 6000; ++round) {
    const std::size_t t = f.below(keys.size());
    const std::size_t other = (t + 1 + f.below(keys.size() - 1)) % keys.size();
    std::string file;
    const char *kind;
    bool resealed = false;
    switch (f.below(6)) {
    case 0:
      kind = "random bytes";
      file = f.bytes(f.below(200));
      break;
    case 1: // random bytes with a valid seal: past the checksum, into the key binding
      kind = "random sealed";
      resealed = true;
      file = seal(disk_cache::entry_magic, f.bytes(f.below(200)));
      break;
    case 2:
      kind = "another key's entry";
      file = files[other];
      break;
    case 3:
      kind = "mutated";
      file = files[t];
      f.mutate(file);
      break;
    case 4:
      kind = "another key's entry, mutated";
      file = files[other];
      f.mutate(file);
      break;
    default: { // the key binding edited and re-sealed: format, key size, key bytes
      kind = "binding edited, re-sealed";
      resealed = true;
      std::string body(*unseal(disk_cache::entry_magic, files[t], nullptr));
      const std::size_t binding = 8 + keys[t].size();
      std::string head = body.substr(0, binding);
      f.mutate(head);
      body.replace(0, binding, head);
      file = seal(disk_cache::entry_magic, body);
    }
    }
    write_file(c.entry_path(keys[t]), file);
    std::string problem;
    std::optional<std::string> got = c.load(keys[t], &problem);
    // What a correct reader returns. A file we did not seal again is valid only if it
    // is this key's entry unchanged. One sealed again (the checksum is no MAC: that is
    // what the owner check is for) holds a payload for this key exactly when its body
    // begins with this key's binding: format 2, the key's size, the key.
    std::optional<std::string> expected;
    const std::string_view body_of_file = [&] {
      auto b = unseal(disk_cache::entry_magic, file, nullptr);
      return b ? *b : std::string_view();
    }();
    std::string binding = std::string("\2\0\0\0", 4); // little-endian u32s
    for (int i = 0; i < 4; ++i)
      binding += static_cast<char>(keys[t].size() >> (8 * i));
    binding += keys[t];
    if (file == files[t])
      expected = std::string(body_of_file.substr(binding.size()));
    else if (resealed && body_of_file.substr(0, binding.size()) == binding)
      expected = std::string(body_of_file.substr(binding.size()));
    ASSERT_EQ(got.has_value(), expected.has_value())
        << kind << ", round " << round << ": " << (got ? "a hit" : "a miss: " + problem);
    if (!got) {
      ++misses;
      continue;
    }
    ++hits;
    ASSERT_EQ(*got, *expected) << kind << ", round " << round;
    if (file == files[t]) { // this key's own entry unpacks to exactly its kernel
      std::optional<kernel_entry> k = unpack_kernel_entry(*got);
      ASSERT_TRUE(k) << kind << ", round " << round;
      ASSERT_TRUE(*k == kernels[t]) << kind << ", round " << round;
    } else { // a re-sealed payload is data like any other: unpacked exactly or refused
      if (std::optional<kernel_entry> k = unpack_kernel_entry(*got)) {
        ASSERT_EQ(pack_kernel_entry(*k), *got); // braces: ASSERT_EQ is an if/else of its own
      }
    }
  }
  EXPECT_GT(misses, 4000);
  EXPECT_GT(hits, 0) << "some mutations are no-ops (truncation to the full size)";

  // Afterwards the cache works as before for every key.
  for (std::size_t i = 0; i < keys.size(); ++i) {
    ASSERT_TRUE(c.store(keys[i], pack_kernel_entry(kernels[i])));
    std::optional<std::string> got = c.load(keys[i]);
    ASSERT_TRUE(got);
    EXPECT_TRUE(unpack_kernel_entry(*got) == kernels[i]);
  }
}

// The kernel entry unpacking on its own, behind a checksum that a forger (or a bug)
// has got right: whatever it accepts it accepts exactly (packing the result gives the
// input back) and within its bounds; nothing crashes or reads out of bounds.
TEST_F(DiskCacheFuzz, KernelEntryUnpackingIsExactOrRefuses) {
  fuzzer f(1313);
  int accepted = 0;
  for (int round = 0; round < 50000; ++round) {
    std::string bytes;
    if (f.chance(20))
      bytes = f.bytes(f.below(64));
    else {
      kernel_entry e;
      e.args_size = f.chance(80) ? f.below(256) : f.field();
      e.args_align = f.chance(80) ? std::uint64_t{1} << f.below(13) : f.field();
      e.display = f.bytes(f.below(40));
      e.binary = f.bytes(f.below(40));
      bytes = pack_kernel_entry(e);
      if (f.chance(70))
        f.mutate(bytes);
    }
    std::string why;
    std::optional<kernel_entry> k = unpack_kernel_entry(bytes, &why);
    if (!k) {
      ASSERT_FALSE(why.empty());
      continue;
    }
    ++accepted;
    ASSERT_EQ(pack_kernel_entry(*k), bytes) << "round " << round;
    ASSERT_FALSE(k->binary.empty());
    ASSERT_LE(k->args_size, max_kernel_args_bytes);
    ASSERT_TRUE(k->args_align && k->args_align <= 4096 && !(k->args_align & (k->args_align - 1)));
  }
  EXPECT_GT(accepted, 1000);
  EXPECT_LT(accepted, 50000);
}
