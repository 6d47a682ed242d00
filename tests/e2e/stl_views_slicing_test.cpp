// End-to-end: range-v3 views that select, reorder or group the elements of a gpu::vector
// — take, drop, slice, stride, reverse, enumerate and chunk (a range of ranges, each chunk
// reduced inside the kernel that consumes it) — fused into gpu::reduce, gpu::transform,
// gpu::copy and gpu::for_each (writing through the views' references, which shows which
// elements a view reaches and in which order) at sizes 0, 1, 1009 and 2^20 + 3, compared
// with range-v3 on the host (stl_views_support.hpp, cases in stl_views_cases.hpp).
#include "stl_views_cases.hpp"

namespace {

using namespace stl_test;

template <class P> class View : public ::testing::Test {};
using Cases =
    ::testing::Types<with<Take, int>, with<Drop, int>, with<Slice, int>, with<Stride, int>,
                     with<Reverse, int>, with<Enumerate, int>, with<Chunk, int>>;
TYPED_TEST_SUITE(View, Cases, case_names);

TYPED_TEST(View, MatchesRangeV3OnTheHost) {
  check_all_sizes<typename TypeParam::Case, typename TypeParam::Element>(2345);
}

TEST(Views, ChunksSummedInsideTransform) {
  const std::vector<int> h = input<int>(prime, 77);
  gpu::vector<int> g(h);
  const std::size_t k = 10, chunks = (prime + k - 1) / k;
  gpu::vector<int> sums(chunks);
  gpu::transform(view::chunk(g, k), sums, [](auto chunk) {
    int s = 0;
    for (int x : chunk)
      s += x;
    return s;
  });
  std::vector<int> want;
  for (auto chunk : view::chunk(h, k))
    want.push_back(ranges::accumulate(chunk, 0));
  EXPECT_EQ(gpu::copy(sums), want);
  EXPECT_EQ(want.back(), ranges::accumulate(view::drop(h, 1000), 0)) << "the last chunk is short";
}

TEST(Views, ReverseOfAConstGpuVector) {
  const std::vector<int> h = input<int>(prime, 5);
  const gpu::vector<int> g(h);
  EXPECT_EQ(view::reverse(g) | view::transform(square_plus_one) | gpu::reduce(0),
            ranges::accumulate(view::reverse(h) | view::transform(square_plus_one), 0));
}

} // namespace
