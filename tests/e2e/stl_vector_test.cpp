// End-to-end: gpu::vector<T>, the container of the GPU STL. Every constructor (default,
// size, size + value, initializer list, host ranges of several kinds), deep copies that
// are independent of their source (the copy is changed by a kernel, the original is
// read back unchanged), moves that leave the source empty, copy and move assignment,
// resize (growing keeps the prefix and value-initialises or fills the new elements;
// shrinking keeps the prefix), swap, empty/size/data/begin/end, and gpu::copy in both
// directions. Element types: float, double, int32_t, int64_t, uint32_t, a user POD
// struct, std::pair and std::tuple. The transfers and allocations each operation costs
// are counted with pacxx::stats(). Built with pacxx++ -std=c++14.
#include "test_support.hpp"

#include <pacxx/pacxx.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>
#include <list>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

// A user's plain struct (external linkage, as a user's header would declare it).
struct Particle {
  float x, y;
  std::int32_t id;
  double mass;
};
inline bool operator==(const Particle &a, const Particle &b) {
  return a.x == b.x && a.y == b.y && a.id == b.id && a.mass == b.mass;
}
inline std::ostream &operator<<(std::ostream &os, const Particle &p) {
  return os << "Particle{" << p.x << ", " << p.y << ", " << p.id << ", " << p.mass << "}";
}

namespace {

using pacxx_test::rng;

// ---------------------------------------------------------------------------------
// Distinct, deterministic values of each element type: element(i, seed).

template <class T> struct values;
template <> struct values<float> {
  static float element(std::size_t i, std::uint64_t seed) {
    return static_cast<float>(i) * 0.5f + static_cast<float>(seed % 97) - 1000.25f;
  }
};
template <> struct values<double> {
  static double element(std::size_t i, std::uint64_t seed) {
    return static_cast<double>(i) * 1.0e-3 + static_cast<double>(seed) * 1.0e10 + 0.125;
  }
};
template <> struct values<std::int32_t> {
  static std::int32_t element(std::size_t i, std::uint64_t seed) {
    return static_cast<std::int32_t>(i * 7919 + seed) * ((i & 1) ? -1 : 1);
  }
};
template <> struct values<std::int64_t> {
  static std::int64_t element(std::size_t i, std::uint64_t seed) { // beyond 32 bits
    return (static_cast<std::int64_t>(i) << 33) - static_cast<std::int64_t>(seed) * 3;
  }
};
template <> struct values<std::uint32_t> {
  static std::uint32_t element(std::size_t i, std::uint64_t seed) { // beyond 2^31
    return 0x80000000u + static_cast<std::uint32_t>(i * 13 + seed);
  }
};
template <> struct values<Particle> {
  static Particle element(std::size_t i, std::uint64_t seed) {
    return {static_cast<float>(i), -static_cast<float>(seed), static_cast<std::int32_t>(i + seed),
            static_cast<double>(i) * 2.5};
  }
};
template <> struct values<std::pair<std::int32_t, double>> {
  static std::pair<std::int32_t, double> element(std::size_t i, std::uint64_t seed) {
    return {static_cast<std::int32_t>(i) - 5, static_cast<double>(seed) + 0.5 * i};
  }
};
template <> struct values<std::tuple<std::int16_t, double, std::uint8_t>> {
  static std::tuple<std::int16_t, double, std::uint8_t> element(std::size_t i, std::uint64_t seed) {
    return std::make_tuple(static_cast<std::int16_t>(i * 3 + seed), static_cast<double>(i) / 8.0,
                           static_cast<std::uint8_t>(i % 251));
  }
};

template <class T> std::vector<T> host_values(std::size_t n, std::uint64_t seed) {
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = values<T>::element(i, seed);
  return v;
}

template <class T> void expect_all_equal(const std::vector<T> &v, const T &value) {
  for (std::size_t i = 0; i < v.size(); ++i)
    ASSERT_EQ(v[i], value) << "at " << i;
}

pacxx::runtime_stats since_reset() {
  pacxx::synchronize();
  return pacxx::stats();
}

constexpr std::size_t prime = 1009;

// ---------------------------------------------------------------------------------
// Typed over the element types.

template <class T> class VectorOf : public ::testing::Test {};
using ElementTypes = ::testing::Types<float, double, std::int32_t, std::int64_t, std::uint32_t,
                                      Particle, std::pair<std::int32_t, double>,
                                      std::tuple<std::int16_t, double, std::uint8_t>>;
TYPED_TEST_SUITE(VectorOf, ElementTypes);

TYPED_TEST(VectorOf, DefaultConstructedIsEmptyAndAllocatesNothing) {
  using T = TypeParam;
  pacxx::reset_stats();
  gpu::vector<T> v;
  auto s = since_reset();
  EXPECT_TRUE(v.empty());
  EXPECT_EQ(v.size(), 0u);
  EXPECT_EQ(v.data(), nullptr);
  EXPECT_EQ(v.begin(), v.end());
  EXPECT_TRUE(gpu::copy(v).empty());
  EXPECT_EQ(s.device_allocations, 0u);
  EXPECT_EQ(s.kernel_launches, 0u);
  EXPECT_EQ(s.bytes_to_device, 0u);
}

TYPED_TEST(VectorOf, SizeConstructorIsOneAllocationAndNoTransfer) {
  using T = TypeParam;
  pacxx::reset_stats();
  gpu::vector<T> v(prime);
  auto s = since_reset();
  EXPECT_FALSE(v.empty());
  EXPECT_EQ(v.size(), prime);
  EXPECT_NE(v.data(), nullptr);
  EXPECT_EQ(v.end() - v.begin(), static_cast<std::ptrdiff_t>(prime));
  EXPECT_EQ(v.begin(), v.data());
  const gpu::vector<T> &c = v;
  EXPECT_EQ(c.data(), v.data());
  EXPECT_EQ(c.end() - c.begin(), static_cast<std::ptrdiff_t>(prime));
  EXPECT_EQ(s.device_allocations, 1u);
  EXPECT_EQ(s.kernel_launches, 0u);
  EXPECT_EQ(s.bytes_to_device, 0u);
  EXPECT_EQ(s.bytes_to_host, 0u);
}

TYPED_TEST(VectorOf, SizeAndValueConstructorFillsInOneKernel) {
  using T = TypeParam;
  const T value = values<T>::element(42, 7);
  for (std::size_t n : {std::size_t(1), prime, std::size_t(1) << 16}) {
    SCOPED_TRACE(n);
    pacxx::reset_stats();
    gpu::vector<T> v(n, value);
    auto s = since_reset();
    EXPECT_EQ(s.device_allocations, 1u);
    EXPECT_EQ(s.kernel_launches, 1u);
    EXPECT_EQ(s.bytes_to_device, 0u) << "the value is a kernel argument, not a transfer";
    ASSERT_EQ(v.size(), n);
    expect_all_equal(gpu::copy(v), value);
  }
}

TYPED_TEST(VectorOf, HostVectorConstructorAndCopiesBothWays) {
  using T = TypeParam;
  for (std::size_t n : {std::size_t(0), std::size_t(1), prime}) {
    SCOPED_TRACE(n);
    const std::vector<T> h = host_values<T>(n, 3);
    pacxx::reset_stats();
    gpu::vector<T> v(h);
    auto s = since_reset();
    EXPECT_EQ(s.device_allocations, n ? 1u : 0u);
    EXPECT_EQ(s.bytes_to_device, n * sizeof(T));
    EXPECT_EQ(s.kernel_launches, 0u);
    ASSERT_EQ(v.size(), n);

    pacxx::reset_stats();
    auto g = gpu::copy(h);
    s = since_reset();
    static_assert(std::is_same<decltype(g), gpu::vector<T>>::value,
                  "gpu::copy(host vector) gives a gpu::vector of its element type");
    EXPECT_EQ(s.device_allocations, n ? 1u : 0u);
    EXPECT_EQ(s.bytes_to_device, n * sizeof(T));
    EXPECT_EQ(s.bytes_to_host, 0u);

    pacxx::reset_stats();
    std::vector<T> back = gpu::copy(g);
    s = since_reset();
    EXPECT_EQ(s.bytes_to_host, n * sizeof(T));
    EXPECT_EQ(s.bytes_to_device, 0u);
    EXPECT_EQ(s.device_allocations, 0u);
    EXPECT_EQ(s.kernel_launches, 0u);
    EXPECT_EQ(back, h);
    EXPECT_EQ(gpu::copy(v), h);
  }
}

TYPED_TEST(VectorOf, InitializerListConstructor) {
  using T = TypeParam;
  const T a = values<T>::element(1, 1), b = values<T>::element(2, 2), c = values<T>::element(3, 3);
  pacxx::reset_stats();
  gpu::vector<T> v{a, b, c};
  auto s = since_reset();
  EXPECT_EQ(s.device_allocations, 1u);
  EXPECT_EQ(s.bytes_to_device, 3 * sizeof(T));
  EXPECT_EQ(s.kernel_launches, 0u);
  EXPECT_EQ(gpu::copy(v), (std::vector<T>{a, b, c}));

  gpu::vector<T> one{a};
  EXPECT_EQ(gpu::copy(one), std::vector<T>{a});
}

TYPED_TEST(VectorOf, CopyIsDeepAndIndependent) {
  using T = TypeParam;
  const std::vector<T> h = host_values<T>(prime, 11);
  gpu::vector<T> original(h);
  pacxx::reset_stats();
  gpu::vector<T> copy(original);
  auto s = since_reset();
  EXPECT_EQ(s.device_allocations, 1u);
  EXPECT_EQ(s.bytes_to_device, 0u) << "a device-to-device copy never goes through the host";
  EXPECT_EQ(s.bytes_to_host, 0u);
  ASSERT_EQ(copy.size(), original.size());
  EXPECT_NE(copy.data(), original.data());
  EXPECT_EQ(gpu::copy(copy), h);

  // Changing the copy on the device leaves the original as it was ...
  const T other = values<T>::element(5, 99);
  gpu::fill(copy, other);
  expect_all_equal(gpu::copy(copy), other);
  EXPECT_EQ(gpu::copy(original), h);
  // ... and the other way round.
  gpu::fill(original, values<T>::element(6, 98));
  expect_all_equal(gpu::copy(copy), other);
}

TYPED_TEST(VectorOf, MoveLeavesTheSourceEmpty) {
  using T = TypeParam;
  const std::vector<T> h = host_values<T>(prime, 12);
  gpu::vector<T> source(h);
  const T *storage = source.data();
  pacxx::reset_stats();
  gpu::vector<T> moved(std::move(source));
  auto s = since_reset();
  EXPECT_EQ(s.device_allocations, 0u);
  EXPECT_EQ(s.kernel_launches, 0u);
  EXPECT_EQ(moved.data(), storage) << "a move takes the storage over";
  EXPECT_EQ(moved.size(), prime);
  EXPECT_TRUE(source.empty());
  EXPECT_EQ(source.size(), 0u);
  EXPECT_EQ(source.data(), nullptr);
  EXPECT_EQ(gpu::copy(moved), h);
  static_assert(std::is_nothrow_move_constructible<gpu::vector<T>>::value, "moves never throw");
  static_assert(std::is_nothrow_move_assignable<gpu::vector<T>>::value, "moves never throw");
}

TYPED_TEST(VectorOf, CopyAssignment) {
  using T = TypeParam;
  const std::vector<T> h = host_values<T>(prime, 13), small = host_values<T>(5, 14);
  gpu::vector<T> source(h);
  gpu::vector<T> target(small);
  pacxx::reset_stats();
  target = source;
  auto s = since_reset();
  EXPECT_EQ(s.device_allocations, 1u);
  EXPECT_EQ(s.bytes_to_device, 0u);
  ASSERT_EQ(target.size(), prime);
  EXPECT_NE(target.data(), source.data());
  EXPECT_EQ(gpu::copy(target), h);
  gpu::fill(target, values<T>::element(0, 0));
  EXPECT_EQ(gpu::copy(source), h) << "the assigned copy is independent";

  // Onto a larger vector, from an empty one, and self-assignment.
  gpu::vector<T> big(h);
  gpu::vector<T> tiny(small);
  big = tiny;
  EXPECT_EQ(gpu::copy(big), small);
  gpu::vector<T> empty;
  big = empty;
  EXPECT_TRUE(big.empty());
  gpu::vector<T> &alias = tiny;
  pacxx::reset_stats();
  tiny = alias;
  s = since_reset();
  EXPECT_EQ(s.device_allocations, 0u) << "self-assignment copies nothing";
  EXPECT_EQ(gpu::copy(tiny), small);
}

TYPED_TEST(VectorOf, MoveAssignment) {
  using T = TypeParam;
  const std::vector<T> h = host_values<T>(prime, 15), small = host_values<T>(7, 16);
  gpu::vector<T> source(h);
  gpu::vector<T> target(small);
  const T *storage = source.data();
  pacxx::reset_stats();
  target = std::move(source);
  auto s = since_reset();
  EXPECT_EQ(s.device_allocations, 0u);
  EXPECT_EQ(s.kernel_launches, 0u);
  EXPECT_EQ(target.data(), storage);
  EXPECT_EQ(gpu::copy(target), h);
  EXPECT_TRUE(source.empty());
  EXPECT_EQ(source.data(), nullptr);
  // The moved-from vector is usable again.
  source = gpu::vector<T>(small);
  EXPECT_EQ(gpu::copy(source), small);
}

TYPED_TEST(VectorOf, ResizeGrowsKeepingThePrefix) {
  using T = TypeParam;
  const std::vector<T> h = host_values<T>(prime, 17);
  gpu::vector<T> v(h);
  pacxx::reset_stats();
  v.resize(2 * prime + 1);
  auto s = since_reset();
  EXPECT_EQ(s.device_allocations, 1u);
  EXPECT_EQ(s.bytes_to_device, 0u) << "resize works on the device";
  ASSERT_EQ(v.size(), 2 * prime + 1);
  std::vector<T> expected = h;
  expected.resize(2 * prime + 1); // value-initialised, as std::vector does
  EXPECT_EQ(gpu::copy(v), expected);

  const T fill = values<T>::element(3, 55);
  v.resize(3 * prime, fill);
  expected.resize(3 * prime, fill);
  EXPECT_EQ(gpu::copy(v), expected);

  gpu::vector<T> from_empty;
  from_empty.resize(4, fill);
  EXPECT_EQ(gpu::copy(from_empty), std::vector<T>(4, fill));
}

TYPED_TEST(VectorOf, ResizeShrinksKeepingThePrefix) {
  using T = TypeParam;
  const std::vector<T> h = host_values<T>(prime, 18);
  gpu::vector<T> v(h);
  v.resize(10);
  ASSERT_EQ(v.size(), 10u);
  EXPECT_EQ(gpu::copy(v), std::vector<T>(h.begin(), h.begin() + 10));
  v.resize(10, values<T>::element(0, 1)); // same size: nothing changes
  EXPECT_EQ(gpu::copy(v), std::vector<T>(h.begin(), h.begin() + 10));
  v.resize(0);
  EXPECT_TRUE(v.empty());
  EXPECT_TRUE(gpu::copy(v).empty());
}

TYPED_TEST(VectorOf, SameSizeResizeAllocatesNothing) {
  using T = TypeParam;
  gpu::vector<T> v(prime);
  const T *storage = v.data();
  pacxx::reset_stats();
  v.resize(prime);
  auto s = since_reset();
  EXPECT_EQ(s.device_allocations, 0u);
  EXPECT_EQ(s.kernel_launches, 0u);
  EXPECT_EQ(v.data(), storage);
}

TYPED_TEST(VectorOf, Swap) {
  using T = TypeParam;
  const std::vector<T> ha = host_values<T>(prime, 19), hb = host_values<T>(3, 20);
  gpu::vector<T> a(ha), b(hb);
  const T *pa = a.data(), *pb = b.data();
  pacxx::reset_stats();
  swap(a, b);
  EXPECT_EQ(since_reset().device_allocations, 0u);
  EXPECT_EQ(a.data(), pb);
  EXPECT_EQ(b.data(), pa);
  EXPECT_EQ(gpu::copy(a), hb);
  EXPECT_EQ(gpu::copy(b), ha);
  a.swap(b);
  EXPECT_EQ(gpu::copy(a), ha);
}

// ---------------------------------------------------------------------------------
// Host ranges of other kinds, converting constructors, extreme values.

TEST(Vector, ConstructsFromAnyHostRange) {
  const std::array<int, 5> arr{{4, -3, 2, 9, 1}};
  const std::list<int> lst(arr.begin(), arr.end()); // not contiguous
  const std::deque<int> deq(arr.begin(), arr.end());
  const int raw[5] = {4, -3, 2, 9, 1};
  const std::vector<int> expected(arr.begin(), arr.end());

  pacxx::reset_stats();
  gpu::vector<int> from_list(lst);
  auto s = since_reset();
  EXPECT_EQ(s.device_allocations, 1u);
  EXPECT_EQ(s.bytes_to_device, 5 * sizeof(int));
  EXPECT_EQ(gpu::copy(from_list), expected);
  EXPECT_EQ(gpu::copy(gpu::vector<int>(arr)), expected);
  EXPECT_EQ(gpu::copy(gpu::vector<int>(deq)), expected);
  EXPECT_EQ(gpu::copy(gpu::vector<int>(raw)), expected);
  EXPECT_EQ(gpu::copy(gpu::copy(lst)), expected);
  EXPECT_EQ(gpu::copy(gpu::copy(arr)), expected);
  // (Not gpu::copy(raw): copy() tests std::decay_t of its argument, a pointer for an array,
  // so a C array does not compile there; the constructor above takes it.)
}

TEST(Vector, ConvertsElementsOfAHostRange) {
  const std::vector<int> ints{1, -2, 3, 1 << 30};
  pacxx::reset_stats();
  gpu::vector<double> d(ints); // converted on the host, then copied
  auto s = since_reset();
  EXPECT_EQ(s.bytes_to_device, ints.size() * sizeof(double));
  EXPECT_EQ(gpu::copy(d), (std::vector<double>{1.0, -2.0, 3.0, 1073741824.0}));
  const std::vector<float> floats{1.5f, -2.25f};
  gpu::vector<std::int64_t> l(floats);
  EXPECT_EQ(gpu::copy(l), (std::vector<std::int64_t>{1, -2}));
}

TEST(Vector, ExtremeValuesRoundTrip) {
  const std::vector<std::int64_t> i64{std::numeric_limits<std::int64_t>::min(),
                                      std::numeric_limits<std::int64_t>::max(), 0, -1};
  EXPECT_EQ(gpu::copy(gpu::copy(i64)), i64);
  const std::vector<std::uint32_t> u32{0u, 0xFFFFFFFFu, 0x80000000u};
  EXPECT_EQ(gpu::copy(gpu::copy(u32)), u32);
  const std::vector<double> dbl{std::numeric_limits<double>::max(),
                                std::numeric_limits<double>::denorm_min(), -0.0,
                                std::numeric_limits<double>::infinity()};
  EXPECT_EQ(gpu::copy(gpu::copy(dbl)), dbl);
  // And a fill on the device with an extreme value.
  gpu::vector<std::int64_t> v(prime, std::numeric_limits<std::int64_t>::min() + 1);
  expect_all_equal(gpu::copy(v), std::numeric_limits<std::int64_t>::min() + 1);
  gpu::vector<std::uint32_t> u(prime, 0xFFFFFFFEu);
  expect_all_equal(gpu::copy(u), 0xFFFFFFFEu);
}

TEST(Vector, SizeZeroConstructionsAreEmpty) {
  pacxx::reset_stats();
  gpu::vector<float> a(0);
  gpu::vector<float> b(0, 1.5f);
  gpu::vector<float> c(std::vector<float>{});
  gpu::vector<float> d{};
  auto s = since_reset();
  EXPECT_TRUE(a.empty());
  EXPECT_TRUE(b.empty());
  EXPECT_TRUE(c.empty());
  EXPECT_TRUE(d.empty());
  EXPECT_EQ(s.kernel_launches, 0u) << "nothing to fill";
  EXPECT_EQ(s.device_allocations, 0u);
  EXPECT_EQ(s.bytes_to_device, 0u);
}

TEST(Vector, DataIsADevicePointerForKernels) {
  gpu::vector<float> v(prime, 2.0f);
  gpu::vector<float> out(prime);
  const gpu::vector<float> &cv = v;
  pacxx::kernel(
      [](const float *in, float *out, std::size_t n) {
        std::size_t i = pacxx::Thread::get().global.x;
        if (i < n)
          out[i] = in[i] * static_cast<float>(i);
      },
      pacxx_test::cover(prime))(cv.data(), out.begin(), out.size());
  std::vector<float> r = gpu::copy(out);
  for (std::size_t i = 0; i < prime; ++i)
    ASSERT_EQ(r[i], 2.0f * static_cast<float>(i)) << i;
}

TEST(Vector, LargeVectorRoundTrip) {
  const std::size_t n = (std::size_t(1) << 20) + 3;
  const std::vector<float> h = pacxx_test::random_floats(n, 21, -1.0f, 1.0f);
  pacxx::reset_stats();
  gpu::vector<float> v(h);
  gpu::vector<float> w(v);
  std::vector<float> back = gpu::copy(w);
  auto s = since_reset();
  EXPECT_EQ(s.bytes_to_device, n * sizeof(float));
  EXPECT_EQ(s.bytes_to_host, n * sizeof(float));
  EXPECT_EQ(s.device_allocations, 2u);
  EXPECT_EQ(back, h);
}

TEST(Vector, ElementTypesMustLiveInDeviceMemory) {
  static_assert(gpu::detail::is_element<Particle>::value, "");
  static_assert(gpu::detail::is_element<std::pair<int, double>>::value, "");
  static_assert(gpu::detail::is_element<std::tuple<short, double, unsigned char>>::value, "");
  static_assert(!gpu::detail::is_element<std::vector<int>>::value, "");
  static_assert(gpu::is_vector<gpu::vector<int>>::value && !gpu::is_vector<std::vector<int>>::value,
                "");
  static_assert(std::is_same<gpu::vector<float>::value_type, float>::value, "");
  // Iterators are device pointers in a class of their own (so that range-v3 can tell a
  // temporary gpu::vector's view, which owns it): contiguous, convertible to T*.
  static_assert(ranges::contiguous_iterator<gpu::vector<float>::iterator>, "");
  static_assert(ranges::contiguous_iterator<gpu::vector<float>::const_iterator>, "");
  static_assert(std::is_convertible<gpu::vector<float>::iterator, float *>::value, "");
  static_assert(std::is_convertible<gpu::vector<float>::const_iterator, const float *>::value, "");
  static_assert(!std::is_convertible<gpu::vector<float>::const_iterator, float *>::value, "");
  static_assert(std::is_trivially_copyable<gpu::vector<float>::iterator>::value, "");
  static_assert(!std::is_convertible<std::size_t, gpu::vector<float>>::value,
                "the size constructor is explicit");
  static_assert(!std::is_convertible<const std::vector<float> &, gpu::vector<float>>::value,
                "copying a host range to the device is explicit");
  SUCCEED();
}

} // namespace
