// End-to-end: compositions of range-v3 views with reverse over gpu::vectors —
// zip(iota, v) | transform | stride | reverse, reverse of a strided zip of three (written
// through its references), zip_with of reverse and drop, a slice of a reversed zip, drop
// of stride of reverse — on ints, each fused into gpu::reduce, gpu::transform, gpu::copy
// and gpu::for_each and compared exactly with range-v3 on the host
// (stl_views_support.hpp, cases in stl_views_cases.hpp).
#include "stl_views_cases.hpp"

namespace {

using namespace stl_test;

template <class P> class ComposedWithReverse : public ::testing::Test {};
using Cases = ::testing::Types<with<ZipIotaTransformStrideReverse, int>,
                               with<ReverseStrideZip3, int>, with<ZipWithReverseDrop, int>,
                               with<SliceReverseZip, int>, with<DropStrideReverse, int>>;
TYPED_TEST_SUITE(ComposedWithReverse, Cases, case_names);

TYPED_TEST(ComposedWithReverse, MatchesRangeV3OnTheHost) {
  check_all_sizes<typename TypeParam::Case, typename TypeParam::Element>(6543);
}

} // namespace
