// gpu::half and gpu::bfloat16: 16-bit floating-point storage types. Each holds the bits of
// its format (IEEE 754 binary16, as CUDA's __half, whose bits it shares, so a
// gpu::vector<gpu::half> can be handed to code that takes __half*; bfloat16: the top 16
// bits of a float, as __nv_bfloat16) and converts to and from float on the host and in
// kernels, in integer arithmetic (no target instruction needed): float to 16 bits rounds
// to nearest, ties to even, overflow goes to infinity, NaN stays NaN (quiet); 16 bits to
// float is exact.
//
// Arithmetic goes through float: `a + b` of two halves is a float (the conversions are
// implicit), stored back as a half where it is assigned to one, so
//   gpu::transform(x, h, [](float v) { return gpu::half(v); });        // floats to halves
//   gpu::reduce(h | view::transform([](gpu::half v) { return float(v); }), 0.0f);  // in float
//   gpu::sort(h);                                                       // radix sort
// gpu::sort, stable_sort and sort_by_key radix sort them with std::less / std::greater by
// an order-preserving transform of their bits (pacxx::agent::radix_key: negative values
// flipped, -0 as +0, NaNs after +inf, as for float); top_k and nth_element radix select
// them alike.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace gpu {
namespace detail {

inline std::uint32_t bits_of(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
inline float float_of(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

// float to binary16, round to nearest even.
inline std::uint16_t float_to_half_bits(float f) {
  std::uint32_t x = bits_of(f);
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  x &= 0x7fffffffu;
  if (x >= 0x7f800000u) // inf, NaN (kept quiet, top payload bits kept)
    return static_cast<std::uint16_t>(sign | 0x7c00u |
                                      (x > 0x7f800000u ? (0x200u | ((x >> 13) & 0x3ffu)) : 0u));
  if (x >= 0x477ff000u) // at least 65520: rounds to infinity
    return static_cast<std::uint16_t>(sign | 0x7c00u);
  if (x >= 0x38800000u) { // normal: rebias the exponent, round the 13 dropped bits
    std::uint32_t h = (x - 0x38000000u) >> 13;
    const std::uint32_t rem = x & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u)))
      ++h; // a carry into the exponent is right
    return static_cast<std::uint16_t>(sign | h);
  }
  if (x < 0x33000000u) // below 2^-25 (2^-25 itself is a tie that rounds to even 0)
    return static_cast<std::uint16_t>(sign);
  // Subnormal: f = m * 2^(e - 150), in units of 2^-24 that is m >> (126 - e).
  const std::uint32_t e = x >> 23, m = (x & 0x7fffffu) | 0x800000u, s = 126u - e;
  std::uint32_t k = m >> s;
  const std::uint32_t rem = m & ((1u << s) - 1u), halfway = 1u << (s - 1u);
  if (rem > halfway || (rem == halfway && (k & 1u)))
    ++k; // may become the smallest normal, whose bits follow on
  return static_cast<std::uint16_t>(sign | k);
}

// binary16 to float (exact).
inline float half_bits_to_float(std::uint16_t h) {
  const std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16;
  const std::uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
  if (e == 0) {
    const float v = static_cast<float>(m) * 5.9604644775390625e-8f; // m * 2^-24, exact
    return sign ? -v : v;
  }
  if (e == 31)
    return float_of(sign | 0x7f800000u | (m << 13));
  return float_of(sign | ((e + 112u) << 23) | (m << 13));
}

// float to bfloat16, round to nearest even (NaN kept, made quiet).
inline std::uint16_t float_to_bfloat16_bits(float f) {
  const std::uint32_t x = bits_of(f);
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return static_cast<std::uint16_t>((x >> 16) | 0x40u);
  return static_cast<std::uint16_t>((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}
inline float bfloat16_bits_to_float(std::uint16_t b) { return float_of(std::uint32_t(b) << 16); }

} // namespace detail

/// IEEE 754 binary16 storage (the bits of CUDA's __half); converts to and from float.
class half {
  std::uint16_t bits_;

public:
  /// Marks a 16-bit float: radix sorts and selects it (pacxx/agent/radix_sort.hpp).
  using pacxx_float16 = void;

  /// Uninitialized bits (trivial, as a float's default).
  half() = default;
  /// f rounded to the nearest half (ties to even).
  half(float f) : bits_(detail::float_to_half_bits(f)) {}
  /// The value as a float (exact).
  operator float() const { return detail::half_bits_to_float(bits_); }
  /// The half whose bits are b.
  static half from_bits(std::uint16_t b) {
    half h;
    h.bits_ = b;
    return h;
  }
  /// Its bits.
  std::uint16_t bits() const { return bits_; }
};

/// bfloat16 storage (the top 16 bits of a float, as __nv_bfloat16); converts to and from
/// float.
class bfloat16 {
  std::uint16_t bits_;

public:
  /// Marks a 16-bit float: radix sorts and selects it (pacxx/agent/radix_sort.hpp).
  using pacxx_float16 = void;

  /// Uninitialized bits (trivial, as a float's default).
  bfloat16() = default;
  /// f rounded to the nearest bfloat16 (ties to even).
  bfloat16(float f) : bits_(detail::float_to_bfloat16_bits(f)) {}
  /// The value as a float (exact).
  operator float() const { return detail::bfloat16_bits_to_float(bits_); }
  /// The bfloat16 whose bits are b.
  static bfloat16 from_bits(std::uint16_t b) {
    bfloat16 h;
    h.bits_ = b;
    return h;
  }
  /// Its bits.
  std::uint16_t bits() const { return bits_; }
};

static_assert(sizeof(half) == 2 && std::is_trivially_copyable<half>::value, "half: 16 bits");
static_assert(sizeof(bfloat16) == 2 && std::is_trivially_copyable<bfloat16>::value,
              "bfloat16: 16 bits");

} // namespace gpu
