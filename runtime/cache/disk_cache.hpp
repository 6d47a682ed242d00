// The persistent kernel cache: device binaries on disk, one file per key, shared by
// every pacxx process of the user. Lookup order in the runtime: memory cache, then
// this, then the JIT.
//
// Layout: the configured directory (PACXX_CACHE_DIR, ...) may be any directory the
// user names, holding files of their own; pacxx keeps its entries in a subdirectory
// it owns, <directory>/kernels-v2 (see entries_subdirectory), and never creates,
// reads or deletes anything else. In there, entries are named "<32 hex digits>.pxc"
// and a writer's temporaries "<32 hex digits>.<pid>-<thread>-<counter>.tmp"; trimming
// touches only names of exactly these forms.
//
// Entries are written to a unique temporary file and renamed over the final name, so
// readers in other processes see either the old entry, the new one or none; every
// entry carries its size, a checksum and its full key, and is never trusted without
// them. The total size is bounded; least recently used entries (oldest modification
// time: a hit touches its entry) go first. All of it is safe to use from several
// threads and processes at once, and no failure of the file system reaches the caller
// as an exception: the cache just misses or does not store.
//
// Trust: an entry holds native code that the process loads (PoCL binaries), so the
// subdirectory is created 0700 and entries 0600 whatever the umask; a subdirectory
// that is a symbolic link, not owned by the user or writable by group or others makes
// the cache refuse to load and store (the reason is the problem reported to the
// trace); an entry is read only if it is a regular file owned by the user, opened
// without following links and without blocking, and at most max_entry_bytes long.
#pragma once
#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "support/envelope.hpp" // cache_digest, seal, unseal

namespace pacxx::rt {

struct configuration; // config.hpp

class disk_cache {
public:
  struct settings {
    bool enabled = true;
    std::filesystem::path directory;
    std::uint64_t max_bytes = std::uint64_t{1024} << 20;
    // Why the cache is off ("PACXX_CACHE=0", no directory, PACXX_CACHE_MAX_MB=0);
    // else empty. (A malformed setting is an error, see config.hpp.)
    // For pacxx-info and the trace, through describe().
    std::string note;
    // The subdirectory of `directory` that holds the entries and the envelope's magic
    // (8 bytes): the kernel cache's by default; the tuning records (runtime/tune/) keep
    // theirs beside it, in "tune-v1" under "PACXXTUN", with the same checks.
    std::string subdirectory = entries_subdirectory;
    std::string magic = entry_magic;
  };

  // From the environment: directory $PACXX_CACHE_DIR, else $XDG_CACHE_HOME/pacxx (when
  // absolute), else $HOME/.cache/pacxx; PACXX_CACHE=0 disables; PACXX_CACHE_MAX_MB
  // (default 1024) bounds the total size of the entry files; 0 turns the cache off.
  // Read through config.hpp: a malformed value of any PACXX_* variable throws
  // pacxx::error (from_configuration never throws).
  static settings from_environment();
  static settings from_configuration(const configuration &c);

  disk_cache() : disk_cache(from_environment()) {}
  explicit disk_cache(settings s);

  bool enabled() const { return s_.enabled; }
  const std::filesystem::path &directory() const { return s_.directory; }
  std::uint64_t max_bytes() const { return s_.max_bytes; }
  const std::string &note() const { return s_.note; }
  // One line: "disk cache: DIR (at most N MB)" or "disk cache: off (why)".
  std::string describe() const;

  // The payload stored under key, or nullopt on a miss. An entry that is truncated,
  // corrupted or not ours is deleted, explained in *problem (when given) and missed;
  // *problem is also set when the entry exists but cannot be read. A hit marks the
  // entry as recently used. key: any string; file names are derived from it.
  std::optional<std::string> load(const std::string &key, std::string *problem = nullptr) const;

  // Stores payload under key (replacing any entry), then trims the directory to the
  // size bound. Creates the directory if needed. Returns false, with the reason in
  // *problem (when given), if nothing was stored: disabled, read-only directory,
  // disk full, an entry larger than the bound. Never throws.
  bool store(const std::string &key, const std::string &payload,
             std::string *problem = nullptr) const;

  // What the entries directory holds: entries (names of the entry form, regular files)
  // and their total size in bytes. Nothing stored yet is {0, 0}; a directory refused
  // for trust is {0, 0} with the reason in *problem (when given). Never throws.
  struct usage {
    std::uint64_t entries = 0, bytes = 0;
  };
  usage measure(std::string *problem = nullptr) const;
  // Deletes every entry and writer's temporary (names of exactly those forms; nothing
  // else in the directory) and returns the entries removed, under the same trust rules
  // as load() and store() (a refused directory is left alone, the reason in *problem).
  // For pacxx-info --clear-cache. Works whether or not the cache is enabled.
  usage clear(std::string *problem = nullptr) const;

  // The directory that holds the entries: directory() / entries_subdirectory.
  std::filesystem::path entries_directory() const;
  // The file an entry lives in (for tests and diagnostics).
  std::filesystem::path entry_path(const std::string &key) const;

  // The subdirectory pacxx owns. Its own directory rather than the configured one,
  // because the user may point PACXX_CACHE_DIR at a directory with files of their
  // own (as ccache does, for the same reason) and because trust is checked on this
  // one directory (owner, mode) whatever the configured one is. "-v2": entries of
  // format 1 lay directly in the configured directory, named after their keys; they
  // are left alone there (never read, trimmed or deleted: they cannot be told from a
  // user's files with certainty) and may be deleted by hand.
  static constexpr const char *entries_subdirectory = "kernels-v2";
  static constexpr const char *entry_extension = ".pxc";

  // Entry file format (inside the seal() envelope with magic entry_magic):
  //   u32 entry_format, u32 key size, the key's bytes, the payload (all little-endian).
  // load() checks the format and that the key is the one asked for: an entry copied
  // or linked to another key's name is a miss, never another key's payload.
  static constexpr const char *entry_magic = "PACXXKCE";
  static constexpr std::uint32_t entry_format = 2;

  // No entry file larger than this is read or written (256 MiB; device binaries of
  // kernels are kilobytes to a few megabytes): a stray huge file at an entry's name
  // must not exhaust memory. The size bound of the cache caps it further.
  static constexpr std::uint64_t max_entry_bytes = std::uint64_t{256} << 20;

private:
  // A descriptor of the entries directory, checked for trust (owner, mode, no link);
  // -1 when it does not exist (and !create) or is refused, with the reason in *problem.
  int open_entries_directory(bool create, std::string *problem) const;
  // Deletes least recently used entries of dir, never `keep`, until the total is
  // within max_bytes, and writers' temporaries an hour old (left by a crash).
  void trim(int dir, const std::string &keep) const;
  // measure() (remove false) and clear() (remove true): the entries there were, or
  // those removed.
  usage tally(bool remove, std::string *problem) const;

  settings s_;
};

} // namespace pacxx::rt
