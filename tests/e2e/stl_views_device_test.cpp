// End-to-end (issue 34, items 5, 6 and 8a): which range-v3 views run on a device.
//
//   the audit      for every view of range-v3 0.12 over a gpu::vector: whether
//                  pacxx::is_device_range holds (random access and device copyable, the
//                  table in docs/views-and-algorithms.md), checked at compile time; views
//                  with a value template parameter (sliding_view<Rng, cache>) were wrongly refused
//   sliding        view::sliding(2) feeding an adjacent-difference reduce (the reproducer)
//                  and a transform of windows of 3
//   cartesian_product, bounded cycle, replace_if, intersperse, take_last, drop_last ...
//                  fused into gpu::reduce or gpu::transform against range-v3 on the host
//                  (chunk and stride: stl_views_slicing_test)
//                  (concat cannot run on a device: a compile-time error, see the audit)
//   unbounded second inputs   Thrust's constant_iterator idiom: view::repeat as the values
//                  of reduce_by_key and inclusive_scan_by_key, the second range of
//                  inner_product and equal, iota and repeat as the input of transform,
//                  scan, gather and lower_bound (the size from the bounded range; before,
//                  an endless walk at -O0 and a crash at -O2)
// Built as C++14: the headers' traits compile there too.
#include "test_support.hpp"

#include <pacxx/pacxx.hpp>

#include <range/v3/numeric/accumulate.hpp>
#include <range/v3/view.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdlib>
#include <vector>

namespace view = ranges::views;

// Named in unevaluated operands only.
gpu::vector<int> &d();

namespace {

// ---- the audit (compile time) --------------------------------------------------------

using DV = gpu::vector<int>;
template <class V> constexpr bool on_device() { return pacxx::is_device_range<V>::value; }
template <class V> constexpr bool reads_bounds() {
  return pacxx::detail::finds_bounds_by_reading<V>::value;
}
template <class V> constexpr bool unbounded() { return pacxx::detail::is_unbounded<V>::value; }

struct Pred {
  bool operator()(int x) const { return x > 0; }
};
struct Less {
  bool operator()(int a, int b) const { return a < b; }
};
struct Window {
  template <class W> int operator()(const W &w) const { return w[1] - w[0]; }
};

using Ref = decltype(view::all(d()));
// Random access, device copyable: they run on the device.
static_assert(on_device<Ref>(), "ref_view");
static_assert(on_device<decltype(d() | view::sliding(2))>(), "sliding (value parameter)");
static_assert(on_device<decltype(d() | view::sliding(2) | view::transform(Window{}))>(),
              "a view over sliding");
static_assert(on_device<decltype(d() | view::sliding(3) | view::chunk(2))>(), "chunk of sliding");
static_assert(on_device<decltype(d() | view::chunk(2))>(), "chunk (chunk_view_<Rng, bool>)");
static_assert(on_device<decltype(d() | view::stride(2))>(), "stride");
static_assert(on_device<decltype(view::cartesian_product(d(), d()))>(), "cartesian_product");
static_assert(on_device<decltype(d() | view::cycle | view::take(5))>(), "bounded cycle");
static_assert(on_device<decltype(d() | view::slice(1, 3))>(), "slice");
static_assert(on_device<decltype(d() | view::take_exactly(2))>(), "take_exactly");
static_assert(on_device<decltype(d() | view::drop_exactly(2))>(), "drop_exactly");
static_assert(on_device<decltype(d() | view::take_last(2))>(), "take_last");
static_assert(on_device<decltype(d() | view::drop_last(2))>(), "drop_last");
static_assert(on_device<decltype(d() | view::tail)>(), "tail");
static_assert(on_device<decltype(d() | view::reverse)>(), "reverse");
static_assert(on_device<decltype(d() | view::enumerate)>(), "enumerate");
static_assert(on_device<decltype(d() | view::const_)>(), "const_");
static_assert(on_device<decltype(d() | view::move)>(), "move");
static_assert(on_device<decltype(d() | view::replace(1, 2))>(), "replace");
static_assert(on_device<decltype(d() | view::replace_if(Pred{}, 2))>(), "replace_if");
static_assert(on_device<decltype(d() | view::intersperse(0))>(), "intersperse");
static_assert(on_device<decltype(d() | view::addressof)>(), "addressof");
static_assert(on_device<decltype(view::zip(d(), d()) | view::keys)>(), "keys");
static_assert(on_device<decltype(view::zip(d(), d()) | view::values)>(), "values");
static_assert(on_device<decltype(view::zip_with(Less{}, d(), d()))>(), "zip_with");
static_assert(on_device<decltype(view::counted(d().begin(), 3))>(), "counted");
static_assert(on_device<decltype(view::iota(0, 10))>(), "iota");
static_assert(on_device<decltype(view::closed_iota(0, 10))>(), "closed_iota");
static_assert(on_device<decltype(view::repeat_n(1, 10))>(), "repeat_n");
static_assert(on_device<decltype(view::single(1))>(), "single");
static_assert(on_device<decltype(view::empty<int>)>(), "empty");
// Not random access: no kernel can index them (filter and remove_if are evaluated
// predicated by reduce, for_each, copy and copy_if: pacxx/detail/filtered.hpp).
static_assert(!on_device<decltype(d() | view::partial_sum)>(), "partial_sum");
static_assert(!on_device<decltype(d() | view::exclusive_scan(0))>(), "exclusive_scan");
static_assert(!on_device<decltype(d() | view::adjacent_filter(Less{}))>(), "adjacent_filter");
static_assert(!on_device<decltype(d() | view::chunk(2) | view::join)>(), "join");
static_assert(!on_device<decltype(d() | view::chunk_by(Less{}))>(), "chunk_by");
static_assert(!on_device<decltype(d() | view::split(0))>(), "split");
static_assert(!on_device<decltype(d() | view::unique)>(), "unique");
static_assert(!on_device<decltype(d() | view::filter(Pred{}))>(), "filter");
static_assert(!on_device<decltype(d() | view::cache1)>(), "cache1");
static_assert(!on_device<decltype(view::set_union(d(), d()))>(), "set_union");
static_assert(!on_device<decltype(view::linear_distribute(0., 1., 10))>(), "linear_distribute");
// Type-erased: it calls through host memory.
static_assert(!on_device<ranges::any_view<int, ranges::category::random_access>>(), "any_view");
// Their bounds are found by reading elements: refused by every algorithm at compile time
// (tests/stl_compile_errors/*_device_data.cpp).
static_assert(reads_bounds<decltype(d() | view::take_while(Pred{}))>(), "take_while");
static_assert(reads_bounds<decltype(d() | view::drop_while(Pred{}))>(), "drop_while");
static_assert(reads_bounds<decltype(d() | view::trim(Pred{}))>(), "trim");
static_assert(reads_bounds<decltype(d() | view::delimit(3))>(), "delimit");
static_assert(reads_bounds<decltype(view::zip(d(), d() | view::trim(Pred{})))>(), "nested");
static_assert(!reads_bounds<decltype(d() | view::sliding(2))>(), "sliding reads no bounds");
// concat's iterator is a variant that throws: refused with its own message
// (tests/stl_compile_errors/concat_device_data.cpp).
static_assert(pacxx::detail::throws_on_device<decltype(view::concat(d(), d()))>::value, "concat");
static_assert(pacxx::detail::throws_on_device<decltype(view::concat(d(), d()) |
                                                       view::transform(Window{}))>::value,
              "a view over concat");
// Unbounded: no size of their own (a second input takes the first's).
static_assert(unbounded<decltype(d() | view::cycle)>(), "cycle");
static_assert(unbounded<decltype(view::repeat(1))>(), "repeat");
static_assert(unbounded<decltype(view::iota(0))>(), "iota(x)");
static_assert(!unbounded<decltype(view::zip(d(), view::repeat(1)))>(), "zip with repeat");

// ---- on the device -------------------------------------------------------------------

std::vector<int> host_ints(std::size_t n, std::uint64_t seed) {
  return pacxx_test::ints(n, seed, -50, 50);
}

struct AbsDifference {
  template <class W> int operator()(const W &w) const { return std::abs(w[1] - w[0]); }
};

// The reproducer: the total variation of a sequence.
TEST(DeviceViews, SlidingFeedsAnAdjacentDifferenceReduce) {
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(2), pacxx_test::prime}) {
    const std::vector<int> h = host_ints(n, 3 + n);
    gpu::vector<int> g = gpu::copy(h);
    const int want = ranges::accumulate(h | view::sliding(2) | view::transform(AbsDifference{}), 0);
    EXPECT_EQ(g | view::sliding(2) | view::transform(AbsDifference{}) | gpu::reduce(0), want)
        << "n = " << n;
  }
}

struct WindowSum {
  template <class W> int operator()(const W &w) const {
    int s = 0;
    for (int x : w)
      s += x;
    return s;
  }
};

TEST(DeviceViews, SlidingWindowsOfThreeIntoAVector) {
  const std::vector<int> h = host_ints(pacxx_test::prime, 5);
  gpu::vector<int> g = gpu::copy(h);
  gpu::vector<int> out(h.size() - 2);
  gpu::transform(g | view::sliding(3), out, WindowSum{});
  const std::vector<int> want =
      h | view::sliding(3) | view::transform(WindowSum{}) | ranges::to<std::vector<int>>();
  EXPECT_EQ(gpu::copy(out), want);
}

// A cartesian product through gpu::transform (one element a thread): fused into
// gpu::reduce's kernel (several items a thread, unrolled) its index arithmetic took PoCL
// 80 s to compile (2 shared cores). chunk and stride are run by every algorithm in
// stl_views_slicing_test.
TEST(DeviceViews, CartesianProduct) {
  const std::vector<int> ha = host_ints(37, 11), hb = host_ints(29, 12);
  gpu::vector<int> a = gpu::copy(ha), b = gpu::copy(hb);
  gpu::vector<int> out(ha.size() * hb.size());
  gpu::transform(view::cartesian_product(a, b), out, pacxx_test::mult);
  EXPECT_EQ(gpu::copy(out), (view::cartesian_product(ha, hb) | view::transform(pacxx_test::mult) |
                             ranges::to<std::vector<int>>()));
}

TEST(DeviceViews, BoundedCycleReplaceIfIntersperse) {
  const std::vector<int> h = host_ints(pacxx_test::prime, 15);
  gpu::vector<int> g = gpu::copy(h);
  const std::size_t n = 2 * h.size() + 5;
  EXPECT_EQ(g | view::cycle | view::take(n) | gpu::reduce(0),
            ranges::accumulate(h | view::cycle | view::take(n), 0));
  EXPECT_EQ(g | view::replace_if(Pred{}, 7) | gpu::reduce(0),
            ranges::accumulate(h | view::replace_if(Pred{}, 7), 0));
  EXPECT_EQ(g | view::intersperse(3) | gpu::reduce(0),
            ranges::accumulate(h | view::intersperse(3), 0));
}

struct Deref {
  int operator()(const int *p) const { return *p; }
};

// The rest of the table's "yes" row that no other program runs: each reduced once.
TEST(DeviceViews, TheOtherRandomAccessViews) {
  const std::vector<int> h = host_ints(pacxx_test::prime, 16),
                         h2 = host_ints(pacxx_test::prime, 17);
  gpu::vector<int> g = gpu::copy(h), g2 = gpu::copy(h2);
  EXPECT_EQ(g | view::take_last(100) | gpu::reduce(0),
            ranges::accumulate(h | view::take_last(100), 0));
  EXPECT_EQ(g | view::drop_last(100) | gpu::reduce(0),
            ranges::accumulate(h | view::drop_last(100), 0));
  EXPECT_EQ(g | view::take_exactly(300) | gpu::reduce(0),
            ranges::accumulate(h | view::take_exactly(300), 0));
  EXPECT_EQ(g | view::drop_exactly(300) | gpu::reduce(0),
            ranges::accumulate(h | view::drop_exactly(300), 0));
  EXPECT_EQ(g | view::replace(3, -1000) | gpu::reduce(0),
            ranges::accumulate(h | view::replace(3, -1000), 0));
  EXPECT_EQ(g | view::move | gpu::reduce(0), ranges::accumulate(h, 0));
  EXPECT_EQ(view::zip(g, g2) | view::values | gpu::reduce(0), ranges::accumulate(h2, 0));
  EXPECT_EQ(g | view::addressof | view::transform(Deref{}) | gpu::reduce(0),
            ranges::accumulate(h, 0));
  EXPECT_EQ(view::closed_iota(-5, 1000) | gpu::reduce(0),
            ranges::accumulate(view::closed_iota(-5, 1000), 0));
}

// ---- unbounded second inputs ---------------------------------------------------------

TEST(UnboundedSecondInput, ByKeyWithRepeatedValues) {
  std::vector<int> hk(pacxx_test::prime);
  for (std::size_t i = 0; i < hk.size(); ++i)
    hk[i] = int(i / 7);
  gpu::vector<int> k = gpu::copy(hk), ok(hk.size()), ov(hk.size()), scan(hk.size());
  // Counting the keys of each run (Thrust's reduce_by_key with a constant_iterator).
  const std::size_t runs = gpu::reduce_by_key(k, view::repeat(1), ok, ov);
  ASSERT_EQ(runs, (hk.size() + 6) / 7);
  const std::vector<int> counts = gpu::copy(ov);
  for (std::size_t r = 0; r < runs; ++r)
    ASSERT_EQ(counts[r], r + 1 < runs ? 7 : int(hk.size() - 7 * r)) << "run " << r;
  gpu::inclusive_scan_by_key(k, view::repeat(1), scan);
  const std::vector<int> ranks = gpu::copy(scan);
  for (std::size_t i = 0; i < hk.size(); ++i)
    ASSERT_EQ(ranks[i], int(i % 7) + 1) << i;
  gpu::exclusive_scan_by_key(k, view::repeat(2), scan, 0);
  EXPECT_EQ(gpu::copy(scan)[8], 2);
}

TEST(UnboundedSecondInput, InnerProductEqualTransformScanGather) {
  const std::vector<float> ha = pacxx_test::random_floats(pacxx_test::prime, 17, -1.f, 1.f);
  gpu::vector<float> a = gpu::copy(ha);
  float want = 0.f;
  for (float x : ha)
    want += 2.f * x;
  EXPECT_NEAR(gpu::inner_product(a, view::repeat(2.f), 0.f), want, 1e-3f);
  EXPECT_NEAR(gpu::inner_product(view::repeat(2.f), a, 0.f), want, 1e-3f);

  gpu::vector<int> sevens(100, 7), iota(100), out(100);
  EXPECT_TRUE(gpu::equal(sevens, view::repeat(7)));
  EXPECT_FALSE(gpu::equal(view::repeat(8), sevens));
  gpu::transform(view::iota(0), iota, pacxx_test::twice); // the output bounds it
  const std::vector<int> h_iota = gpu::copy(iota);
  for (std::size_t i = 0; i < h_iota.size(); ++i)
    ASSERT_EQ(h_iota[i], 2 * int(i));
  gpu::inclusive_scan(view::repeat(1), out); // 1, 2, 3, ...
  EXPECT_EQ(gpu::copy(out).back(), 100);
  gpu::gather(view::repeat(5), iota, out); // out[i] = iota[5]
  EXPECT_EQ(gpu::copy(out), std::vector<int>(100, 10));
  gpu::copy(view::repeat(3), view::all(out)); // a view: it keeps its size
  EXPECT_EQ(gpu::copy(out), std::vector<int>(100, 3));
}

} // namespace
