// Hashes and the integrity envelope shared by the disk cache (runtime/cache) and the
// backends (runtime/backends), which seal the device binaries they build. Neither
// depends on the other: both include this.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pacxx::rt {

// 128-bit SipHash-2-4 of the parts, each prefixed with its length (so that no two
// different lists of parts encode alike), as 32 lowercase hex digits. Keys pass every
// input of the binary as a part: pacxx and LLVM versions, backend, device name,
// architecture, driver version, kernel IR, staged values, options.
std::string cache_digest(const std::vector<std::string_view> &parts);

// A 64-bit checksum of data (SipHash-2-4-64 under a fixed key), for detecting
// truncated or corrupted files; not a cache key.
std::uint64_t checksum64(std::string_view data);

// An integrity envelope: a header {magic (8 bytes), format version 1 (u32), 0 (u32),
// size of bytes (u64), checksum64(bytes) (u64)}, little-endian, then the bytes. Cache
// entries are sealed files; build_binary() seals the driver's binaries, since drivers
// trust what they are given (PoCL crashes on a truncated binary of its own).
constexpr std::size_t seal_header_size = 32;
std::string seal(std::string_view magic8, std::string_view bytes);
// The bytes inside `sealed`, or nullopt with the reason in *why (wrong magic or
// version, truncated or overlong, checksum mismatch).
std::optional<std::string_view> unseal(std::string_view magic8, std::string_view sealed,
                                       std::string *why);

namespace detail {
// SipHash-2-4 (Aumasson and Bernstein, "SipHash: a fast short-input PRF", 2012), from
// its description; exposed for the reference test vectors.
std::array<std::uint8_t, 16> siphash128(const std::uint8_t (&key)[16], std::string_view data);
std::uint64_t siphash64(const std::uint8_t (&key)[16], std::string_view data);

// Little-endian words, as the envelope and the cache's entries store them.
inline std::uint64_t load_le64(const unsigned char *p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i)
    v = (v << 8) | p[i];
  return v;
}

inline void store_le64(unsigned char *p, std::uint64_t v) {
  for (int i = 0; i < 8; ++i)
    p[i] = static_cast<unsigned char>(v >> (8 * i));
}
} // namespace detail

} // namespace pacxx::rt
