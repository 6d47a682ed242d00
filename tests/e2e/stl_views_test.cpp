// End-to-end: single range-v3 views over gpu::vectors — zip of 2 and 3 ranges, zip_with,
// transform (unary and over a zip), iota, repeat bounded by a zip and by take, repeat_n,
// and two small compositions (a zip of two transforms, enumerate of stride) —
// fused into the eager GPU algorithms (gpu::reduce, gpu::transform, gpu::copy,
// gpu::for_each) at sizes 0, 1, 1009 and 2^20 + 3, compared with range-v3 evaluating the
// same pipeline on the host (stl_views_support.hpp, cases in stl_views_cases.hpp).
// Integers, compared exactly. take, drop, slice, stride, reverse, enumerate and chunk
// are in stl_views_slicing_test.cpp, compositions in stl_views_compose_test.cpp, floats
// and rvalue vectors in stl_views_float_test.cpp, view::const_ in stl_views_boxed_test.cpp.
#include "stl_views_cases.hpp"

namespace {

using namespace stl_test;

template <class P> class View : public ::testing::Test {};
using Cases =
    ::testing::Types<with<Zip2, int>, with<Zip3, int>, with<ZipWith, int>,
                     with<TransformUnary, int>, with<TransformOverZip, int>, with<Iota, int>,
                     with<RepeatBoundedByZip, int>, with<RepeatTake, int>, with<RepeatN, int>,
                     // two small compositions (the others: stl_views_compose_test)
                     with<ZipOfTransforms, int>, with<EnumerateStride, int>>;
TYPED_TEST_SUITE(View, Cases, case_names);

TYPED_TEST(View, MatchesRangeV3OnTheHost) {
  check_all_sizes<typename TypeParam::Case, typename TypeParam::Element>(1234);
}

TEST(Views, IotaAloneAndUnboundedIotaInAZip) {
  EXPECT_EQ(gpu::reduce(view::iota(0, 100000), std::int64_t(0)), std::int64_t(99999) * 100000 / 2);
  gpu::vector<int> v(prime, 2);
  // zip with an unbounded iota: the zip is as long as v.
  auto got = gpu::copy(view::zip(view::iota(10), v) | view::transform(mult));
  ASSERT_EQ(got.size(), prime);
  for (std::size_t i = 0; i < prime; ++i)
    ASSERT_EQ(got[i], 2 * (10 + static_cast<int>(i))) << i;
}

TEST(Views, ConstGpuVectorInAView) {
  const std::vector<int> h = input<int>(prime, 5);
  const gpu::vector<int> g(h);
  EXPECT_EQ(view::zip(g, view::repeat(2)) | view::transform(mult) | gpu::reduce(0),
            2 * ranges::accumulate(h, 0));
}

} // namespace
