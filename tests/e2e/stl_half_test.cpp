// End-to-end: gpu::half and gpu::bfloat16 (issue 38, item 7): conversions on the host
// and in kernels (round to nearest even, against the compiler's _Float16 where it has one,
// and every one of the 65536 bit patterns back and forth), transform, reduce (in
// double), sort and sort_by_key (radix, ascending and descending), top_k, on PoCL.
#include "test_support.hpp"

#include <pacxx/half.hpp>
#include <pacxx/pacxx.hpp>

#include <range/v3/view.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <numeric>
#include <vector>

namespace view = ranges::views;

namespace {

using pacxx_test::prime;

std::uint32_t bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
float from_bits(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

// Floats that exercise the roundings: every kind of half (normal, subnormal, overflow,
// ties), random bit patterns, specials.
std::vector<float> probe_floats(std::size_t n, bool specials = true) {
  pacxx_test::rng r(42);
  std::vector<float> v;
  if (specials)
    v = {0.0f,           -0.0f,          1.0f,     -1.0f,     65504.0f,   65519.0f, 65520.0f,
         1e10f,          -1e10f,         6.1e-5f,  5.96e-8f,  2.98e-8f,   2.99e-8f, 1.0e-9f,
         1.00048828125f, 1.00146484375f, INFINITY, -INFINITY, 3.14159265f};
  while (v.size() < n) {
    float f = from_bits(static_cast<std::uint32_t>(r.next()));
    if (!std::isfinite(f))
      continue;
    // Mostly within half's range, half of them near its subnormals.
    const int e = static_cast<int>(r.next() % 40) - 26;
    f = std::ldexp(std::fmod(std::fabs(f), 2.0f) + 1.0f, e) * static_cast<float>(r.sign());
    v.push_back(f);
  }
  v.resize(n);
  return v;
}

TEST(Half, HostConversionsRoundToNearestEven) {
  // Every half and bfloat16 bit pattern back and forth (NaNs stay NaNs).
  for (std::uint32_t b = 0; b < 65536; ++b) {
    const gpu::half h = gpu::half::from_bits(static_cast<std::uint16_t>(b));
    const float f = h;
    if (std::isnan(f)) {
      EXPECT_TRUE(std::isnan(static_cast<float>(gpu::half(f))));
    } else {
      ASSERT_EQ(gpu::half(f).bits(), b) << b;
    }
    const gpu::bfloat16 g = gpu::bfloat16::from_bits(static_cast<std::uint16_t>(b));
    const float fg = g;
    ASSERT_EQ(bits(fg), b << 16);
    if (!std::isnan(fg)) {
      ASSERT_EQ(gpu::bfloat16(fg).bits(), b);
    }
  }
  // Ties: 1 + 2^-11 is halfway between 1 and 1 + 2^-10 (even: 1); 1 + 3 * 2^-11 rounds up.
  EXPECT_EQ(gpu::half(1.00048828125f).bits(), 0x3c00u);
  EXPECT_EQ(gpu::half(1.00146484375f).bits(), 0x3c02u);
  EXPECT_EQ(gpu::half(65520.0f).bits(), 0x7c00u);
  EXPECT_EQ(gpu::half(65519.0f).bits(), 0x7bffu);
  EXPECT_EQ(gpu::bfloat16(1.00390625f).bits(), 0x3f80u); // tie, even
  EXPECT_EQ(gpu::bfloat16(1.01171875f).bits(), 0x3f82u); // tie, up to even
#ifdef __FLT16_MANT_DIG__
  for (float f : probe_floats(100000)) {
    const _Float16 r = static_cast<_Float16>(f);
    std::uint16_t rb;
    std::memcpy(&rb, &r, sizeof rb);
    ASSERT_EQ(gpu::half(f).bits(), rb) << f;
  }
#endif
  // bfloat16 against rounding through double: the nearest of the two neighbours.
  for (float f : probe_floats(20000)) {
    if (!std::isfinite(f))
      continue; // (the neighbours of inf are not numbers; inf's own bits are checked above)
    const std::uint32_t x = bits(f);
    const float lo = from_bits(x & 0xffff0000u), hi = from_bits((x & 0xffff0000u) + 0x10000u);
    const double dl = std::fabs(double(f) - lo), dh = std::fabs(double(hi) - f);
    const std::uint16_t want = static_cast<std::uint16_t>(
        (dl < dh || (dl == dh && ((x >> 16) & 1u) == 0)) ? (x >> 16) : ((x >> 16) + 1));
    ASSERT_EQ(gpu::bfloat16(f).bits(), want) << f;
  }
}

TEST(Half, KernelsConvertTransformReduceSort) {
  // (65537, not 2^20 + 3: the sorts at that size cost most of a minute on PoCL.)
  for (std::size_t n : {std::size_t(0), std::size_t(1), prime, std::size_t(65537)}) {
    const std::vector<float> h = probe_floats(n);
    gpu::vector<float> x = gpu::copy(h);
    gpu::vector<gpu::half> hv(n);
    gpu::vector<gpu::bfloat16> bv(n);
    gpu::transform(x, hv, [](float f) { return gpu::half(f); });
    gpu::transform(x, bv, [](float f) { return gpu::bfloat16(f); });
    const std::vector<gpu::half> gh = gpu::copy(hv);
    const std::vector<gpu::bfloat16> gb = gpu::copy(bv);
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(gh[i].bits(), gpu::half(h[i]).bits()) << h[i];
      ASSERT_EQ(gb[i].bits(), gpu::bfloat16(h[i]).bits()) << h[i];
    }
    // Finite halves back to float in a kernel, summed in double (near: the order of the
    // additions differs).
    {
      const std::vector<float> finite = probe_floats(n, false);
      std::vector<gpu::half> fh(finite.begin(), finite.end());
      gpu::vector<gpu::half> dfh = gpu::copy(fh);
      auto widen = [](gpu::half v) { return static_cast<double>(static_cast<float>(v)); };
      double want = 0;
      for (const auto &v : fh)
        want += static_cast<double>(static_cast<float>(v));
      const double got = gpu::reduce(dfh | view::transform(widen), 0.0);
      EXPECT_NEAR(got, want, 1e-9 * (1 + std::fabs(want)));
    }
    // Sorts: ascending halves, descending bfloat16s, against std's stable sort in float.
    gpu::sort(hv);
    std::vector<gpu::half> sh = gh;
    std::stable_sort(sh.begin(), sh.end(),
                     [](gpu::half a, gpu::half b) { return float(a) < float(b); });
    const std::vector<gpu::half> gs = gpu::copy(hv);
    for (std::size_t i = 0; i < n; ++i)
      ASSERT_EQ(gs[i].bits(), sh[i].bits()) << i;
    std::vector<int> pos(n);
    std::iota(pos.begin(), pos.end(), 0);
    gpu::vector<int> dp = gpu::copy(pos);
    gpu::sort_by_key(bv, dp, std::greater<>{});
    std::stable_sort(pos.begin(), pos.end(),
                     [&](int a, int b) { return float(gb[a]) > float(gb[b]); });
    ASSERT_EQ(gpu::copy(dp), pos);
  }
}

TEST(Half, TopK) {
  const std::vector<float> h = probe_floats(prime);
  std::vector<gpu::half> hh(h.begin(), h.end());
  gpu::vector<gpu::half> x = gpu::copy(hh);
  gpu::vector<gpu::half> out(10);
  gpu::top_k(x, 10, out);
  std::vector<float> want(h.size());
  std::transform(hh.begin(), hh.end(), want.begin(), [](gpu::half v) { return float(v); });
  std::sort(want.begin(), want.end(), std::greater<float>());
  const std::vector<gpu::half> got = gpu::copy(out);
  for (std::size_t i = 0; i < 10; ++i)
    ASSERT_EQ(float(got[i]), want[i]) << i;
}

} // namespace
