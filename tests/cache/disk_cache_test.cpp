// The persistent kernel cache, without a GPU: digests, the integrity envelope, entries,
// corruption, LRU trimming, concurrent writers (threads and processes), configuration.
#include "cache/disk_cache.hpp"
#include "pacxx/error.hpp"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <set>
#include <thread>

namespace fs = std::filesystem;
using pacxx::rt::cache_digest;
using pacxx::rt::disk_cache;

namespace {

std::string read_file(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_file(const fs::path &p, const std::string &bytes) {
  std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes;
}

std::string hex(const std::array<std::uint8_t, 16> &a) {
  static const char digits[] = "0123456789abcdef";
  std::string s;
  for (std::uint8_t b : a)
    s += {digits[b >> 4], digits[b & 15]};
  return s;
}

// Bytes that differ per writer and are long enough for a torn write to show.
std::string payload_for(int writer, std::size_t size = 200000) {
  std::string s(size, '\0');
  for (std::size_t i = 0; i < size; ++i)
    s[i] = static_cast<char>((i * 131 + writer * 7919) >> 3);
  s.replace(0, 16, "writer " + std::to_string(writer) + "        ", 0, 16);
  return s;
}

// File names as strings (gtest cannot print a std::filesystem::path).
std::vector<std::string> files_in(const fs::path &dir) {
  std::vector<std::string> out;
  for (const auto &e : fs::directory_iterator(dir))
    out.push_back(e.path().string());
  return out;
}

std::uint64_t total_size(const fs::path &dir) {
  std::uint64_t n = 0;
  for (const auto &e : fs::directory_iterator(dir))
    n += e.file_size();
  return n;
}

// Sets or unsets environment variables for one scope, restoring them afterwards.
class scoped_env {
public:
  void set(const char *name, const char *value) {
    if (!saved_.count(name)) {
      const char *old = std::getenv(name);
      saved_[name] = old ? std::optional<std::string>(old) : std::nullopt;
    }
    if (value)
      ::setenv(name, value, 1);
    else
      ::unsetenv(name);
  }
  ~scoped_env() {
    for (auto &[name, value] : saved_)
      value ? ::setenv(name.c_str(), value->c_str(), 1) : ::unsetenv(name.c_str());
  }

private:
  std::map<std::string, std::optional<std::string>> saved_;
};

class DiskCache : public ::testing::Test {
protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "pacxx-disk-cache-test-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    root_ = tmpl;
    dir_ = root_ / "nested" / "cache"; // store() creates it
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  disk_cache make(std::uint64_t max_bytes = std::uint64_t{1} << 30) const {
    disk_cache::settings s;
    s.directory = dir_;
    s.max_bytes = max_bytes;
    return disk_cache(s);
  }

  fs::path root_, dir_;
};

} // namespace

// ---- Hashes ----------------------------------------------------------------------

TEST(CacheDigest, SipHashReferenceVectors) {
  // From the SipHash reference implementation's vectors.h: key 00..0f, message
  // 00..(n-1) for n bytes.
  std::uint8_t key[16];
  for (int i = 0; i < 16; ++i)
    key[i] = static_cast<std::uint8_t>(i);
  std::string msg;
  for (int i = 0; i < 64; ++i)
    msg += static_cast<char>(i);
  const std::pair<std::size_t, const char *> vectors128[] = {
      {0, "a3817f04ba25a8e66df67214c7550293"},  {1, "da87c1d86b99af44347659119b22fc45"},
      {7, "a1f1ebbed8dbc153c0b84aa61ff08239"},  {8, "3b62a9ba6258f5610f83e264f31497b4"},
      {15, "5493e99933b0a8117e08ec0f97cfc3d9"}, {16, "6ee2a4ca67b054bbfd3315bf85230577"},
      {63, "5150d1772f50834a503e069a973fbd7c"},
  };
  for (auto [n, expected] : vectors128)
    EXPECT_EQ(hex(pacxx::rt::detail::siphash128(key, std::string_view(msg).substr(0, n))),
              expected)
        << n << " bytes";
  EXPECT_EQ(pacxx::rt::detail::siphash64(key, ""), 0x726fdb47dd0e0e31ull);
}

TEST(CacheDigest, StableAndSensitiveToEveryPart) {
  const std::vector<std::string_view> parts = {"pacxx 0.1", "LLVM 15.0.7", "cuda",
                                               "NVIDIA H100", "sm_90", "CUDA 13.0",
                                               "define void @k() { ret void }", "n=1024", "-O3"};
  const std::string d = cache_digest(parts);
  EXPECT_EQ(d.size(), 32u);
  EXPECT_EQ(d.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(cache_digest(parts), d);
  // Pinned: a change of the function invalidates every user's cache.
  EXPECT_EQ(cache_digest({"a", "bc"}), "e003547714d2328419a515ac7280ea1c");

  std::set<std::string> seen = {d};
  for (std::size_t i = 0; i < parts.size(); ++i) {
    for (const std::string &changed :
         {std::string(parts[i]) + "x", std::string(parts[i]).substr(1), std::string()}) {
      auto p = parts;
      p[i] = changed;
      EXPECT_TRUE(seen.insert(cache_digest(p)).second) << "part " << i << " -> '" << changed << "'";
    }
  }
  // Length prefixes: moving a boundary, adding an empty part or dropping one all differ.
  EXPECT_NE(cache_digest({"ab", "c"}), cache_digest({"a", "bc"}));
  EXPECT_NE(cache_digest({"a"}), cache_digest({"a", ""}));
  EXPECT_NE(cache_digest({}), cache_digest({""}));
  EXPECT_NE(cache_digest({std::string_view("a\0b", 3)}), cache_digest({"a"}));
}

TEST(CacheDigest, SealDetectsTruncationAndCorruption) {
  using pacxx::rt::seal;
  using pacxx::rt::unseal;
  const std::string bytes = payload_for(1, 1000);
  const std::string sealed = seal("TESTMAGC", bytes);
  ASSERT_EQ(sealed.size(), pacxx::rt::seal_header_size + bytes.size());
  std::string why;
  auto back = unseal("TESTMAGC", sealed, &why);
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, bytes);
  EXPECT_EQ(unseal("TESTMAGC", seal("TESTMAGC", ""), &why).value_or("x"), "");

  EXPECT_FALSE(unseal("OTHERMAG", sealed, &why));
  EXPECT_EQ(why, "wrong magic");
  EXPECT_FALSE(unseal("TESTMAGC", sealed.substr(0, sealed.size() - 1), &why));
  EXPECT_NE(why.find("truncated"), std::string::npos) << why;
  EXPECT_FALSE(unseal("TESTMAGC", sealed.substr(0, 5), &why));
  EXPECT_NE(why.find("truncated"), std::string::npos) << why;
  EXPECT_FALSE(unseal("TESTMAGC", sealed + "x", &why));
  EXPECT_NE(why.find("overlong"), std::string::npos) << why;
  for (std::size_t pos : {std::size_t(9), std::size_t(20), std::size_t(28), std::size_t(40),
                          sealed.size() - 1}) {
    std::string bad = sealed;
    bad[pos] ^= 1;
    EXPECT_FALSE(unseal("TESTMAGC", bad, &why)) << "flip at " << pos;
  }
}

// ---- Entries -----------------------------------------------------------------------

TEST_F(DiskCache, RoundTrip) {
  disk_cache c = make();
  ASSERT_TRUE(c.enabled());
  std::string problem;
  EXPECT_FALSE(c.load("0123abcd", &problem));
  EXPECT_EQ(problem, "") << "a plain miss is no problem";

  const std::string bin = std::string("\x7f" "ELF\0\0binary\0", 13) + payload_for(3);
  ASSERT_TRUE(c.store("0123abcd", bin, &problem)) << problem;
  EXPECT_TRUE(fs::is_directory(dir_));
  EXPECT_EQ(c.entry_path("0123abcd").string(), (dir_ / "0123abcd.pxc").string());
  auto got = c.load("0123abcd", &problem);
  ASSERT_TRUE(got) << problem;
  EXPECT_EQ(*got, bin);

  ASSERT_TRUE(c.store("0123abcd", "replaced", &problem)) << problem;
  EXPECT_EQ(c.load("0123abcd").value_or(""), "replaced");
  ASSERT_TRUE(c.store("empty", ""));
  EXPECT_EQ(c.load("empty").value_or("x"), "");

  // A key that is not a plain file name lives under its digest, inside the directory.
  const std::string odd = "../../etc/passwd key with spaces";
  ASSERT_TRUE(c.store(odd, "odd"));
  EXPECT_EQ(c.entry_path(odd).parent_path().string(), dir_.string());
  EXPECT_EQ(c.load(odd).value_or(""), "odd");

  // Another instance (another process, later) sees the same entries.
  EXPECT_EQ(make().load("0123abcd").value_or(""), "replaced");
  for (const std::string &p : files_in(dir_))
    EXPECT_EQ(fs::path(p).extension().string(), ".pxc") << p << " (temporaries must not stay)";
}

TEST_F(DiskCache, CorruptEntriesAreReportedRemovedAndReplaced) {
  disk_cache c = make();
  const std::string key = cache_digest({"kernel", "sm_90"});
  const std::string payload = payload_for(5);
  const fs::path file = c.entry_path(key);
  struct damage {
    const char *what;
    std::function<void()> apply;
    const char *expected;
  };
  const damage cases[] = {
      {"truncated payload", [&] { fs::resize_file(file, fs::file_size(file) / 2); }, "truncated"},
      {"truncated header", [&] { fs::resize_file(file, 10); }, "truncated"},
      {"empty file", [&] { fs::resize_file(file, 0); }, "truncated"},
      {"flipped payload byte",
       [&] {
         std::string b = read_file(file);
         b[b.size() / 2] ^= 0x20;
         write_file(file, b);
       },
       "checksum"},
      {"flipped magic",
       [&] {
         std::string b = read_file(file);
         b[1] ^= 0x20;
         write_file(file, b);
       },
       "wrong magic"},
      {"appended garbage", [&] { std::ofstream(file, std::ios::app) << "junk"; }, "overlong"},
  };
  for (const damage &d : cases) {
    SCOPED_TRACE(d.what);
    std::string problem;
    ASSERT_TRUE(c.store(key, payload, &problem)) << problem;
    d.apply();
    EXPECT_FALSE(c.load(key, &problem));
    EXPECT_NE(problem.find(d.expected), std::string::npos) << problem;
    EXPECT_NE(problem.find(file.string()), std::string::npos) << problem;
    EXPECT_NE(problem.find("removed"), std::string::npos) << problem;
    EXPECT_FALSE(fs::exists(file)) << "a bad entry must be deleted";
    problem.clear();
    EXPECT_FALSE(c.load(key, &problem));
    EXPECT_EQ(problem, "") << "then it is a plain miss";
    ASSERT_TRUE(c.store(key, payload, &problem)) << problem;
    EXPECT_EQ(c.load(key, &problem).value_or(""), payload) << problem;
  }
}

TEST_F(DiskCache, DisabledStoresAndFindsNothing) {
  disk_cache::settings s;
  s.enabled = false;
  s.directory = dir_;
  s.note = "PACXX_CACHE=0";
  disk_cache c(s);
  EXPECT_FALSE(c.enabled());
  std::string problem;
  EXPECT_FALSE(c.store("k", "payload", &problem));
  EXPECT_NE(problem.find("off (PACXX_CACHE=0)"), std::string::npos) << problem;
  EXPECT_FALSE(c.load("k"));
  EXPECT_FALSE(fs::exists(dir_));
  // An enabled cache's entry is not seen through a disabled one.
  ASSERT_TRUE(make().store("k", "payload"));
  EXPECT_FALSE(c.load("k"));

  scoped_env env;
  env.set("PACXX_CACHE_DIR", dir_.c_str());
  env.set("PACXX_CACHE", "0");
  disk_cache from_env;
  EXPECT_FALSE(from_env.enabled());
  EXPECT_EQ(from_env.describe(), "disk cache: off (PACXX_CACHE=0)");
  EXPECT_FALSE(from_env.load("k"));
  env.set("PACXX_CACHE", "1");
  EXPECT_TRUE(disk_cache().enabled());
  EXPECT_EQ(disk_cache().load("k").value_or(""), "payload");
}

TEST_F(DiskCache, WriteFailuresDoNotThrow) {
  // The "directory" lies under a regular file: it can be neither created nor written.
  write_file(root_ / "file", "x");
  disk_cache::settings s;
  s.directory = root_ / "file" / "cache";
  disk_cache c(s);
  std::string problem;
  EXPECT_FALSE(c.store("k", "payload", &problem));
  EXPECT_NE(problem.find("cannot create"), std::string::npos) << problem;
  EXPECT_FALSE(c.load("k", &problem));
  // An entry larger than the whole bound is refused up front.
  EXPECT_FALSE(make(1000).store("k", std::string(2000, 'x'), &problem));
  EXPECT_NE(problem.find("exceeds"), std::string::npos) << problem;
}

TEST_F(DiskCache, TrimmingKeepsTheMostRecentlyUsedWithinTheBound) {
  const std::size_t payload = 1000, file = payload + pacxx::rt::seal_header_size;
  disk_cache c = make(3 * file + 100); // room for three entries
  const auto now = fs::file_time_type::clock::now();
  for (int i = 0; i < 3; ++i) {
    const std::string key = "e" + std::to_string(i);
    ASSERT_TRUE(c.store(key, std::string(payload, char('a' + i))));
    // Used 300, 200, 100 s ago: deterministic order despite coarse file times.
    fs::last_write_time(c.entry_path(key), now - std::chrono::seconds(300 - 100 * i));
  }
  ASSERT_TRUE(c.load("e0")); // e0 is now the most recently used; e1 the least
  ASSERT_TRUE(c.store("e3", std::string(payload, 'd')));
  EXPECT_TRUE(fs::exists(c.entry_path("e0")));
  EXPECT_FALSE(fs::exists(c.entry_path("e1"))) << "least recently used goes first";
  EXPECT_TRUE(fs::exists(c.entry_path("e2")));
  EXPECT_TRUE(fs::exists(c.entry_path("e3")));
  EXPECT_LE(total_size(dir_), c.max_bytes());

  // Many more stores: always within the bound, the newest always kept.
  for (int i = 4; i < 40; ++i) {
    const std::string key = "e" + std::to_string(i);
    ASSERT_TRUE(c.store(key, std::string(payload + i, 'x')));
    EXPECT_LE(total_size(dir_), c.max_bytes());
    EXPECT_TRUE(c.load(key));
  }
  EXPECT_EQ(files_in(dir_).size(), 2u); // payloads grew: two of the larger ones fit

  // A writer's temporary left by a crash is removed once stale; a fresh one is not.
  write_file(dir_ / "x.1-2-3.tmp", "stale");
  fs::last_write_time(dir_ / "x.1-2-3.tmp", now - std::chrono::hours(2));
  write_file(dir_ / "y.1-2-4.tmp", "in progress");
  write_file(dir_ / "unrelated.txt", "not ours");
  ASSERT_TRUE(c.store("e40", "x"));
  EXPECT_FALSE(fs::exists(dir_ / "x.1-2-3.tmp"));
  EXPECT_TRUE(fs::exists(dir_ / "y.1-2-4.tmp"));
  EXPECT_TRUE(fs::exists(dir_ / "unrelated.txt"));
}

TEST_F(DiskCache, ConcurrentStoresFromThreads) {
  disk_cache c = make();
  const std::string key = cache_digest({"same kernel"});
  std::set<std::string> valid;
  for (int t = 0; t < 8; ++t)
    valid.insert(payload_for(t));
  std::atomic<int> bad{0}, hits{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      const std::string mine = payload_for(t);
      for (int i = 0; i < 25; ++i) {
        std::string problem;
        if (!c.store(key, mine, &problem))
          ++bad;
        // Readers racing with writers see a whole entry or none, never a torn one.
        if (auto got = c.load(key, &problem)) {
          ++hits;
          bad += !valid.count(*got);
        }
        bad += !problem.empty();
      }
    });
  for (auto &t : threads)
    t.join();
  EXPECT_EQ(bad, 0);
  EXPECT_GT(hits, 0);
  auto got = c.load(key);
  ASSERT_TRUE(got);
  EXPECT_TRUE(valid.count(*got));
  EXPECT_EQ(files_in(dir_), std::vector<std::string>{c.entry_path(key).string()});
}

TEST_F(DiskCache, ConcurrentStoresFromProcesses) {
  const std::string key = cache_digest({"same kernel", "processes"});
  std::vector<pid_t> children;
  for (int p = 0; p < 4; ++p) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) { // the child: no gtest assertions, only an exit status
      disk_cache c = make(); // its own instance, as another program would have
      std::set<std::string> valid;
      for (int q = 0; q < 4; ++q)
        valid.insert(payload_for(100 + q));
      int bad = 0;
      for (int i = 0; i < 25; ++i) {
        std::string problem;
        bad += !c.store(key, payload_for(100 + p), &problem);
        if (auto got = c.load(key, &problem))
          bad += !valid.count(*got);
        bad += !problem.empty();
      }
      ::_exit(bad == 0 ? 0 : 1);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child " << pid;
  }
  disk_cache c = make();
  auto got = c.load(key);
  ASSERT_TRUE(got);
  bool one_of_them = false;
  for (int q = 0; q < 4; ++q)
    one_of_them |= *got == payload_for(100 + q);
  EXPECT_TRUE(one_of_them);
  EXPECT_EQ(files_in(dir_), std::vector<std::string>{c.entry_path(key).string()});
}

// ---- Configuration -----------------------------------------------------------------

TEST(DiskCacheConfig, DirectoryFromTheEnvironment) {
  scoped_env env;
  env.set("PACXX_CACHE", nullptr);
  env.set("PACXX_CACHE_MAX_MB", nullptr);
  env.set("PACXX_CACHE_DIR", "/somewhere/explicit");
  env.set("XDG_CACHE_HOME", "/xdg/cache");
  env.set("HOME", "/home/user");
  EXPECT_EQ(disk_cache().directory().string(), "/somewhere/explicit");
  EXPECT_TRUE(disk_cache().enabled());

  env.set("PACXX_CACHE_DIR", ""); // empty counts as unset
  EXPECT_EQ(disk_cache().directory().string(), "/xdg/cache/pacxx");
  env.set("PACXX_CACHE_DIR", nullptr);
  EXPECT_EQ(disk_cache().directory().string(), "/xdg/cache/pacxx");

  env.set("XDG_CACHE_HOME", "relative/cache"); // the XDG spec says: ignore it
  EXPECT_EQ(disk_cache().directory().string(), "/home/user/.cache/pacxx");
  env.set("XDG_CACHE_HOME", nullptr);
  EXPECT_EQ(disk_cache().directory().string(), "/home/user/.cache/pacxx");
  EXPECT_EQ(disk_cache().describe(), "disk cache: /home/user/.cache/pacxx (at most 1024 MB)");

  env.set("HOME", nullptr);
  disk_cache none;
  EXPECT_FALSE(none.enabled());
  EXPECT_NE(none.note().find("HOME"), std::string::npos) << none.note();
  EXPECT_FALSE(none.store("k", "v"));
}

TEST(DiskCacheConfig, SizeBoundFromTheEnvironment) {
  scoped_env env;
  env.set("PACXX_CACHE", nullptr);
  env.set("PACXX_CACHE_DIR", "/tmp/pacxx-cache-config-test");
  env.set("PACXX_CACHE_MAX_MB", nullptr);
  EXPECT_EQ(disk_cache().max_bytes(), std::uint64_t{1024} << 20);
  env.set("PACXX_CACHE_MAX_MB", "5");
  EXPECT_EQ(disk_cache().max_bytes(), std::uint64_t{5} << 20);
  EXPECT_EQ(disk_cache().note(), "");
  // A malformed bound is an error (config.hpp), never a silent default.
  for (const char *bad : {"lots", "-3"}) {
    env.set("PACXX_CACHE_MAX_MB", bad);
    try {
      disk_cache c;
      ADD_FAILURE() << "PACXX_CACHE_MAX_MB=" << bad << " accepted: " << c.describe();
    } catch (const pacxx::error &e) {
      EXPECT_NE(std::string(e.what()).find(std::string("PACXX_CACHE_MAX_MB=") + bad +
                                           " is not a number of megabytes"),
                std::string::npos)
          << e.what();
    }
  }
  env.set("PACXX_CACHE_MAX_MB", "0");
  EXPECT_FALSE(disk_cache().enabled());
}
