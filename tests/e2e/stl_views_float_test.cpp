// End-to-end: view pipelines over gpu::vectors of floats (the paper's dot product,
// zip(iota, v) | transform | stride | reverse, a range of ranges over a fused pipeline,
// repeat_n in a saxpy, a reversed strided zip of three written through its references),
// fused into gpu::reduce, gpu::transform, gpu::copy and gpu::for_each and compared with
// range-v3 on the host within a tolerance (stl_views_support.hpp); and views over rvalue
// gpu::vectors: each temporary lives until the end of the full expression, which is
// where the algorithm consumes the view.
#include "stl_views_cases.hpp"

namespace {

using namespace stl_test;

template <class P> class FloatView : public ::testing::Test {};
using Cases = ::testing::Types<with<Dot, float>, with<ZipIotaTransformStrideReverse, float>,
                               with<ChunkOfPipeline, float>, with<RepeatNSaxpy, float>,
                               with<ReverseStrideZip3, float>>;
TYPED_TEST_SUITE(FloatView, Cases, case_names);

TYPED_TEST(FloatView, MatchesRangeV3OnTheHost) {
  check_all_sizes<typename TypeParam::Case, typename TypeParam::Element>(5432);
}

TEST(RvalueViews, EveryAlgorithmOverTemporaries) {
  const std::vector<int> a = input<int>(prime, 91), b = input<int>(prime, 92);
  std::vector<int> products(prime);
  for (std::size_t i = 0; i < prime; ++i)
    products[i] = a[i] * b[i];
  const int dot = ranges::accumulate(products, 0);

  EXPECT_EQ(view::zip(gpu::copy(a), gpu::copy(b)) | view::transform(mult) | gpu::reduce(0), dot);
  EXPECT_EQ(
      gpu::reduce(view::zip(gpu::vector<int>(a), gpu::vector<int>(b)) | view::transform(mult), 0),
      dot);

  // gpu::copy of a view over temporaries.
  EXPECT_EQ(gpu::copy(view::zip(gpu::copy(a), gpu::copy(b)) | view::transform(mult)), products);

  // gpu::transform reading a temporary into an lvalue vector.
  gpu::vector<int> out(prime);
  gpu::transform(view::reverse(gpu::copy(a)), out, negate);
  std::vector<int> want(a.rbegin(), a.rend());
  for (int &x : want)
    x = -x;
  EXPECT_EQ(gpu::copy(out), want);

  // gpu::for_each over a zip of a temporary and an lvalue, writing the lvalue.
  gpu::for_each(view::zip(gpu::copy(b), out),
                [](auto &&t) { std::get<1>(t) = std::get<0>(t) * 3; });
  want = b;
  for (int &x : want)
    x *= 3;
  EXPECT_EQ(gpu::copy(out), want);

  // gpu::materialize of a pipeline over a temporary: a new gpu::vector.
  gpu::vector<int> m = gpu::materialize(view::stride(gpu::copy(a), 2));
  std::vector<int> strided;
  for (std::size_t i = 0; i < prime; i += 2)
    strided.push_back(a[i]);
  EXPECT_EQ(gpu::copy(m), strided);
}

TEST(RvalueViews, CopyIntoAnExistingVector) {
  const std::vector<float> a = input<float>(prime, 93);
  gpu::vector<float> g(a);
  gpu::vector<float> out(prime);
  const float *storage = out.data();
  gpu::copy(view::reverse(g), out); // the same size: written in place
  EXPECT_EQ(out.data(), storage);
  EXPECT_EQ(gpu::copy(out), std::vector<float>(a.rbegin(), a.rend()));

  // A different size: out then holds exactly the view's elements.
  gpu::copy(view::take(view::reverse(g), 10), out);
  ASSERT_EQ(out.size(), 10u);
  EXPECT_EQ(gpu::copy(out), std::vector<float>(a.rbegin(), a.rbegin() + 10));

  // The view may read out itself: a new buffer is written, then swapped in.
  gpu::vector<float> self(a);
  gpu::copy(view::stride(self, 2), self);
  std::vector<float> strided;
  for (std::size_t i = 0; i < prime; i += 2)
    strided.push_back(a[i]);
  EXPECT_EQ(gpu::copy(self), strided);
}

} // namespace
