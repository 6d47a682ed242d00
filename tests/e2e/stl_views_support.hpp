// Shared by the view tests (stl_views_*_test.cpp): one harness
// that evaluates a view pipeline with every eager GPU algorithm and compares the result
// with range-v3 evaluating the same pipeline on the host.
//
// A case is a struct with
//   make(a, b, c)      builds the pipeline from three equally long ranges: called with
//                      gpu::vectors for the device and with std::vectors holding the same
//                      values for the host reference (one generic function, so the two
//                      pipelines are the same code)
//   mutate(e, i)       (writable cases) writes through the reference e of element i
//   writable           the pipeline's elements are references into a, b or c
//   copyable           gpu::copy(view) can bring the elements to the host (not a range of
//                      ranges, whose elements hold device pointers)
//   big                also run at 2^20 + 3 elements (a representative subset only: the
//                      whole program must stay within ~30 s on PoCL with 2 cores)
//
// For each size (0, 1, 1009 and, for big cases, 2^20 + 3) the harness checks
//   gpu::reduce      over view | transform(flat)                  (one kernel)
//   gpu::transform   of the view into a gpu::vector               (one kernel)
//   gpu::copy        of the view into a std::vector                (one kernel)
//   gpu::for_each    over zip(view, out), writing out through the zip's references
//   gpu::for_each    over zip(view, iota), writing through the view's own references
//                    (writable cases), then a, b and c are compared with the host's
// `flat` turns an element into one number: tuples (zip, enumerate) become a weighted sum
// of their components, ranges (chunk) a weighted sum of their elements, so a chunk is
// reduced inside the kernel of the algorithm that consumes it.
#pragma once
#include "test_support.hpp"

#include <pacxx/pacxx.hpp>

#include <range/v3/numeric/accumulate.hpp>
#include <range/v3/range/concepts.hpp>
#include <range/v3/view.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace view = ranges::views;

namespace stl_test {

constexpr std::size_t prime = 1009;
constexpr std::size_t big_size = (std::size_t(1) << 20) + 3;

// ---------------------------------------------------------------------------------
// flat: an element of any pipeline as one number (host and device code alike).

template <class T, class = void> struct is_tuple_like : std::false_type {};
template <class T>
struct is_tuple_like<T, std::void_t<decltype(std::tuple_size<T>::value)>> : std::true_type {};

template <class T> auto flatten(const T &x);

template <class T, std::size_t... I> auto flatten_tuple(const T &t, std::index_sequence<I...>) {
  using R = std::common_type_t<decltype(flatten(std::get<I>(t)))...>;
  R r = 0;
  ((r += static_cast<R>(I + 1) * static_cast<R>(flatten(std::get<I>(t)))), ...);
  return r;
}

template <class T> auto flatten(const T &x) {
  using D = std::decay_t<T>;
  if constexpr (is_tuple_like<D>::value) {
    return flatten_tuple(x, std::make_index_sequence<std::tuple_size<D>::value>{});
  } else if constexpr (ranges::range<D>) {
    D r = x; // a view: a copy of our own to iterate
    using E = decltype(flatten(*ranges::begin(r)));
    E sum = 0, weight = 1;
    for (auto &&e : r) {
      sum += weight * flatten(e);
      weight = weight == 3 ? 1 : weight + 1;
    }
    return sum;
  } else {
    return x;
  }
}

// As a function object for view::transform.
constexpr auto flat = [](const auto &x) { return flatten(x); };

template <class V>
using flat_t = std::decay_t<decltype(flatten(*ranges::begin(std::declval<V &>())))>;

// ---------------------------------------------------------------------------------
// Inputs and comparisons.

template <class T> std::vector<T> input(std::size_t n, std::uint64_t seed) {
  if constexpr (std::is_floating_point<T>::value) {
    return pacxx_test::random_floats(n, seed, -1.0f, 1.0f);
  } else {
    pacxx_test::rng r(seed);
    std::vector<T> v(n);
    for (auto &x : v)
      x = static_cast<T>(r.integer(-50, 50));
    return v;
  }
}

template <class T> constexpr bool exact = !std::is_floating_point<T>::value;

// Element-wise results: exact for integers; floats may differ in the last bits (the
// device may contract a * b + c into an fma).
template <class T>
void expect_same(const std::vector<T> &got, const std::vector<T> &want, const char *what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if constexpr (exact<T>)
      ASSERT_EQ(got[i], want[i]) << what << " at " << i;
    else
      ASSERT_NEAR(got[i], want[i], 1e-5 * (std::fabs(want[i]) + 1)) << what << " at " << i;
  }
}

// A reduction: exact for integers; for floats within 1e-5 of the sum of magnitudes
// (the device sums in another order than the host, which sums in double).
template <class R>
void expect_sum(R got, const std::vector<R> &elements, R init, const char *what) {
  if constexpr (exact<R>) {
    R want = init;
    for (R x : elements)
      want += x;
    EXPECT_EQ(got, want) << what;
  } else {
    double want = init, magnitude = std::fabs(init);
    for (R x : elements) {
      want += x;
      magnitude += std::fabs(x);
    }
    EXPECT_NEAR(got, want, 1e-5 * magnitude + 1e-4) << what;
  }
}

// ---------------------------------------------------------------------------------
// The harness.

template <class Case, class T> void check_case(std::size_t n, std::uint64_t seed) {
  SCOPED_TRACE(::testing::Message() << "n = " << n);
  std::vector<T> ha = input<T>(n, seed), hb = input<T>(n, seed + 1), hc = input<T>(n, seed + 2);
  gpu::vector<T> ga(ha), gb(hb), gc(hc);

  auto hv = Case::make(ha, hb, hc);
  auto dv = Case::make(ga, gb, gc);
  static_assert(pacxx::is_device_range<decltype(dv)>::value,
                "the device pipeline is a device range");
  using R = flat_t<decltype(hv)>;
  static_assert(std::is_same<R, flat_t<decltype(dv)>>::value,
                "the same element type on both sides");

  std::vector<R> expected;
  for (auto &&x : hv)
    expected.push_back(flatten(x));
  const std::size_t m = expected.size();

  // gpu::reduce, called and piped, with an init counted once.
  const R init = static_cast<R>(5);
  R sum = gpu::reduce(dv | view::transform(flat), init);
  expect_sum(sum, expected, init, "gpu::reduce");
  if (n == prime) {
    R piped = dv | view::transform(flat) | gpu::reduce(R{0});
    expect_sum(piped, expected, R{0}, "piped gpu::reduce");
  }

  // gpu::transform into a gpu::vector.
  {
    gpu::vector<R> out(m);
    gpu::transform(dv, out, [](auto &&x) { return flatten(x) * 2 + 1; });
    std::vector<R> want(m);
    for (std::size_t i = 0; i < m; ++i)
      want[i] = expected[i] * 2 + 1;
    expect_same(gpu::copy(out), want, "gpu::transform");
  }

  // gpu::copy of the view (materialised in one kernel).
  if constexpr (Case::copyable) {
    auto got = gpu::copy(dv);
    static_assert(std::is_same<typename decltype(got)::value_type,
                               ranges::range_value_t<decltype(dv)>>::value,
                  "gpu::copy(view) gives a std::vector of the view's value type");
    std::vector<R> flattened;
    for (const auto &x : got)
      flattened.push_back(flatten(x));
    expect_same(flattened, expected, "gpu::copy(view)");
  }

  // gpu::for_each over zip(view, out): writes through the zip's reference to out.
  if constexpr (!Case::writable) {
    gpu::vector<R> out(m, R{0});
    gpu::for_each(view::zip(dv, out),
                  [](auto &&t) { std::get<1>(t) = flatten(std::get<0>(t)) - 3; });
    std::vector<R> want(m);
    for (std::size_t i = 0; i < m; ++i)
      want[i] = expected[i] - 3;
    expect_same(gpu::copy(out), want, "gpu::for_each(zip(view, out))");
  }

  // gpu::for_each writing through the view's own references into a, b and c.
  if constexpr (Case::writable) {
    const int count = static_cast<int>(m);
    gpu::for_each(view::zip(dv, view::iota(0, count)),
                  [](auto &&t) { Case::mutate(std::get<0>(t), std::get<1>(t)); });
    for (auto &&t : view::zip(hv, view::iota(0, count)))
      Case::mutate(std::get<0>(t), std::get<1>(t));
    expect_same(gpu::copy(ga), ha, "a after gpu::for_each");
    expect_same(gpu::copy(gb), hb, "b after gpu::for_each");
    expect_same(gpu::copy(gc), hc, "c after gpu::for_each");
  }
}

template <class Case, class T> void check_all_sizes(std::uint64_t seed) {
  for (std::size_t n : {std::size_t(0), std::size_t(1), prime}) {
    check_case<Case, T>(n, seed);
    if (::testing::Test::HasFatalFailure())
      return;
  }
  if (Case::big)
    check_case<Case, T>(big_size, seed);
}

// A test parameter: a case and the element type of a, b and c.
template <class C, class T> struct with {
  using Case = C;
  using Element = T;
};

// ---------------------------------------------------------------------------------
// Functions used inside views.

constexpr auto mult = [](const auto &p) { return std::get<0>(p) * std::get<1>(p); };
constexpr auto square_plus_one = [](auto x) { return x * x + 1; };
constexpr auto negate = [](auto x) { return -x; };
constexpr auto minus = [](auto x, auto y) { return x - y; };

} // namespace stl_test
