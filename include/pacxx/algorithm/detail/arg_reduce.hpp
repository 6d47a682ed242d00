// Index-carrying reductions (min_element, max_element, minmax_element): gpu::reduce's
// kernel (pacxx/agent/reduce.hpp) over (value, index) pairs, so any order of blocks and
// tiles gives std's answer. Within a thread the elements come in increasing index
// order, and the fold keeps the earlier one on ties without comparing indices; threads
// and blocks are combined by an op that breaks ties by the index (the lower for a
// minimum, the higher for the last maximum), which makes it commutative.
#pragma once
#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

#include <range/v3/range/traits.hpp>

#include "pacxx/algorithm/reduce.hpp"

namespace gpu {
namespace detail {

template <class V> struct arg {
  V value;
  std::size_t index;
};
template <class V> struct arg_pair { // minmax_element: the first smallest, the last largest
  V lo;
  std::size_t lo_index;
  V hi;
  std::size_t hi_index;
};

template <class V> struct to_arg {
  template <class X> arg<V> operator()(X &&x, std::size_t i) const {
    return arg<V>{V(std::forward<X>(x)), i};
  }
};
template <class V> struct to_arg_pair {
  template <class X> arg_pair<V> operator()(X &&x, std::size_t i) const {
    const V v(std::forward<X>(x));
    return arg_pair<V>{v, i, v, i};
  }
};

// The first smallest under comp.
template <class Comp> struct first_min_fold {
  Comp comp;
  template <class A> A operator()(const A &a, const A &b) const {
    return comp(b.value, a.value) ? b : a;
  }
};
template <class Comp> struct first_min_op {
  Comp comp;
  template <class A> A operator()(const A &a, const A &b) const {
    const bool take = comp(b.value, a.value) || (!comp(a.value, b.value) && b.index < a.index);
    return take ? b : a;
  }
};

// The first smallest and the last largest under comp.
template <class Comp> struct minmax_fold {
  Comp comp;
  template <class A> A operator()(const A &a, const A &b) const {
    A r = a;
    if (comp(b.lo, a.lo)) {
      r.lo = b.lo;
      r.lo_index = b.lo_index;
    }
    if (!comp(b.hi, a.hi)) {
      r.hi = b.hi;
      r.hi_index = b.hi_index;
    }
    return r;
  }
};
template <class Comp> struct minmax_op {
  Comp comp;
  template <class A> A operator()(const A &a, const A &b) const {
    A r = a;
    if (comp(b.lo, a.lo) || (!comp(a.lo, b.lo) && b.lo_index < a.lo_index)) {
      r.lo = b.lo;
      r.lo_index = b.lo_index;
    }
    if (comp(a.hi, b.hi) || (!comp(b.hi, a.hi) && b.hi_index > a.hi_index)) {
      r.hi = b.hi;
      r.hi_index = b.hi_index;
    }
    return r;
  }
};

template <class Rng>
using device_value_t =
    ranges::range_value_t<decltype(pacxx::detail::device_view(std::declval<Rng>()))>;

// The fold of A (made from each element by To) over a non-empty device range.
template <class A, class V, class To, class Fold, class Op>
A arg_reduce(const V &in, std::size_t n, To to, Fold fold, Op op) {
  return fold_partials(reduce_blocks<A>(in, n, to, fold, op), op);
}

// The index of the first smallest element under comp, or n if the range is empty.
template <class Comp, class Rng> std::size_t first_min_index(Rng &&rng, Comp comp) {
  using V = device_value_t<Rng>;
  static_assert(pacxx::is_device_copyable<V>::value,
                "gpu::min_element / max_element: the elements must be device copyable");
  auto in = pacxx::detail::device_view(std::forward<Rng>(rng));
  const std::size_t n = pacxx::detail::device_size(in);
  if (n == 0)
    return 0;
  return arg_reduce<arg<V>>(in, n, to_arg<V>{}, first_min_fold<Comp>{comp},
                            first_min_op<Comp>{comp})
      .index;
}

} // namespace detail
} // namespace gpu
