// End-to-end: compositions of range-v3 views over gpu::vectors — take of drop,
// zip | transform | take | stride, a range of ranges over a fused pipeline (chunk of
// zip | transform), repeat_n in a saxpy — on ints, each fused into gpu::reduce,
// gpu::transform, gpu::copy and gpu::for_each and compared exactly with range-v3 on the
// host (stl_views_support.hpp, cases in stl_views_cases.hpp). Compositions with reverse
// are in stl_views_compose_reverse_test, two more in stl_views_test, floats in
// stl_views_float_test.
#include "stl_views_cases.hpp"

namespace {

using namespace stl_test;

template <class P> class Composed : public ::testing::Test {};
using Cases = ::testing::Types<with<TakeOfDrop, int>, with<ZipTransformTakeStride, int>,
                               with<ChunkOfPipeline, int>, with<RepeatNSaxpy, int>>;
TYPED_TEST_SUITE(Composed, Cases, case_names);

TYPED_TEST(Composed, MatchesRangeV3OnTheHost) {
  check_all_sizes<typename TypeParam::Case, typename TypeParam::Element>(4321);
}

} // namespace
