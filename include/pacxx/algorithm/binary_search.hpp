// Searches of sorted data, one query per element of `queries`, in parallel (one kernel):
//
//   gpu::lower_bound(sorted, queries, out[, comp])   out[i]: the first index j of sorted
//                                                    with !comp(sorted[j], queries[i])
//   gpu::upper_bound(sorted, queries, out[, comp])   out[i]: the first index j with
//                                                    comp(queries[i], sorted[j])
//   gpu::binary_search(sorted, queries, out[, comp]) out[i]: whether queries[i] is in
//                                                    sorted (equivalent under comp)
//
// As std's, with sizes as indices (sorted.size() where none is found). sorted and
// queries are any device ranges (views fused into the searches); sorted must be
// sorted by comp. out is a gpu::vector<std::size_t> (or of another integer type wide
// enough), or for binary_search a gpu::vector<bool>, or a writable view over one, with at
// least as many elements as queries.
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <utility>

#include <range/v3/range/access.hpp>
#include <range/v3/range/traits.hpp>

#include "pacxx/algorithm/detail/search_one.hpp"
#include "pacxx/algorithm/transform.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/error.hpp"
#include "pacxx/kernel.hpp"
#include "pacxx/tools.hpp"

namespace gpu {
namespace detail {

enum class search_kind { lower, upper, contains };

// The search of one query in the sorted view it holds (`mutable`: a range-v3 view need
// not be iterable when const).
template <class S, class Comp, search_kind Kind> struct search_fn {
  mutable S sorted;
  std::size_t n;
  Comp comp;

  // The first index in [0, n) whose element `right` does not send to the right (the
  // sorted range is partitioned by it).
  template <class Right> std::size_t partition_point(Right right) const {
    return partition_point_at(ranges::begin(sorted), n, right);
  }
  template <class Q> std::size_t bound(const Q &q, std::true_type /*lower*/) const {
    return partition_point([&](const auto &e) { return bool(comp(e, q)); });
  }
  template <class Q> std::size_t bound(const Q &q, std::false_type /*upper*/) const {
    return partition_point([&](const auto &e) { return !bool(comp(q, e)); });
  }
  template <class Q> std::size_t operator()(const Q &q) const {
    return bound(q, std::integral_constant<bool, Kind != search_kind::upper>{});
  }
};
template <class S, class Comp> struct search_fn<S, Comp, search_kind::contains> {
  search_fn<S, Comp, search_kind::lower> lower;
  template <class Q> bool operator()(const Q &q) const {
    const std::size_t i = lower(q);
    return i < lower.n && !lower.comp(q, *(ranges::begin(lower.sorted) +
                                           static_cast<ranges::range_difference_t<S>>(i)));
  }
};

template <search_kind Kind, class S, class Comp>
search_fn<S, Comp, Kind> make_search(S sorted, std::size_t n, Comp comp, std::false_type) {
  return {std::move(sorted), n, comp};
}
template <search_kind Kind, class S, class Comp>
search_fn<S, Comp, Kind> make_search(S sorted, std::size_t n, Comp comp, std::true_type) {
  return {search_fn<S, Comp, search_kind::lower>{std::move(sorted), n, comp}};
}

template <search_kind Kind, class Sorted, class Queries, class Out, class Comp>
void search(const char *name, Sorted &&sorted_in, Queries &&queries_in, Out &&out_in, Comp comp) {
  static_assert(pacxx::is_device_copyable<Comp>::value,
                "gpu searches: the comparison must be trivially copyable (capture values only)");
  auto sorted = pacxx::detail::device_view(std::forward<Sorted>(sorted_in));
  auto queries = pacxx::detail::device_view(std::forward<Queries>(queries_in));
  auto out = pacxx::detail::device_view(std::forward<Out>(out_in));
  const std::size_t n = pacxx::detail::device_size(sorted);
  // Unbounded queries (view::repeat(x)) fill the output.
  const std::size_t q = pacxx::detail::leading_size(queries, out);
  const std::size_t m = pacxx::detail::device_size_alongside(out, q);
  if (m < q)
    throw pacxx::error(std::string(name) + ": the output has " + std::to_string(m) +
                       " elements, the queries " + std::to_string(q));
  gpu::transform(std::move(queries), std::move(out),
                 make_search<Kind>(std::move(sorted), n, comp,
                                   std::integral_constant<bool, Kind == search_kind::contains>{}));
}

} // namespace detail
} // namespace gpu

namespace pacxx {
// A search is as device copyable as the view and the comparison it holds.
template <class S, class Comp, gpu::detail::search_kind Kind>
struct is_device_copyable<gpu::detail::search_fn<S, Comp, Kind>>
    : std::integral_constant<bool,
                             is_device_copyable<S>::value && is_device_copyable<Comp>::value> {};
} // namespace pacxx

namespace gpu {

// For each queries[i], out[i] = the first index j of sorted with !comp(sorted[j],
// queries[i]) (size(sorted) if none), as std::lower_bound. sorted must be sorted by comp;
// out an integer gpu::vector (or writable view) with at least size(queries) elements, else
// pacxx::error. One launch.
template <class Sorted, class Queries, class Out, class Comp = std::less<>>
void lower_bound(Sorted &&sorted, Queries &&queries, Out &&out, Comp comp = Comp{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::lower_bound", sorted);
  detail::search<detail::search_kind::lower>("gpu::lower_bound", std::forward<Sorted>(sorted),
                                             std::forward<Queries>(queries), std::forward<Out>(out),
                                             comp);
}
// For each queries[i], out[i] = the first index j of sorted with comp(queries[i],
// sorted[j]) (size(sorted) if none), as std::upper_bound. Same requirements and errors as
// gpu::lower_bound; one launch.
template <class Sorted, class Queries, class Out, class Comp = std::less<>>
void upper_bound(Sorted &&sorted, Queries &&queries, Out &&out, Comp comp = Comp{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::upper_bound", sorted);
  detail::search<detail::search_kind::upper>("gpu::upper_bound", std::forward<Sorted>(sorted),
                                             std::forward<Queries>(queries), std::forward<Out>(out),
                                             comp);
}
// For each queries[i], out[i] = whether sorted holds an element equivalent to it under
// comp, as std::binary_search. out: a gpu::vector<bool> (or a writable view over one) with
// at least size(queries) elements, else pacxx::error. One launch.
template <class Sorted, class Queries, class Out, class Comp = std::less<>>
void binary_search(Sorted &&sorted, Queries &&queries, Out &&out, Comp comp = Comp{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::binary_search", sorted);
  detail::search<detail::search_kind::contains>("gpu::binary_search", std::forward<Sorted>(sorted),
                                                std::forward<Queries>(queries),
                                                std::forward<Out>(out), comp);
}

} // namespace gpu
