// Hashes and the integrity envelope (see envelope.hpp).
#include "support/envelope.hpp"

#include <algorithm>
#include <cstring>

namespace pacxx::rt {
using detail::load_le64;
using detail::store_le64;

// ---- SipHash-2-4 -------------------------------------------------------------

namespace {

std::uint64_t rotl(std::uint64_t x, int b) { return (x << b) | (x >> (64 - b)); }

// Incremental SipHash-2-4: 2 compression rounds per 8-byte word, 4 finalisation
// rounds; the 128-bit variant differs in its initialisation and finalisation.
class siphash {
public:
  siphash(const std::uint8_t (&key)[16], bool wide) : wide_(wide) {
    const std::uint64_t k0 = load_le64(key), k1 = load_le64(key + 8);
    v_[0] = k0 ^ 0x736f6d6570736575ull;
    v_[1] = k1 ^ 0x646f72616e646f6dull;
    v_[2] = k0 ^ 0x6c7967656e657261ull;
    v_[3] = k1 ^ 0x7465646279746573ull;
    if (wide_)
      v_[1] ^= 0xee;
  }

  void update(std::string_view data) {
    const auto *p = reinterpret_cast<const unsigned char *>(data.data());
    std::size_t n = data.size();
    length_ += n;
    if (buffered_) { // complete the word begun by an earlier update
      while (n && buffered_ < 8) {
        buffer_[buffered_++] = *p++;
        --n;
      }
      if (buffered_ < 8)
        return;
      compress(load_le64(buffer_));
      buffered_ = 0;
    }
    for (; n >= 8; p += 8, n -= 8)
      compress(load_le64(p));
    std::memcpy(buffer_, p, n);
    buffered_ = n;
  }

  void update_u64(std::uint64_t v) {
    unsigned char b[8];
    store_le64(b, v);
    update({reinterpret_cast<const char *>(b), 8});
  }

  std::uint64_t finish64() {
    last_word();
    v_[2] ^= 0xff;
    return finalise();
  }

  std::array<std::uint8_t, 16> finish128() {
    last_word();
    v_[2] ^= 0xee;
    std::array<std::uint8_t, 16> out;
    store_le64(out.data(), finalise());
    v_[1] ^= 0xdd;
    store_le64(out.data() + 8, finalise());
    return out;
  }

private:
  void round() {
    v_[0] += v_[1], v_[1] = rotl(v_[1], 13), v_[1] ^= v_[0], v_[0] = rotl(v_[0], 32);
    v_[2] += v_[3], v_[3] = rotl(v_[3], 16), v_[3] ^= v_[2];
    v_[0] += v_[3], v_[3] = rotl(v_[3], 21), v_[3] ^= v_[0];
    v_[2] += v_[1], v_[1] = rotl(v_[1], 17), v_[1] ^= v_[2], v_[2] = rotl(v_[2], 32);
  }
  void compress(std::uint64_t m) {
    v_[3] ^= m;
    round();
    round();
    v_[0] ^= m;
  }
  // The remaining 0..7 bytes with the length (mod 256) in the top byte.
  void last_word() {
    std::uint64_t b = std::uint64_t(length_ & 0xff) << 56;
    for (std::size_t i = 0; i < buffered_; ++i)
      b |= std::uint64_t(buffer_[i]) << (8 * i);
    compress(b);
  }
  std::uint64_t finalise() {
    for (int i = 0; i < 4; ++i)
      round();
    return v_[0] ^ v_[1] ^ v_[2] ^ v_[3];
  }

  std::uint64_t v_[4];
  unsigned char buffer_[8] = {};
  std::size_t buffered_ = 0;
  std::uint64_t length_ = 0;
  bool wide_;
};

// Fixed keys: the hashes must be the same in every process.
constexpr std::uint8_t digest_key[16] = {'p', 'a', 'c', 'x', 'x', '-', 'c', 'a',
                                         'c', 'h', 'e', '-', 'k', 'e', 'y', '1'};
constexpr std::uint8_t checksum_key[16] = {'p', 'a', 'c', 'x', 'x', '-', 'c', 'h',
                                           'e', 'c', 'k', 's', 'u', 'm', '6', '4'};

} // namespace

namespace detail {
std::array<std::uint8_t, 16> siphash128(const std::uint8_t (&key)[16], std::string_view data) {
  siphash h(key, true);
  h.update(data);
  return h.finish128();
}
std::uint64_t siphash64(const std::uint8_t (&key)[16], std::string_view data) {
  siphash h(key, false);
  h.update(data);
  return h.finish64();
}
} // namespace detail

std::string cache_digest(const std::vector<std::string_view> &parts) {
  siphash h(digest_key, true);
  for (std::string_view part : parts) {
    h.update_u64(part.size());
    h.update(part);
  }
  static const char hex[] = "0123456789abcdef";
  std::string out;
  for (std::uint8_t b : h.finish128()) {
    out += hex[b >> 4];
    out += hex[b & 15];
  }
  return out;
}

std::uint64_t checksum64(std::string_view data) { return detail::siphash64(checksum_key, data); }

// ---- The envelope --------------------------------------------------------------

namespace {
constexpr std::uint32_t seal_version = 1;

std::string seal_header(std::string_view magic8, std::string_view bytes) {
  std::string h(seal_header_size, '\0');
  auto *p = reinterpret_cast<unsigned char *>(&h[0]);
  std::memcpy(p, magic8.data(), std::min<std::size_t>(magic8.size(), 8));
  store_le64(p + 8, seal_version); // and the u32 0 after it
  store_le64(p + 16, bytes.size());
  store_le64(p + 24, checksum64(bytes));
  return h;
}
} // namespace

std::string seal(std::string_view magic8, std::string_view bytes) {
  std::string out = seal_header(magic8, bytes);
  out.append(bytes);
  return out;
}

std::optional<std::string_view> unseal(std::string_view magic8, std::string_view sealed,
                                       std::string *why) {
  auto fail = [why](std::string reason) {
    if (why)
      *why = std::move(reason);
    return std::nullopt;
  };
  if (sealed.size() < seal_header_size)
    return fail("truncated (" + std::to_string(sealed.size()) + " bytes, shorter than its header)");
  const auto *p = reinterpret_cast<const unsigned char *>(sealed.data());
  std::string expected(8, '\0');
  std::memcpy(&expected[0], magic8.data(), std::min<std::size_t>(magic8.size(), 8));
  if (sealed.compare(0, 8, expected) != 0)
    return fail("wrong magic");
  if (const std::uint64_t v = load_le64(p + 8); v != seal_version)
    return fail("format version " + std::to_string(v & 0xffffffff) +
                (v >> 32 ? " with reserved bits set" : "") + ", expected " +
                std::to_string(seal_version));
  const std::uint64_t size = load_le64(p + 16), present = sealed.size() - seal_header_size;
  if (size != present)
    return fail(std::string(size > present ? "truncated" : "overlong") + " (header says " +
                std::to_string(size) + " bytes, " + std::to_string(present) + " present)");
  std::string_view bytes = sealed.substr(seal_header_size);
  if (checksum64(bytes) != load_le64(p + 24))
    return fail("corrupted (checksum mismatch)");
  return bytes;
}

} // namespace pacxx::rt
