// Division by a divisor fixed on the host, without a division on the device: a 32-bit
// integer division is a subroutine of some twenty instructions on NVIDIA GPUs, and a view
// that maps a linear index to coordinates (gpu::neighbours, gpu::views::indices) pays one
// per element. For n < 2^31 and d >= 1, n / d == (n * m) >> p with p = 31 + ceil(log2 d)
// and m = ceil(2^p / d) < 2^32 (Granlund and Montgomery's method, as CUTLASS's
// FastDivmod): one 32 x 32 -> 64-bit multiply and a shift. Checked against `/` for every
// divisor below 70000 and 2^31 - 1, with random and extreme numerators.
// Built for numerators below `bound`; where bound > 2^31 it divides plainly.
#pragma once
#include <cstddef>
#include <cstdint>

namespace pacxx {
namespace detail {

class fast_divmod {
  std::size_t d_ = 1;
  std::uint32_t m_ = 0; // 0: divide plainly
  unsigned p_ = 0;

public:
  fast_divmod() = default;
  fast_divmod(std::size_t d, std::size_t bound) : d_(d == 0 ? 1 : d) {
    if (bound > (std::size_t(1) << 31) || d_ > (std::size_t(1) << 31))
      return;
    unsigned l = 0;
    while ((std::size_t(1) << l) < d_)
      ++l;
    p_ = 31 + l;
    m_ = static_cast<std::uint32_t>(((std::uint64_t(1) << p_) + d_ - 1) / d_);
  }
  std::size_t divisor() const noexcept { return d_; }
  std::size_t div(std::size_t n) const noexcept {
    return m_ ? static_cast<std::size_t>((std::uint64_t(n) * m_) >> p_) : n / d_;
  }
  // q = n / d and r = n - q * d.
  void divmod(std::size_t n, std::size_t &q, std::size_t &r) const noexcept {
    q = div(n);
    r = n - q * d_;
  }
};

} // namespace detail
} // namespace pacxx
