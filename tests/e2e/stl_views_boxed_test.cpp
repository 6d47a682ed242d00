// End-to-end: views whose function or adaptor range-v3 stores in a "coalesced" box (an
// empty, trivial class: box::get() returns a static member instead of a subobject):
// view::const_, view::transform and zip_with with function objects that are empty
// structs (a user's functor, std::negate<>, std::minus<>). In kernel code that static
// member is a host global; the views must still run on the device. Built as C++20, where
// a captureless lambda is trivial too, so every lambda in these pipelines (those of
// stl_views_support.hpp included) is boxed the same way. Compared with range-v3 on the
// host.
#include "stl_views_cases.hpp"

#include <functional>

// A user's function object: an empty, trivial struct.
struct square_fn {
  int operator()(int x) const { return x * x; }
};

namespace {

using namespace stl_test;

struct Const {
  static constexpr const char *name = "const";
  static constexpr bool writable = false, copyable = true, big = true;
  template <class A, class B, class C> static auto make(A &a, B &, C &) { return view::const_(a); }
};

struct TransformFunctionObject {
  static constexpr const char *name = "transform_function_object";
  static constexpr bool writable = false, copyable = true, big = false;
  template <class A, class B, class C> static auto make(A &a, B &, C &) {
    return view::transform(a, square_fn{});
  }
};

struct TransformStdFunctionObject {
  static constexpr const char *name = "zip_with_std_function_objects";
  static constexpr bool writable = false, copyable = true, big = false;
  template <class A, class B, class C> static auto make(A &a, B &b, C &) {
    return view::zip_with(std::minus<>{}, view::transform(a, std::negate<>{}), b);
  }
};

template <class P> class BoxedView : public ::testing::Test {};
using Cases = ::testing::Types<with<Const, int>, with<TransformFunctionObject, int>,
                               with<TransformStdFunctionObject, int>>;
TYPED_TEST_SUITE(BoxedView, Cases, case_names);

TYPED_TEST(BoxedView, MatchesRangeV3OnTheHost) {
  check_all_sizes<typename TypeParam::Case, typename TypeParam::Element>(555);
}

TEST(BoxedViews, ConstViewIsReadOnly) {
  gpu::vector<int> v(prime, 3);
  auto c = view::const_(v);
  static_assert(std::is_same<ranges::range_reference_t<decltype(c)>, const int &>::value,
                "view::const_ gives const references");
  EXPECT_EQ(c | gpu::reduce(0), 3 * static_cast<int>(prime));
}

} // namespace
