// The persistent kernel cache, without a GPU: digests, the integrity envelope, entries,
// corruption, LRU trimming, concurrent writers (threads and processes), trust (its own
// subdirectory, key binding, links, FIFOs, huge files, owners and modes), configuration.
#include "cache/disk_cache.hpp"
#include "files.hpp"
#include "pacxx/error.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <chrono>
#include <csignal>
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

using pacxx_test::read_file;
using pacxx_test::write_file;

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

  // Where the entries are: pacxx's own subdirectory of the configured one.
  fs::path entries() const { return dir_ / disk_cache::entries_subdirectory; }

  fs::path root_, dir_;
};

mode_t mode_of(const fs::path &p) {
  struct stat st;
  return ::lstat(p.c_str(), &st) == 0 ? st.st_mode & 07777 : 0;
}

// Restores the umask at the end of a scope.
struct scoped_umask {
  mode_t old;
  explicit scoped_umask(mode_t m) : old(::umask(m)) {}
  ~scoped_umask() { ::umask(old); }
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
    EXPECT_EQ(hex(pacxx::rt::detail::siphash128(key, std::string_view(msg).substr(0, n))), expected)
        << n << " bytes";
  EXPECT_EQ(pacxx::rt::detail::siphash64(key, ""), 0x726fdb47dd0e0e31ull);
}

TEST(CacheDigest, StableAndSensitiveToEveryPart) {
  const std::vector<std::string_view> parts = {"pacxx 0.1",
                                               "LLVM 15.0.7",
                                               "cuda",
                                               "NVIDIA H100",
                                               "sm_90",
                                               "CUDA 13.0",
                                               "define void @k() { ret void }",
                                               "n=1024",
                                               "-O3"};
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
  for (std::size_t pos :
       {std::size_t(9), std::size_t(20), std::size_t(28), std::size_t(40), sealed.size() - 1}) {
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

  const std::string bin = std::string("\x7f"
                                      "ELF\0\0binary\0",
                                      13) +
                          payload_for(3);
  ASSERT_TRUE(c.store("0123abcd", bin, &problem)) << problem;
  EXPECT_TRUE(fs::is_directory(dir_));
  // Named after the key's digest, in pacxx's own subdirectory.
  EXPECT_EQ(c.entry_path("0123abcd").string(),
            (dir_ / "kernels-v2" / (cache_digest({"0123abcd"}) + ".pxc")).string());
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
  EXPECT_EQ(c.entry_path(odd).parent_path().string(), entries().string());
  EXPECT_EQ(c.load(odd).value_or(""), "odd");

  // Another instance (another process, later) sees the same entries.
  EXPECT_EQ(make().load("0123abcd").value_or(""), "replaced");
  for (const std::string &p : files_in(entries()))
    EXPECT_EQ(fs::path(p).extension().string(), ".pxc") << p << " (temporaries must not stay)";
  EXPECT_EQ(files_in(dir_), std::vector<std::string>{entries().string()});
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
  // An entry file: envelope, format and key size (8 bytes), key ("eN", 2 or 3), payload.
  const std::size_t payload = 1000, file = payload + pacxx::rt::seal_header_size + 8 + 2;
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
  EXPECT_LE(total_size(entries()), c.max_bytes());

  // Many more stores: always within the bound, the newest always kept.
  for (int i = 4; i < 40; ++i) {
    const std::string key = "e" + std::to_string(i);
    ASSERT_TRUE(c.store(key, std::string(payload + i, 'x')));
    EXPECT_LE(total_size(entries()), c.max_bytes());
    EXPECT_TRUE(c.load(key));
  }
  EXPECT_EQ(files_in(entries()).size(), 2u); // payloads grew: two of the larger ones fit

  // A writer's temporary left by a crash is removed once stale; a fresh one is not.
  const std::string d = cache_digest({"x"});
  write_file(entries() / (d + ".1-2-3.tmp"), "stale");
  fs::last_write_time(entries() / (d + ".1-2-3.tmp"), now - std::chrono::hours(2));
  write_file(entries() / (d + ".1-2-4.tmp"), "in progress");
  ASSERT_TRUE(c.store("e40", "x"));
  EXPECT_FALSE(fs::exists(entries() / (d + ".1-2-3.tmp")));
  EXPECT_TRUE(fs::exists(entries() / (d + ".1-2-4.tmp")));
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
  EXPECT_EQ(files_in(entries()), std::vector<std::string>{c.entry_path(key).string()});
}

TEST_F(DiskCache, ConcurrentStoresFromProcesses) {
  const std::string key = cache_digest({"same kernel", "processes"});
  std::vector<pid_t> children;
  for (int p = 0; p < 4; ++p) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {          // the child: no gtest assertions, only an exit status
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
  EXPECT_EQ(files_in(entries()), std::vector<std::string>{c.entry_path(key).string()});
}

// ---- Issue 13: files that are not the cache's own ----------------------------------

// PACXX_CACHE_DIR may name a directory with the user's files, even ones named like
// the cache's (*.tmp an hour old, *.pxc): trimming over the bound deleted them all.
TEST_F(DiskCache, UserFilesInTheConfiguredDirectorySurviveTrimming) {
  fs::create_directories(dir_);
  const auto old = fs::file_time_type::clock::now() - std::chrono::hours(5);
  const std::vector<std::string> mine = {"notes.tmp", "thesis.pxc", "a.1-2-3.tmp", "data.bin",
                                         cache_digest({"k0"}) + ".pxc"};
  for (const std::string &n : mine) {
    write_file(dir_ / n, std::string(4000, 'u'));
    fs::last_write_time(dir_ / n, old); // older than any entry, and than an hour
  }
  disk_cache c = make(3000); // the user's files alone are over the bound
  for (int i = 0; i < 20; ++i)
    ASSERT_TRUE(c.store("k" + std::to_string(i), std::string(900, 'p')));
  for (const std::string &n : mine)
    EXPECT_TRUE(fs::exists(dir_ / n)) << n << " was deleted";
  EXPECT_LE(total_size(entries()), c.max_bytes()) << "the bound still holds for entries";
  EXPECT_TRUE(c.load("k19"));

  // Inside pacxx's subdirectory too, only names of exactly the entry and temporary
  // forms are touched: not a near miss (upper case, short digest, other suffix).
  const std::string d = cache_digest({"z"});
  std::string upper = d;
  for (char &ch : upper)
    ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  const std::vector<std::string> near = {upper + ".pxc", d.substr(1) + ".pxc", d + ".pxc.bak",
                                         d + ".1-2.tmp", d + ".x-2-3.tmp",     "x" + d + ".pxc"};
  for (const std::string &n : near) {
    write_file(entries() / n, std::string(4000, 'n'));
    fs::last_write_time(entries() / n, old);
  }
  ASSERT_TRUE(c.store("k20", std::string(900, 'p')));
  for (const std::string &n : near)
    EXPECT_TRUE(fs::exists(entries() / n)) << n << " was deleted";
}

// pacxx-info --cache and --clear-cache (issue 15): entries are counted and sized,
// cleared with writers' temporaries, and nothing else is touched, in a trusted
// directory only.
TEST_F(DiskCache, MeasureAndClearTouchOnlyTheCachesOwnFiles) {
  disk_cache c = make();
  EXPECT_EQ(c.measure().entries, 0u) << "nothing stored yet";
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(c.store("k" + std::to_string(i), std::string(1000, 'p')));
  const disk_cache::usage u = c.measure();
  EXPECT_EQ(u.entries, 3u);
  EXPECT_EQ(u.bytes, total_size(entries()));
  const std::string d = cache_digest({"z"});
  const std::vector<std::string> mine = {"notes.txt", d + ".pxc.bak", "x" + d + ".pxc"};
  for (const std::string &n : mine)
    write_file(entries() / n, "the user's");
  write_file(dir_ / "notes.txt", "the user's");
  write_file(entries() / (d + ".1-2-3.tmp"), "a writer's");

  std::string problem;
  ASSERT_EQ(::chmod(entries().c_str(), 0777), 0);
  EXPECT_EQ(c.clear(&problem).entries, 0u) << "an untrusted directory is left alone";
  EXPECT_NE(problem.find("writable by other users"), std::string::npos) << problem;
  ASSERT_EQ(::chmod(entries().c_str(), 0700), 0);

  problem.clear();
  const disk_cache::usage removed = c.clear(&problem);
  EXPECT_EQ(problem, "");
  EXPECT_EQ(removed.entries, 3u);
  EXPECT_EQ(removed.bytes, u.bytes);
  EXPECT_EQ(c.measure().entries, 0u);
  EXPECT_FALSE(c.load("k0"));
  EXPECT_FALSE(fs::exists(entries() / (d + ".1-2-3.tmp")));
  for (const std::string &n : mine)
    EXPECT_TRUE(fs::exists(entries() / n)) << n << " was deleted";
  EXPECT_TRUE(fs::exists(dir_ / "notes.txt"));
}

// ---- Issue 13: an entry is bound to its key -------------------------------------------

// Copying (or linking, or renaming) one valid entry over another key's name served
// the other key's kernel: wrong results, or a failure on every run.
TEST_F(DiskCache, AnEntryUnderAnotherKeysNameIsAMiss) {
  disk_cache c = make();
  const std::string a = cache_digest({"kernel a"}), b = cache_digest({"kernel b"});
  struct how {
    const char *what;
    std::function<void()> swap;
  };
  const how ways[] = {
      {"copy",
       [&] {
         fs::copy_file(c.entry_path(a), c.entry_path(b), fs::copy_options::overwrite_existing);
       }},
      {"hard link",
       [&] {
         fs::remove(c.entry_path(b));
         fs::create_hard_link(c.entry_path(a), c.entry_path(b));
       }},
      {"rename", [&] { fs::rename(c.entry_path(a), c.entry_path(b)); }},
  };
  for (const how &w : ways) {
    SCOPED_TRACE(w.what);
    ASSERT_TRUE(c.store(a, "payload of a"));
    ASSERT_TRUE(c.store(b, "payload of b"));
    w.swap();
    std::string problem;
    EXPECT_FALSE(c.load(b, &problem)) << "b's name holds a's entry";
    EXPECT_NE(problem.find("another key"), std::string::npos) << problem;
    EXPECT_FALSE(fs::exists(c.entry_path(b))) << "removed";
    ASSERT_TRUE(c.store(b, "payload of b")); // the runtime rebuilds and stores
    EXPECT_EQ(c.load(b).value_or(""), "payload of b");
    if (fs::exists(c.entry_path(a))) { // braces: EXPECT_EQ is an if/else of its own
      EXPECT_EQ(c.load(a).value_or(""), "payload of a");
    }
  }
  // Two keys with the same digest cannot be produced, but keys that differ only in
  // what follows a common prefix, or in length, must not match each other's entries.
  write_file(c.entry_path("key"), pacxx::rt::seal(disk_cache::entry_magic,
                                                  std::string("\2\0\0\0\4\0\0\0keyXpayload", 19)));
  std::string problem;
  EXPECT_FALSE(c.load("key", &problem));
  EXPECT_NE(problem.find("another key"), std::string::npos) << problem;
}

// Entries of format 1 (payload directly in the envelope) or of an unknown format
// are misses, never payloads.
TEST_F(DiskCache, EntriesOfAnotherFormatAreMisses) {
  disk_cache c = make();
  ASSERT_TRUE(c.store("k", "new"));
  std::string problem;
  write_file(c.entry_path("k"), pacxx::rt::seal(disk_cache::entry_magic, "old payload"));
  EXPECT_FALSE(c.load("k", &problem));
  EXPECT_NE(problem.find("format"), std::string::npos) << problem;
  write_file(c.entry_path("k"),
             pacxx::rt::seal(disk_cache::entry_magic, std::string("\3\0\0\0\1\0\0\0kpayload", 16)));
  EXPECT_FALSE(c.load("k", &problem));
  EXPECT_NE(problem.find("entry format 3"), std::string::npos) << problem;
  // An old-layout entry in the configured directory itself is not read (nor deleted).
  write_file(dir_ / "k.pxc", pacxx::rt::seal(disk_cache::entry_magic, "old payload"));
  EXPECT_FALSE(c.load("k"));
  EXPECT_TRUE(fs::exists(dir_ / "k.pxc"));
}

// ---- Issue 13: what lies at an entry's path -------------------------------------------

// Runs f in a child process that SIGALRM kills after `seconds`: a hang fails the test
// instead of stopping it. f's return value is the child's exit status.
::testing::AssertionResult finishes_within(unsigned seconds, const std::function<int()> &f) {
  const pid_t pid = ::fork();
  if (pid < 0)
    return ::testing::AssertionFailure() << "fork failed";
  if (pid == 0) {
    ::alarm(seconds);
    ::_exit(f());
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (WIFSIGNALED(status))
    return ::testing::AssertionFailure() << "killed by signal " << WTERMSIG(status)
                                         << (WTERMSIG(status) == SIGALRM ? " (it hung)" : "");
  if (WEXITSTATUS(status) != 0)
    return ::testing::AssertionFailure() << "exit status " << WEXITSTATUS(status);
  return ::testing::AssertionSuccess();
}

// A FIFO at the entry's path: open() for reading waited forever for a writer.
TEST_F(DiskCache, AFifoAtAnEntrysPathDoesNotHang) {
  disk_cache c = make();
  ASSERT_TRUE(c.store("k", "payload"));
  fs::remove(c.entry_path("k"));
  ASSERT_EQ(::mkfifo(c.entry_path("k").c_str(), 0600), 0);
  EXPECT_TRUE(finishes_within(10, [&] {
    std::string problem;
    const bool miss = !c.load("k", &problem);
    return miss && problem.find("not a regular file") != std::string::npos ? 0 : 1;
  }));
  // Storing replaces the FIFO with an entry (the runtime stores after rebuilding).
  ASSERT_TRUE(c.store("k", "payload"));
  EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(c.entry_path("k"))));
  EXPECT_EQ(c.load("k").value_or(""), "payload");

  // Nor a FIFO in the place of the entries directory or of the configured one.
  for (const fs::path &p : {entries(), dir_}) {
    SCOPED_TRACE(p.string());
    fs::remove_all(dir_);
    fs::create_directories(p.parent_path());
    ASSERT_EQ(::mkfifo(p.c_str(), 0600), 0);
    EXPECT_TRUE(finishes_within(10, [&] {
      std::string p1, p2;
      const bool refused = !c.load("k", &p1) && !c.store("k", "payload", &p2);
      // Refused, naming the path ("a symbolic link or not a directory", or
      // "Not a directory").
      const bool named =
          p1.find(p.string()) != std::string::npos && p2.find(p.string()) != std::string::npos;
      return refused && named ? 0 : 1;
    }));
  }
}

// A symbolic link is never followed: not to an endless device, not to a huge file,
// not even to a valid entry elsewhere (it would not be the cache's own file).
TEST_F(DiskCache, ASymbolicLinkAtAnEntrysPathIsNotFollowed) {
  disk_cache c = make();
  ASSERT_TRUE(c.store("k", "payload"));
  fs::rename(c.entry_path("k"), root_ / "elsewhere.pxc");
  for (const fs::path &target :
       {fs::path("/dev/zero"), fs::path("/dev/urandom"), root_ / "elsewhere.pxc"}) {
    SCOPED_TRACE(target.string());
    fs::create_symlink(target, c.entry_path("k"));
    EXPECT_TRUE(finishes_within(10, [&] {
      std::string problem;
      const bool miss = !c.load("k", &problem);
      return miss && problem.find("symbolic link") != std::string::npos ? 0 : 1;
    }));
    EXPECT_TRUE(fs::is_symlink(c.entry_path("k"))) << "left alone; a store replaces it";
    ASSERT_TRUE(c.store("k", "payload"));
    EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(c.entry_path("k"))));
    EXPECT_EQ(c.load("k").value_or(""), "payload");
    fs::remove(c.entry_path("k"));
  }
  EXPECT_TRUE(fs::exists(root_ / "elsewhere.pxc")) << "a link's target is never removed";
}

// A huge file at an entry's path is not read into memory (sparse: costs no disk).
TEST_F(DiskCache, AnOversizedEntryIsNotRead) {
  disk_cache c = make(std::uint64_t{8} << 30);
  ASSERT_TRUE(c.store("k", "payload"));
  fs::resize_file(c.entry_path("k"), std::uint64_t{4} << 30);
  EXPECT_TRUE(finishes_within(10, [&] {
    std::string problem;
    const bool miss = !c.load("k", &problem);
    return miss && problem.find("more than an entry may have") != std::string::npos ? 0 : 1;
  }));
  EXPECT_FALSE(c.load("k"));
  EXPECT_FALSE(fs::exists(c.entry_path("k"))) << "ours and invalid: removed";
  // Nothing is stored that could not be read back.
  std::string problem;
  EXPECT_FALSE(c.store("big", std::string(disk_cache::max_entry_bytes, 'x'), &problem));
  EXPECT_NE(problem.find("exceeds"), std::string::npos) << problem;
}

// ---- Issue 13: permissions and trust --------------------------------------------------

// Device binaries are native code the process loads: the directory pacxx creates is
// 0700 and entries 0600, whatever the umask (0 would leave them writable by all; 0277
// would leave a directory pacxx itself could not write).
TEST_F(DiskCache, ModesDoNotDependOnTheUmask) {
  for (mode_t mask : {mode_t(0), mode_t(022), mode_t(0277)}) {
    SCOPED_TRACE("umask " + std::to_string(mask));
    fs::remove_all(root_ / "nested");
    scoped_umask um(mask);
    disk_cache c = make();
    std::string problem;
    ASSERT_TRUE(c.store("k", "payload", &problem)) << problem;
    EXPECT_EQ(mode_of(dir_), 0700u) << "created by pacxx";
    EXPECT_EQ(mode_of(entries()), 0700u);
    EXPECT_EQ(mode_of(c.entry_path("k")), 0600u);
    EXPECT_EQ(c.load("k").value_or(""), "payload");
  }
}

// A configured directory of the user's, with ordinary permissions (or even writable by
// all, as /tmp): pacxx's subdirectory is what must be private.
TEST_F(DiskCache, AnExistingConfiguredDirectoryIsUsedAsItIs) {
  for (mode_t m : {mode_t(0755), mode_t(01777), mode_t(0777)}) {
    fs::remove_all(root_ / "nested");
    fs::create_directories(dir_);
    ASSERT_EQ(::chmod(dir_.c_str(), m), 0);
    disk_cache c = make();
    std::string problem;
    ASSERT_TRUE(c.store("k", "payload", &problem)) << problem;
    EXPECT_EQ(c.load("k", &problem).value_or(""), "payload") << problem;
    EXPECT_EQ(mode_of(dir_), m) << "not changed";
    EXPECT_EQ(mode_of(entries()), 0700u);
  }
}

// A subdirectory writable by others (someone else could put or replace entries), a
// link in its place, or one owned by another user: no loads, no stores, the reason in
// the problem (which the trace prints).
TEST_F(DiskCache, AnUntrustedEntriesDirectoryIsRefused) {
  disk_cache c = make();
  ASSERT_TRUE(c.store("k", "payload"));
  for (mode_t m : {mode_t(0770), mode_t(0702), mode_t(0777)}) {
    SCOPED_TRACE(m);
    ASSERT_EQ(::chmod(entries().c_str(), m), 0);
    std::string problem;
    EXPECT_FALSE(c.load("k", &problem));
    EXPECT_NE(problem.find("writable by other users"), std::string::npos) << problem;
    EXPECT_NE(problem.find(entries().string()), std::string::npos) << problem;
    problem.clear();
    EXPECT_FALSE(c.store("k2", "payload", &problem));
    EXPECT_NE(problem.find("writable by other users"), std::string::npos) << problem;
    EXPECT_EQ(mode_of(entries()), m) << "an existing directory is not silently changed";
  }
  ASSERT_EQ(::chmod(entries().c_str(), 0700), 0);
  EXPECT_EQ(c.load("k").value_or(""), "payload");

  // A link in the subdirectory's place, even to a private directory of ours.
  fs::rename(entries(), root_ / "private");
  fs::create_directory_symlink(root_ / "private", entries());
  std::string problem;
  EXPECT_FALSE(c.load("k", &problem));
  EXPECT_NE(problem.find("symbolic link"), std::string::npos) << problem;
  EXPECT_FALSE(c.store("k", "payload", &problem));
  EXPECT_NE(problem.find("symbolic link"), std::string::npos) << problem;
  fs::remove(entries());

  if (::geteuid() != 0)
    GTEST_SKIP() << "the rest changes owners: needs root";
  ASSERT_TRUE(c.store("k", "payload"));
  ASSERT_EQ(::chown(entries().c_str(), 65534, 65534), 0);
  EXPECT_FALSE(c.load("k", &problem));
  EXPECT_NE(problem.find("owned by uid 65534"), std::string::npos) << problem;
  EXPECT_FALSE(c.store("k", "payload", &problem));
  EXPECT_NE(problem.find("owned by uid 65534"), std::string::npos) << problem;
}

// An entry owned by another user is never loaded (as root: the test changes owners).
TEST_F(DiskCache, AnEntryOfAnotherUserIsNotLoaded) {
  if (::geteuid() != 0)
    GTEST_SKIP() << "changes owners: needs root";
  disk_cache c = make();
  ASSERT_TRUE(c.store("k", "payload"));
  ASSERT_EQ(::chown(c.entry_path("k").c_str(), 65534, 65534), 0);
  std::string problem;
  EXPECT_FALSE(c.load("k", &problem));
  EXPECT_NE(problem.find("owned by uid 65534"), std::string::npos) << problem;
  ASSERT_TRUE(c.store("k", "payload"));
  EXPECT_EQ(c.load("k").value_or(""), "payload");
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
