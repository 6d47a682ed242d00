// Whether an algorithm should read a view in blocked order (a thread's elements
// consecutive) rather than striped (a block's threads on consecutive elements, which
// coalesces loads from memory). A view whose elements are computed from their index
// alone, reading no memory, has nothing to coalesce, and neighbouring elements may share
// work: views::random_uniform's four consecutive elements are the four words of one
// Philox block, which the optimiser computes once when one thread reads all four (and
// four times when four threads do: 0.16x cuRAND in a fused reduce on the H100).
//
//   prefers_blocked<V>::value  true for views of f(i) whose f declares `using
//                              blocked_reads = void;` (gpu::views::random_uniform and
//                              random_normal's counter_view, iota | transform(f)), for
//                              transforms of such views (f sees
//                              values, not indices) and for zips of them; false for
//                              everything else, which stays striped.
#pragma once
#include <type_traits>

#include <range/v3/view/iota.hpp>
#include <range/v3/view/transform.hpp>
#include <range/v3/view/zip.hpp>

namespace gpu {
namespace random {
namespace detail {
template <class F> class counter_view; // pacxx/random/random_view.hpp
} // namespace detail
} // namespace random
} // namespace gpu

namespace pacxx {
namespace detail {

template <class F, class = void> struct declares_blocked_reads : std::false_type {};
template <class F>
struct declares_blocked_reads<F, decltype(void(std::declval<typename F::blocked_reads *>()))>
    : std::true_type {};

template <class... B> struct all_blocked : std::true_type {};
template <class B, class... R>
struct all_blocked<B, R...> : std::integral_constant<bool, B::value && all_blocked<R...>::value> {};

template <class V> struct prefers_blocked_impl : std::false_type {};
template <class V> struct prefers_blocked : prefers_blocked_impl<typename std::decay<V>::type> {};
template <class I, class J, class F>
struct prefers_blocked_impl<ranges::transform_view<ranges::iota_view<I, J>, F>>
    : declares_blocked_reads<F> {};
template <class V, class G>
struct prefers_blocked_impl<ranges::transform_view<V, G>> : prefers_blocked<V> {};
template <class F>
struct prefers_blocked_impl<gpu::random::detail::counter_view<F>> : declares_blocked_reads<F> {};
template <class... Rs>
struct prefers_blocked_impl<ranges::zip_view<Rs...>> : all_blocked<prefers_blocked<Rs>...> {};

} // namespace detail
} // namespace pacxx
