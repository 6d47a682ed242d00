// The persistent kernel cache (see disk_cache.hpp). Its hashes and the envelope of
// its entries are in support/envelope.cpp.
#include "cache/disk_cache.hpp"
#include "config.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <thread>
#include <tuple>

namespace pacxx::rt {
namespace fs = std::filesystem;
using detail::load_le64;
using detail::store_le64;

// ---- Settings ------------------------------------------------------------------

disk_cache::settings disk_cache::from_environment() {
  return from_configuration(read_configuration());
}

disk_cache::settings disk_cache::from_configuration(const configuration &c) {
  settings s;
  s.directory = c.cache_dir;
  if (c.cache_dir.empty()) {
    s.enabled = false;
    s.note = c.cache_dir_why;
  }
  if (c.cache_max_mb) {
    if (*c.cache_max_mb == 0) {
      s.enabled = false;
      s.note = "PACXX_CACHE_MAX_MB=0";
    } else
      s.max_bytes = *c.cache_max_mb << 20;
  }
  if (!c.cache) {
    s.enabled = false;
    s.note = "PACXX_CACHE=0";
  }
  return s;
}

disk_cache::disk_cache(settings s) : s_(std::move(s)) {
  if (s_.enabled && s_.directory.empty()) {
    s_.enabled = false;
    s_.note = "no directory";
  }
}

std::string disk_cache::describe() const {
  if (!s_.enabled)
    return "disk cache: off (" + s_.note + ")";
  std::string d = "disk cache: " + s_.directory.string() + " (at most " +
                  std::to_string(s_.max_bytes >> 20) + " MB)";
  return s_.note.empty() ? d : d + "; " + s_.note;
}

// ---- Entries: sealed files named after the digests of their keys --------------

namespace {

// Every entry is named after the digest of its key, never the key itself: trimming
// can then recognise the cache's own files by their exact form, whatever the keys.
std::string file_stem(const std::string &key) { return cache_digest({key}); }

bool is_hex_digest(std::string_view s) {
  return s.size() == 32 && s.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

bool is_digits(std::string_view s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}

// "<digest>.pxc"
bool is_entry_name(std::string_view name) {
  return name.size() == 36 && is_hex_digest(name.substr(0, 32)) && name.substr(32) == ".pxc";
}

// "<digest>.<pid>-<thread>-<counter>.tmp", as store() makes them.
bool is_temporary_name(std::string_view name) {
  if (name.size() < 32 + 1 + 5 + 4 || !is_hex_digest(name.substr(0, 32)) || name[32] != '.' ||
      name.substr(name.size() - 4) != ".tmp")
    return false;
  std::string_view unique = name.substr(33, name.size() - 33 - 4);
  const std::size_t a = unique.find('-'), b = unique.rfind('-');
  return a != std::string_view::npos && a != b && is_digits(unique.substr(0, a)) &&
         is_digits(unique.substr(a + 1, b - a - 1)) && is_digits(unique.substr(b + 1));
}

struct fd_guard {
  int fd;
  explicit fd_guard(int f) : fd(f) {}
  fd_guard(const fd_guard &) = delete;
  fd_guard &operator=(const fd_guard &) = delete;
  ~fd_guard() {
    if (fd >= 0)
      ::close(fd);
  }
};

bool read_all(int fd, char *p, std::size_t n) {
  while (n) {
    const ssize_t r = ::read(fd, p, n);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0) {
      if (r == 0)
        errno = EIO; // the file shrank under us
      return false;
    }
    p += r, n -= static_cast<std::size_t>(r);
  }
  return true;
}

bool write_all(int fd, const char *p, std::size_t n) {
  while (n) {
    const ssize_t r = ::write(fd, p, n);
    if (r < 0 && errno == EINTR)
      continue;
    if (r < 0)
      return false;
    p += r, n -= static_cast<std::size_t>(r);
  }
  return true;
}

void report(std::string *problem, std::string msg) {
  if (problem)
    *problem = std::move(msg);
}

std::string errno_text(int e) { return std::strerror(e); }

std::string octal_mode(mode_t m) {
  char b[8];
  std::snprintf(b, sizeof b, "0%03o", static_cast<unsigned>(m & 07777));
  return b;
}

// The sealed body of an entry: format, key, payload (see disk_cache::entry_magic).
std::string entry_body(const std::string &key, const std::string &payload) {
  std::string b(8, '\0');
  auto *p = reinterpret_cast<unsigned char *>(&b[0]);
  store_le64(p, disk_cache::entry_format | std::uint64_t(key.size()) << 32);
  b += key;
  b += payload;
  return b;
}

// The payload of an entry body if it is of our format and holds `key`; else the reason.
std::optional<std::string_view> entry_payload(std::string_view body, const std::string &key,
                                              std::string &why) {
  if (body.size() < 8) {
    why = "too short for its key";
    return std::nullopt;
  }
  const std::uint64_t head = load_le64(reinterpret_cast<const unsigned char *>(body.data()));
  const std::uint32_t format = static_cast<std::uint32_t>(head), key_size = head >> 32;
  if (format != disk_cache::entry_format) {
    why = "entry format " + std::to_string(format) + ", expected " +
          std::to_string(disk_cache::entry_format);
    return std::nullopt;
  }
  if (key_size != key.size() || key_size > body.size() - 8 || body.compare(8, key_size, key) != 0) {
    why = "holds the entry of another key";
    return std::nullopt;
  }
  return body.substr(8 + key_size);
}

} // namespace

fs::path disk_cache::entries_directory() const { return s_.directory / s_.subdirectory; }

fs::path disk_cache::entry_path(const std::string &key) const {
  return entries_directory() / (file_stem(key) + entry_extension);
}

int disk_cache::open_entries_directory(bool create, std::string *problem) const {
  const fs::path sub = entries_directory();
  if (create) {
    // The configured directory: created when missing, 0700 like the subdirectory (it
    // is ours then); an existing one is used as it is, trust is checked below.
    struct stat st;
    if (::stat(s_.directory.c_str(), &st) != 0) {
      std::error_code ec;
      fs::create_directories(s_.directory.parent_path(), ec);
      if (::mkdir(s_.directory.c_str(), 0700) == 0) {
        // mkdir's mode is masked by the umask; make it exactly 0700.
        fd_guard d(::open(s_.directory.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (d.fd >= 0)
          ::fchmod(d.fd, 0700);
      } else if (errno != EEXIST) {
        report(problem,
               "disk cache: cannot create " + s_.directory.string() + ": " + errno_text(errno));
        return -1;
      }
    }
  }
  // Everything below goes through descriptors: once checked, the subdirectory cannot
  // be swapped for another under us, whoever can write the configured directory.
  fd_guard parent(::open(s_.directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (parent.fd < 0) {
    if (errno != ENOENT || create)
      report(problem,
             "disk cache: cannot open " + s_.directory.string() + ": " + errno_text(errno));
    return -1;
  }
  bool created = false;
  if (create) {
    if (::mkdirat(parent.fd, s_.subdirectory.c_str(), 0700) == 0)
      created = true;
    else if (errno != EEXIST) {
      report(problem, "disk cache: cannot create " + sub.string() + ": " + errno_text(errno));
      return -1;
    }
  }
  fd_guard dir(::openat(parent.fd, s_.subdirectory.c_str(),
                        O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (dir.fd < 0) {
    if (errno == ENOENT && !create)
      return -1; // nothing stored yet: a plain miss
    report(problem, "disk cache: not using " + sub.string() + ": " +
                        (errno == ELOOP || errno == ENOTDIR
                             ? std::string("a symbolic link or not a directory")
                             : errno_text(errno)));
    return -1;
  }
  struct stat st;
  if (::fstat(dir.fd, &st) != 0) {
    report(problem, "disk cache: cannot stat " + sub.string() + ": " + errno_text(errno));
    return -1;
  }
  if (st.st_uid != ::geteuid()) {
    report(problem, "disk cache: not using " + sub.string() + ": owned by uid " +
                        std::to_string(st.st_uid) + ", not by this user");
    return -1;
  }
  if (created && (st.st_mode & 07777) != 0700) { // the umask took bits away
    if (::fchmod(dir.fd, 0700) == 0)
      st.st_mode = (st.st_mode & ~mode_t(07777)) | 0700;
  }
  if (st.st_mode & (S_IWGRP | S_IWOTH)) {
    report(problem, "disk cache: not using " + sub.string() + ": writable by other users (mode " +
                        octal_mode(st.st_mode) + "); make it 0700");
    return -1;
  }
  const int fd = dir.fd;
  dir.fd = -1;
  return fd;
}

std::optional<std::string> disk_cache::load(const std::string &key, std::string *problem) const {
  if (!s_.enabled)
    return std::nullopt;
  try {
    fd_guard dir(open_entries_directory(false, problem));
    if (dir.fd < 0)
      return std::nullopt;
    const std::string name = file_stem(key) + entry_extension;
    const fs::path path = entries_directory() / name;
    // No links followed (the entry must be this directory's own file) and no waiting:
    // opening a FIFO for reading would block until a writer came.
    fd_guard f(::openat(dir.fd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
    if (f.fd < 0) {
      if (errno == ELOOP)
        report(problem, "disk cache: entry " + path.string() + " is a symbolic link; ignored");
      else if (errno != ENOENT) // a plain miss says nothing
        report(problem, "disk cache: cannot open " + path.string() + ": " + errno_text(errno));
      return std::nullopt;
    }
    struct stat st;
    if (::fstat(f.fd, &st) != 0) {
      report(problem, "disk cache: cannot stat " + path.string() + ": " + errno_text(errno));
      return std::nullopt;
    }
    // What is not a regular file of ours is left where it is (a store renames over
    // it); what is ours but not a valid entry is never trusted, so removed: but only
    // the file we read, not one that another process has renamed over it since.
    auto remove = [&] {
      struct stat now;
      if (::fstatat(dir.fd, name.c_str(), &now, AT_SYMLINK_NOFOLLOW) == 0 &&
          now.st_ino == st.st_ino && now.st_dev == st.st_dev)
        ::unlinkat(dir.fd, name.c_str(), 0);
    };
    if (!S_ISREG(st.st_mode)) {
      report(problem, "disk cache: entry " + path.string() + " is not a regular file; ignored");
      return std::nullopt;
    }
    if (st.st_uid != ::geteuid()) {
      report(problem, "disk cache: entry " + path.string() + " is owned by uid " +
                          std::to_string(st.st_uid) + ", not by this user; ignored");
      return std::nullopt;
    }
    if (static_cast<std::uint64_t>(st.st_size) > std::min(max_entry_bytes, s_.max_bytes)) {
      remove();
      report(problem, "disk cache: entry " + path.string() + ": " + std::to_string(st.st_size) +
                          " bytes, more than an entry may have; removed");
      return std::nullopt;
    }
    std::string data(static_cast<std::size_t>(st.st_size), '\0');
    if (!read_all(f.fd, data.data(), data.size())) {
      report(problem, "disk cache: cannot read " + path.string() + ": " + errno_text(errno));
      return std::nullopt;
    }
    std::string why;
    std::optional<std::string_view> body = unseal(s_.magic, data, &why);
    std::optional<std::string_view> payload;
    if (body)
      payload = entry_payload(*body, key, why);
    if (!payload) {
      remove();
      report(problem, "disk cache: entry " + path.string() + ": " + why + "; removed");
      return std::nullopt;
    }
    ::futimens(f.fd, nullptr); // recently used (LRU); a read-only cache still hits
    return std::string(*payload);
  } catch (const std::exception &e) {
    report(problem, std::string("disk cache: load failed: ") + e.what());
    return std::nullopt;
  }
}

bool disk_cache::store(const std::string &key, const std::string &payload,
                       std::string *problem) const {
  if (!s_.enabled) {
    report(problem, describe());
    return false;
  }
  try {
    const std::uint64_t limit = std::min(max_entry_bytes, s_.max_bytes);
    const std::uint64_t overhead = seal_header_size + 8 + std::uint64_t(key.size());
    if (key.size() > UINT32_MAX || overhead > limit || payload.size() > limit - overhead) {
      report(problem, "disk cache: an entry of " + std::to_string(payload.size()) +
                          " bytes exceeds the cache's bound of " + std::to_string(limit));
      return false;
    }
    fd_guard dir(open_entries_directory(true, problem));
    if (dir.fd < 0)
      return false;

    // A name no other writer uses: pid (processes), thread (threads), counter (calls).
    static std::atomic<std::uint64_t> counter{0};
    const std::string stem = file_stem(key);
    const std::string final_name = stem + entry_extension;
    const std::string tmp =
        stem + "." + std::to_string(::getpid()) + "-" +
        std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id())) + "-" +
        std::to_string(counter++) + ".tmp";
    const fs::path final_path = entries_directory() / final_name;

    int fd =
        ::openat(dir.fd, tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
      report(problem, "disk cache: cannot create " + (entries_directory() / tmp).string() + ": " +
                          errno_text(errno));
      return false;
    }
    // No fsync: an entry cut short by a crash fails its checks and is dropped.
    const std::string sealed = seal(s_.magic, entry_body(key, payload));
    bool ok = ::fchmod(fd, 0600) == 0 && // exactly 0600, whatever the umask
              write_all(fd, sealed.data(), sealed.size());
    int err = errno;
    if (::close(fd) != 0 && ok)
      ok = false, err = errno;
    if (ok && ::renameat(dir.fd, tmp.c_str(), dir.fd, final_name.c_str()) != 0)
      ok = false, err = errno;
    if (!ok) {
      ::unlinkat(dir.fd, tmp.c_str(), 0);
      report(problem, "disk cache: cannot write " + final_path.string() + ": " + errno_text(err));
      return false;
    }
    trim(dir.fd, final_name); // the entry just stored stays, even where file times tie
    return true;
  } catch (const std::exception &e) {
    report(problem, std::string("disk cache: store failed: ") + e.what());
    return false;
  }
}

namespace {

// Calls f(name, stat) for each regular file in dir whose name is of one of the cache's
// exact forms (entry or writer's temporary), and for nothing else: no user file, link
// or FIFO is ever touched. Every stat may find the file gone (another process trimming):
// it is skipped. Returns false if dir cannot be listed.
template <typename F> bool for_each_cache_file(int dir, F f) {
  // Its own descriptor for the listing: readdir moves the file offset.
  DIR *listing = nullptr;
  if (int d = ::openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC); d >= 0) {
    listing = ::fdopendir(d);
    if (!listing)
      ::close(d);
  }
  if (!listing)
    return false;
  while (const dirent *e = ::readdir(listing)) {
    const std::string_view name = e->d_name;
    struct stat st;
    if ((is_entry_name(name) || is_temporary_name(name)) &&
        ::fstatat(dir, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
      f(name, st);
  }
  ::closedir(listing);
  return true;
}

} // namespace

void disk_cache::trim(int dir, const std::string &keep) const {
  struct entry {
    timespec time;
    std::uint64_t size;
    std::string name;
  };
  std::vector<entry> entries;
  std::uint64_t total = 0;
  const time_t stale = ::time(nullptr) - 3600;
  for_each_cache_file(dir, [&](std::string_view name, const struct stat &st) {
    if (!is_entry_name(name)) { // a writer's; an hour old, its writer crashed
      if (st.st_mtim.tv_sec < stale)
        ::unlinkat(dir, std::string(name).c_str(), 0);
      return;
    }
    entries.push_back({st.st_mtim, static_cast<std::uint64_t>(st.st_size), std::string(name)});
    total += static_cast<std::uint64_t>(st.st_size);
  });
  if (total <= s_.max_bytes)
    return;
  std::sort(entries.begin(), entries.end(), [](const entry &a, const entry &b) {
    return std::tie(a.time.tv_sec, a.time.tv_nsec, a.name) <
           std::tie(b.time.tv_sec, b.time.tv_nsec, b.name);
  });
  for (const entry &e : entries) {
    if (total <= s_.max_bytes)
      break;
    if (e.name == keep)
      continue;
    ::unlinkat(dir, e.name.c_str(), 0); // gone already: someone else trimmed it, as good
    total -= e.size;
  }
}

disk_cache::usage disk_cache::measure(std::string *problem) const { return tally(false, problem); }

disk_cache::usage disk_cache::clear(std::string *problem) const { return tally(true, problem); }

disk_cache::usage disk_cache::tally(bool remove, std::string *problem) const {
  usage u;
  // The same trust checks as load and store: a refused directory is left alone.
  fd_guard dir(open_entries_directory(false, problem));
  if (dir.fd < 0)
    return u;
  for_each_cache_file(dir.fd, [&](std::string_view name, const struct stat &st) {
    if (remove && ::unlinkat(dir.fd, std::string(name).c_str(), 0) != 0)
      return; // gone already (another process trimming) or not ours to delete
    if (is_entry_name(name)) {
      ++u.entries;
      u.bytes += static_cast<std::uint64_t>(st.st_size);
    }
  });
  return u;
}

} // namespace pacxx::rt
