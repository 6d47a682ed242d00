// 64-bit sizes (issue 34, item 10; for years Thrust's most reported class of bug):
// reduce and count_if over 2^32 + 7 elements, inclusive_scan and copy_if over
// 2^31 + 11, sort over 2^31 + 5, each checked exactly against a closed form; index
// spaces of 2D and 3D extents whose product passes 2^32 (issue 35 item 8), which cost no
// memory. Inputs that
// need not be stored are views (iota, repeat_n, transform), so the largest test needs
// about 20 GB of device memory (the 2^31 + 11 scan of 64-bit sums: 16 GiB, rounded up to
// the memory pool's size class); results are checked
// on the device (a count of mismatches against the closed form) and on the host in
// windows at the start, around 2^31 and 2^32, and at the end.
//
// On CUDA (ctest large_sizes_test_cuda, label gpu) the sizes are the large ones; a
// device without the memory skips the test saying so. On OpenCL (PoCL in CI) the same
// code runs at small sizes (2^20 + 7, 2^18 + 11, 2^18 + 5). PACXX_TEST_LARGE=0 or 1
// overrides the choice.
#include <pacxx/pacxx.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <numeric>
#include <range/v3/view/drop.hpp>
#include <string>
#include <tuple>
#include <vector>

namespace view = ranges::views;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

namespace {

bool large() {
  const char *v = std::getenv("PACXX_TEST_LARGE");
  if (v && *v)
    return std::strcmp(v, "1") == 0;
  return std::strcmp(pacxx::native_handles().backend, "cuda") == 0;
}

// The sizes: past 2^32, past 2^31 (signed 32-bit), and the sort's.
u64 size_past_2_32() { return large() ? (u64(1) << 32) + 7 : (u64(1) << 20) + 7; }
u64 size_past_2_31() { return large() ? (u64(1) << 31) + 11 : (u64(1) << 18) + 11; }
u64 sort_size() { return large() ? (u64(1) << 31) + 5 : (u64(1) << 18) + 5; }

bool out_of_memory(const pacxx::error &e) {
  const std::string w = e.what();
  return w.find("OUT_OF_MEMORY") != std::string::npos ||
         w.find("OUT_OF_RESOURCES") != std::string::npos ||
         w.find("MEM_OBJECT_ALLOCATION_FAILURE") != std::string::npos ||
         w.find("clSVMAlloc failed") != std::string::npos; // OpenCL says no more than that
}

// A device vector of n elements, or the test is skipped when the device lacks the memory.
#define ALLOCATE_OR_SKIP(T, name, n)                                                               \
  gpu::vector<T> name;                                                                             \
  try {                                                                                            \
    name = gpu::vector<T>(n);                                                                      \
  } catch (const pacxx::error &e) {                                                                \
    if (!out_of_memory(e))                                                                         \
      throw;                                                                                       \
    GTEST_SKIP() << "the device lacks the memory for " << (n) << " elements of " << sizeof(T)      \
                 << " bytes: " << e.what();                                                        \
  }

// Elements [first, first + count) of v on the host (clamped to v's size).
template <class T> std::vector<T> window(const gpu::vector<T> &v, u64 first, u64 count) {
  first = std::min<u64>(first, v.size());
  count = std::min<u64>(count, v.size() - first);
  std::vector<T> h(count);
  pacxx::detail::copy_to_host(h.data(), v.data() + first, count * sizeof(T));
  return h;
}

// Where the host looks: the start, around 2^31 and 2^32, the end.
std::vector<u64> window_starts(u64 n) {
  std::vector<u64> s = {0, (u64(1) << 31) - 512, (u64(1) << 32) - 512, n > 1024 ? n - 1024 : 0};
  s.erase(std::remove_if(s.begin(), s.end(), [n](u64 x) { return x >= n; }), s.end());
  return s;
}

// Checks out[i] == f(i) for every i on the device (one count_if over a zip with the
// index), and in the windows on the host.
template <class T, class F> void expect_everywhere(const gpu::vector<T> &out, u64 n, F f) {
  ASSERT_EQ(out.size(), n);
  const std::size_t wrong =
      gpu::count_if(view::zip(view::iota(u64(0), n), out), [f](const auto &p) {
        return std::get<1>(p) != f(static_cast<u64>(std::get<0>(p)));
      });
  EXPECT_EQ(wrong, 0u) << "elements differing from the closed form, of " << n;
  for (u64 first : window_starts(n)) {
    std::vector<T> h = window(out, first, 1024);
    for (std::size_t k = 0; k < h.size(); ++k)
      ASSERT_EQ(h[k], f(first + k)) << "at " << first + k << " of " << n;
  }
}

class LargeSizes : public ::testing::Test {
protected:
  // Each test's memory goes back to the driver: the next one needs other sizes.
  void TearDown() override { pacxx::release_cached_memory(); }
};

} // namespace

TEST_F(LargeSizes, ReduceOverMoreThan2To32Elements) {
  const u64 n = size_past_2_32();
  EXPECT_EQ(gpu::reduce(view::repeat_n(u64(1), static_cast<std::ptrdiff_t>(n)), u64(0)), n);
  // Every position weighs differently: a lost, repeated or misplaced element shows.
  // (In 128 bits: n (n - 1) passes 2^64 here, the sum does not.)
  const unsigned __int128 m = n;
  EXPECT_EQ(gpu::reduce(view::iota(u64(0), n), u64(0)), static_cast<u64>(m * (m - 1) / 2));
  // Sum of i^2 modulo 2^64 (the device's u64 sums wrap as the closed form does).
  const u64 squares = static_cast<u64>(m * (m - 1) * (2 * m - 1) / 6);
  EXPECT_EQ(
      gpu::reduce(view::iota(u64(0), n) | view::transform([](u64 i) { return i * i; }), u64(0)),
      squares);
  // A sum the compiler cannot fold into a formula: every element is loaded and added.
  const u64 q = n / 1000, r = n % 1000;
  EXPECT_EQ(
      gpu::reduce(view::iota(u64(0), n) | view::transform([](u64 i) { return i % 1000; }), u64(0)),
      q * (999 * 1000 / 2) + r * (r - 1) / 2);
}

TEST_F(LargeSizes, CountIfOverMoreThan2To32Elements) {
  const u64 n = size_past_2_32();
  EXPECT_EQ(gpu::count_if(view::iota(u64(0), n), [](u64 i) { return i % 3 == 0; }), (n + 2) / 3);
  EXPECT_EQ(gpu::count_if(view::repeat_n(1, static_cast<std::ptrdiff_t>(n)),
                          [](int x) { return x == 1; }),
            n);
}

TEST_F(LargeSizes, InclusiveScanOverMoreThan2To31Elements) {
  const u64 n = size_past_2_31();
  {
    ALLOCATE_OR_SKIP(u32, out, n);
    gpu::inclusive_scan(view::repeat_n(u32(1), static_cast<std::ptrdiff_t>(n)), out);
    expect_everywhere(out, n, [](u64 i) { return static_cast<u32>(i + 1); });
  }
  pacxx::release_cached_memory();
  ALLOCATE_OR_SKIP(u64, sums, n);
  gpu::inclusive_scan(view::iota(u64(0), n), sums);
  expect_everywhere(sums, n, [](u64 i) { return i * (i + 1) / 2; });
}

TEST_F(LargeSizes, CopyIfOverMoreThan2To31Elements) {
  const u64 n = size_past_2_31();
  const u64 odd = n / 2; // odd numbers below n
  ALLOCATE_OR_SKIP(u32, out, odd);
  const std::size_t c =
      gpu::copy_if(view::iota(u32(0), static_cast<u32>(n)), out, [](u32 i) { return i % 2 == 1; });
  ASSERT_EQ(c, odd);
  expect_everywhere(out, odd, [](u64 k) { return static_cast<u32>(2 * k + 1); });
}

// Past 2^32 input elements the selection counts in 64 bits (algorithm/copy_if.hpp).
TEST_F(LargeSizes, CopyIfOfFewOfMoreThan2To32Elements) {
  const u64 n = size_past_2_32();
  const u64 selected = n / 1024 + (n % 1024 > 5 ? 1 : 0); // i % 1024 == 5
  ALLOCATE_OR_SKIP(u64, out, selected);
  const std::size_t c =
      gpu::copy_if(view::iota(u64(0), n), out, [](u64 i) { return i % 1024 == 5; });
  ASSERT_EQ(c, selected);
  expect_everywhere(out, selected, [](u64 k) { return 1024 * k + 5; });
}

// The keys are a permutation of [0, n) ((a i + b) mod n with a prime to n): sorted,
// key i is i.
TEST_F(LargeSizes, SortOverMoreThan2To31Elements) {
  const u64 n = sort_size();
  constexpr u64 a = 2654435761u, b = 12345;
  ASSERT_EQ(std::gcd(a, n), u64(1));
  ALLOCATE_OR_SKIP(u32, keys, n);
  gpu::transform(view::iota(u64(0), n), keys,
                 [n](u64 i) { return static_cast<u32>((a * i + b) % n); });
  std::vector<u32> before = window(keys, 0, 4);
  ASSERT_EQ(before[1], static_cast<u32>((a + b) % n));
  try {
    gpu::sort(keys);
  } catch (const pacxx::error &e) {
    if (!out_of_memory(e))
      throw;
    GTEST_SKIP() << "the device lacks the memory for the sort's scratch: " << e.what();
  }
  expect_everywhere(keys, n, [](u64 i) { return static_cast<u32>(i); });
}

// The same with a comparator (the merge sort), descending.
TEST_F(LargeSizes, SortWithAComparatorOverMoreThan2To31Elements) {
  const u64 n = sort_size();
  constexpr u64 a = 2654435761u, b = 777;
  ALLOCATE_OR_SKIP(u32, keys, n);
  gpu::transform(view::iota(u64(0), n), keys,
                 [n](u64 i) { return static_cast<u32>((a * i + b) % n); });
  try {
    gpu::sort(keys, [](u32 x, u32 y) { return x > y; });
  } catch (const pacxx::error &e) {
    if (!out_of_memory(e))
      throw;
    GTEST_SKIP() << "the device lacks the memory for the sort's scratch: " << e.what();
  }
  expect_everywhere(keys, n, [n](u64 i) { return static_cast<u32>(n - 1 - i); });
}

// ---- Index spaces past 2^32 (issue 35 item 8): no memory, only index arithmetic ----------

namespace {
// 2D and 3D extents of more than 2^32 indices (on OpenCL, where PoCL's two cores would
// take minutes over 2^32 elements, about 10^6 of them), and their closed forms.
struct extents2 {
  u64 w, h;
};
extents2 big_2d() { return large() ? extents2{70001, 61363} : extents2{1031, 997}; }
} // namespace

// count_if, reduce and for_each over gpu::views::indices(w, h) with w h > 2^32 (on CUDA):
// coordinates from a 64-bit linear index (count_if and reduce take the flat path, one
// division by w per element), and the 2D launch of for_each.
TEST_F(LargeSizes, IndicesOfMoreThan2To32Points) {
  const extents2 e = big_2d();
  const u64 w = e.w, h = e.h, n = w * h;
  if (large())
    ASSERT_GT(n, u64(1) << 32);
  // The diagonal and the last row: points past linear index 2^32 (the last row starts
  // at (h - 1) w > 2^32) and a test of both coordinates.
  auto marked = [h](pacxx::index2 p) { return p.x == p.y || p.y == h - 1; };
  const u64 want = std::min(w, h) + w - (h - 1 < w ? 1 : 0);
  EXPECT_EQ(gpu::count_if(gpu::views::indices(w, h), marked), want);
  // Sum of x + w y over all points: the sum of the linear indices, n (n - 1) / 2.
  const unsigned __int128 m = n;
  EXPECT_EQ(gpu::reduce(gpu::views::indices(w, h) |
                            view::transform([w](pacxx::index2 p) { return u64(p.x + w * p.y); }),
                        u64(0)),
            static_cast<u64>(m * (m - 1) / 2));
  // The 2D launch: every point visited once, by coordinates.
  gpu::vector<u64> count(1, u64(0));
  gpu::for_each(gpu::views::indices(w, h), [marked, c = count.data()](pacxx::index2 p) {
    if (marked(p))
      pacxx::atomic_add(c, u64(1));
  });
  EXPECT_EQ(gpu::copy(count)[0], want);
}

// The same for indices(w, h, d), w h d > 2^32 on CUDA.
TEST_F(LargeSizes, IndicesOf3DExtentsPast2To32) {
  const u64 w = large() ? 1031 : 67, h = large() ? 1031 : 61, d = large() ? 4041 : 59;
  if (large())
    ASSERT_GT(w * h * d, u64(1) << 32);
  auto marked = [d](pacxx::index3 p) { return p.x == p.y || p.z == d - 1; };
  const u64 diag = std::min(w, h), want = diag * d + w * h - diag;
  EXPECT_EQ(gpu::count_if(gpu::views::indices(w, h, d), marked), want);
  gpu::vector<u64> count(1, u64(0));
  gpu::for_each(gpu::views::indices(w, h, d), [marked, c = count.data()](pacxx::index3 p) {
    if (marked(p))
      pacxx::atomic_add(c, u64(1));
  });
  EXPECT_EQ(gpu::copy(count)[0], want);
}

// The points of indices(w, h), w h > 2^32, from just below linear index 2^32 to the end,
// on every backend (about 770000 of them): the coordinates of linear indices past 2^32
// against the host's; the same for indices(w, h, d) on CUDA.
TEST_F(LargeSizes, IndicesPast2To32FromTheirTail) {
  const u64 w = 70001, h = 61363, n = w * h, first = (u64(1) << 32) - (u64(1) << 18);
  ASSERT_GT(n, u64(1) << 32);
  auto tail = gpu::views::indices(w, h) | view::drop(static_cast<std::ptrdiff_t>(first));
  ASSERT_EQ(static_cast<u64>(ranges::size(tail)), n - first);
  // A hash of each point's coordinates, summed: a point read with wrong coordinates
  // changes the sum.
  auto hash = [](pacxx::index2 p) { return u64(p.x) * 2654435761u ^ u64(p.y) * 40503u; };
  u64 want = 0, diagonal = 0;
  for (u64 i = first; i < n; ++i) {
    const pacxx::index2 p{i % w, i / w};
    want += hash(p);
    diagonal += p.x == p.y;
  }
  EXPECT_EQ(gpu::reduce(tail | view::transform(hash), u64(0)), want);
  EXPECT_EQ(gpu::count_if(tail, [](pacxx::index2 p) { return p.x == p.y; }), diagonal);
  // And through the 3D index space: (x, y, z) of a linear index past 2^32. Not on
  // OpenCL: PoCL 3.1's kernel compiler spent minutes in one of its function passes on
  // this reduction (2026-11-27; the 2D one above compiles in about a second).
  if (!large())
    return;
  const u64 w3 = 1031, h3 = 1031, d3 = 4041, n3 = w3 * h3 * d3;
  ASSERT_GT(n3, u64(1) << 32);
  auto tail3 = gpu::views::indices(w3, h3, d3) | view::drop(static_cast<std::ptrdiff_t>(first));
  auto hash3 = [](pacxx::index3 p) {
    return u64(p.x) * 2654435761u ^ u64(p.y) * 40503u ^ u64(p.z) * 97u;
  };
  u64 want3 = 0;
  for (u64 i = first; i < n3; ++i)
    want3 += hash3(pacxx::index3{i % w3, i / w3 % h3, i / (w3 * h3)});
  EXPECT_EQ(gpu::reduce(tail3 | view::transform(hash3), u64(0)), want3);
}
