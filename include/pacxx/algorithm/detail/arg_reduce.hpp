// Index-carrying reductions (min_element, max_element, minmax_element): gpu::reduce's
// kernel (pacxx/agent/reduce.hpp) over (value, index) pairs, so any order of blocks and
// tiles gives std's answer. Within a thread the elements come in increasing index
// order, and the fold keeps the earlier one on ties without comparing indices; threads
// and blocks are combined by an op that breaks ties by the index (the lower for a
// minimum, the higher for the last maximum), which makes it commutative.
#pragma once
#include <cstddef>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include <range/v3/range/traits.hpp>

#include "pacxx/algorithm/reduce.hpp"
#include "pacxx/block/warp.hpp"

namespace gpu {
namespace detail {

// I: unsigned up to policy::arg_reduce::index32_max elements (first_min_index), else
// std::size_t.
template <class V, class I = std::size_t> struct arg {
  V value;
  I index;
};
template <class V> struct arg_pair { // minmax_element: the first smallest, the last largest
  V lo;
  std::size_t lo_index;
  V hi;
  std::size_t hi_index;
};

template <class V, class I = std::size_t> struct to_arg {
  template <class X> arg<V, I> operator()(X &&x, std::size_t i) const {
    return arg<V, I>{V(std::forward<X>(x)), I(i)};
  }
};
template <class V> struct to_arg_pair {
  template <class X> arg_pair<V> operator()(X &&x, std::size_t i) const {
    const V v(std::forward<X>(x));
    return arg_pair<V>{v, i, v, i};
  }
};

// The first smallest under comp. Field by field: a select of the whole pair made LLVM
// pack a 4-byte value and a 32-bit index into one 64-bit integer, with shifts and ors
// for every element.
template <class Comp> struct first_min_fold {
  Comp comp;
  template <class A> A operator()(const A &a, const A &b) const {
    const bool take = comp(b.value, a.value);
    A r = a;
    r.value = take ? b.value : a.value;
    r.index = take ? b.index : a.index;
    return r;
  }
};
template <class Comp> struct first_min_op {
  Comp comp;
  template <class A> A operator()(const A &a, const A &b) const {
    const bool take = comp(b.value, a.value) || (!comp(a.value, b.value) && b.index < a.index);
    return take ? b : a;
  }
  // The same fold over lanes [0, valid) of a warp, valid in lane 0 (device code; the
  // block_reduce hook): the smallest value first, with one shuffle per step for a
  // 4-byte value, then the lowest index among the lanes that hold an equivalent value,
  // with one shuffle from that lane where there is only one. Folding the pair as one
  // moved four words per step (the value, its padding and the 64-bit index).
  template <class A> A warp_reduce(A a, unsigned valid) const {
    const unsigned l = pacxx::warp::lane();
    auto v = a.value;
    for (unsigned d = 1; d < pacxx::warp::size(); d *= 2) {
      const auto other = pacxx::warp::shuffle_down(v, d);
      if (l + d < valid && comp(other, v))
        v = other;
    }
    v = pacxx::warp::shuffle(v, 0);
    const bool holds = l < valid && !comp(v, a.value); // a.value is not above the smallest
    const unsigned lanes = pacxx::warp::ballot(holds);
    using I = decltype(a.index);
    I index;
    if ((lanes & (lanes - 1)) == 0) { // one lane (or, in a warp with no values, none)
      index = pacxx::warp::shuffle(a.index, lanes ? unsigned(__builtin_ctz(lanes)) : 0u);
    } else {
      I mine = holds ? a.index : ~I(0);
      for (unsigned d = 1; d < pacxx::warp::size(); d *= 2) {
        const I other = pacxx::warp::shuffle_down(mine, d);
        mine = other < mine ? other : mine;
      }
      index = mine;
    }
    A r = a;
    r.value = v;
    r.index = index;
    return r;
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
  return fold_partials(reduce_blocks<A, pacxx::policy::arg_reduce>(in, n, to, fold, op), op);
}

// The block partials' fold for first_min_index on the host, value first as on the
// device: the smallest value (selects in four chains, no index compared), then the
// lowest index among the partials that hold an equivalent value.
template <class A, class Comp> std::size_t first_min_of(const readback<A> &parts, Comp comp) {
  const A *p = parts.begin();
  const std::size_t n = parts.size();
  auto v = p[0].value;
  if (n >= 8) {
    decltype(v) c[4] = {p[0].value, p[1].value, p[2].value, p[3].value};
    std::size_t k = 4;
    for (; k + 4 <= n; k += 4)
      for (std::size_t j = 0; j < 4; ++j)
        c[j] = comp(p[k + j].value, c[j]) ? p[k + j].value : c[j];
    for (; k < n; ++k)
      c[0] = comp(p[k].value, c[0]) ? p[k].value : c[0];
    v = c[0];
    for (std::size_t j = 1; j < 4; ++j)
      v = comp(c[j], v) ? c[j] : v;
  } else {
    for (std::size_t k = 1; k < n; ++k)
      v = comp(p[k].value, v) ? p[k].value : v;
  }
  std::size_t best = ~std::size_t(0);
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = p[k].index;
    best = !comp(v, p[k].value) && i < best ? i : best;
  }
  return best;
}

// The index of the first smallest element of a non-empty device range, with indices of
// type I in the kernel.
template <class V, class I, class Comp, class In>
std::size_t first_min_with(const In &in, std::size_t n, Comp comp) {
  return first_min_of(
      reduce_blocks<arg<V, I>, pacxx::policy::arg_reduce>(
          in, n, to_arg<V, I>{}, first_min_fold<Comp>{comp}, first_min_op<Comp>{comp}),
      comp);
}

// The index of the first smallest element under comp, or n if the range is empty.
// Indices are 32-bit up to policy::arg_reduce::index32_max elements: 8-byte partials for
// a 4-byte value, and fewer shuffles and instructions in the kernel.
template <class Comp, class Rng> std::size_t first_min_index(Rng &&rng, Comp comp) {
  using V = device_value_t<Rng>;
  static_assert(pacxx::is_device_copyable<V>::value,
                "gpu::min_element / max_element: the elements must be device copyable");
  auto in = pacxx::detail::device_view(std::forward<Rng>(rng));
  const std::size_t n = pacxx::detail::device_size(in);
  if (n == 0)
    return 0;
  static_assert(pacxx::policy::arg_reduce::index32_max <= std::numeric_limits<unsigned>::max(),
                "32-bit indices");
  if (n <= pacxx::policy::arg_reduce::index32_max)
    return first_min_with<V, unsigned>(in, n, comp);
  return first_min_with<V, std::size_t>(in, n, comp);
}

} // namespace detail
} // namespace gpu
