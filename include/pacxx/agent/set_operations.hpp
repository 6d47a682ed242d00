// Set operations on sorted ranges in one pass (device code): set_intersection,
// set_difference, set_union and set_symmetric_difference as a merge path (Odeh et al.,
// pacxx/agent/merge.hpp) whose cuts never separate two elements that std's sequential
// walk takes together, the "balanced path" of Baxter's moderngpu, which Thrust's set
// operations use too.
//
// std's walk over sorted a and b compares the heads: the smaller one is a step of its own
// (a-only or b-only), two equivalent heads are one step that takes both (a pair). Of the
// elements equivalent to some x, a holding m and b n, a's k-th and b's k-th form a pair
// for k < min(m, n) and the rest are single. Order each class of equivalents a0 b0 a1 b1
// ... (a's k-th before b's k-th, the surplus of one side last) and the classes by value:
// a merge order of a and b, so a cut at any diagonal d of it is a merge-path cut. It
// separates a pair only where its first d elements end with a's k-th of a pair; then the
// cut takes b's k-th too (d + 1 elements). Such a cut leaves as many elements of the
// class on each side's prefix as pairs need, so the two parts are independent problems:
// each part's own walk finds exactly the pairs and singles of the whole walk, in order.
// Tiles are cut so (one search per tile boundary, a kernel of its own), each tile's part
// of a and b goes to shared memory, each thread cuts the tile at its diagonal the same
// way and walks its part (at most `items` steps, see set_op_tile), and a block scan with
// the decoupled look-back (pacxx/agent/select.hpp) gives each output its place.
#pragma once
#include <cstddef>
#include <type_traits>

#include "pacxx/agent/merge.hpp"
#include "pacxx/shared_memory.hpp"
#include "pacxx/thread.hpp"

namespace pacxx {
namespace agent {

enum class set_op { intersection, difference, union_, symmetric };

// The start of the run of x's equivalents that ends at `end`: the first s <= end with
// at(k) equivalent to x for every k in [s, end), where no at(k) (k < end) comes after x.
// Galloping back from end, then a binary search: runs are usually short, and the
// search costs O(log run) either way.
template <class Idx, class At, class T, class Comp>
__attribute__((always_inline)) inline Idx run_start(const At &at, Idx end, const T &x, Comp comp) {
  Idx hi = end, lo = 0, step = 1;
  while (hi > 0) {
    const Idx k = hi > step ? hi - step : 0;
    if (comp(at(k), x)) {
      lo = k + 1;
      break;
    }
    hi = k;
    step *= 2;
  }
  while (lo < hi) {
    const Idx mid = lo + (hi - lo) / 2;
    if (comp(at(mid), x))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// The end of the run of x's equivalents that starts at `begin`, looked for below limit:
// the first k in [begin, limit) with x before at(k), else limit (no at(k) comes before
// x). Galloping forward, then a binary search.
template <class Idx, class At, class T, class Comp>
__attribute__((always_inline)) inline Idx run_end(const At &at, Idx begin, Idx limit, const T &x,
                                                  Comp comp) {
  Idx lo = begin, hi = limit, step = 1;
  while (lo < limit) {
    const Idx k = limit - lo > step ? lo + step - 1 : limit - 1;
    if (comp(x, at(k))) {
      hi = k;
      break;
    }
    lo = k + 1;
    step *= 2;
  }
  while (lo < hi) {
    const Idx mid = lo + (hi - lo) / 2;
    if (comp(x, at(mid)))
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

// The cut of the balanced order of sorted a[0, na) and b[0, nb) at diagonal d: ia of a's
// elements and jb of b's come first (ia + jb is d, or d + 1 where the d-th element is
// a's half of a pair whose b half then comes along).
//
// The stable merge path (a's equivalents before b's) gives i + j = d. Only the class of
// x = b[j] can be cut differently: its first t = ra + rb elements in the merge are ra of
// a's and rb of b's (rb > 0 only where all of a's are among them). In the balanced order
// its first t are pb = min(nx, max(t / 2, rb)) of b's (nx: b's equivalents of x) and t -
// pb of a's.
template <class Idx, class A, class B, class Comp>
__attribute__((always_inline)) inline void balanced_path(const A &a, Idx na, const B &b, Idx nb,
                                                         Idx d, Comp comp, Idx &ia, Idx &jb) {
  const Idx i = merge_path(a, na, b, nb, d, comp), j = d - i;
  ia = i;
  jb = j;
  if (j >= nb)
    return;
  const auto x = b(j);
  const Idx sa = run_start(a, i, x, comp), sb = run_start(b, j, x, comp);
  const Idx ra = i - sa, rb = j - sb, t = ra + rb;
  const Idx want = t / 2 > rb ? t / 2 : rb;
  // b's equivalents of x: only whether there are more than `want` matters.
  const Idx limit = nb - sb > want + 1 ? sb + want + 1 : nb;
  const Idx nx = run_end(b, j + 1, limit, x, comp) - sb;
  const Idx pb = want < nx ? want : nx, pa = t - pb;
  const Idx pair = pa == pb + 1 && pb < nx ? 1 : 0;
  ia = sa + pa;
  jb = sb + pb + pair;
}

namespace detail {
// What one step of the walk emits: whether it keeps an element, and whether that is b's
// head (else a's).
template <set_op Op> struct set_step;
template <> struct set_step<set_op::intersection> {
  static bool keep(bool, bool, bool both) { return both; }
  static bool from_b(bool, bool) { return false; }
};
template <> struct set_step<set_op::difference> {
  static bool keep(bool a_first, bool, bool) { return a_first; }
  static bool from_b(bool, bool) { return false; }
};
template <> struct set_step<set_op::union_> {
  static bool keep(bool a_first, bool b_first, bool both) { return a_first || b_first || both; }
  static bool from_b(bool, bool b_first) { return b_first; }
};
template <> struct set_step<set_op::symmetric> {
  static bool keep(bool a_first, bool b_first, bool) { return a_first || b_first; }
  static bool from_b(bool, bool b_first) { return b_first; }
};
} // namespace detail

// std's walk over s[ia, a_end) and s[ib, b_end) (one shared array; s[b_end] readable),
// I steps: out[k] and keep[k] for step k (steps after both runs end keep nothing). A
// head past its run's end is read but not used. Selects, not branches, as serial_merge.
template <set_op Op, unsigned I, class T, class Sh, class Comp>
__attribute__((always_inline)) inline void serial_set_op(const Sh &s, unsigned ia, unsigned a_end,
                                                         unsigned ib, unsigned b_end, T (&out)[I],
                                                         bool (&keep)[I], Comp comp) {
  using step = detail::set_step<Op>;
  T a = s(ia), b = s(ib);
#pragma unroll
  for (unsigned k = 0; k < I; ++k) {
    const bool a_in = ia < a_end, b_in = ib < b_end;
    const bool ab = bool(comp(a, b)), ba = bool(comp(b, a));
    const bool a_first = a_in && (!b_in || ab), b_first = b_in && (!a_in || ba);
    const bool both = a_in && b_in && !ab && !ba;
    keep[k] = step::keep(a_first, b_first, both);
    out[k] = detail::select_value(step::from_b(a_first, b_first), b, a);
    const bool step_a = a_in && !b_first, step_b = b_in && !a_first;
    ia += step_a ? 1u : 0u;
    ib += step_b ? 1u : 0u;
    const T na = s(ia), nb = s(ib);
    a = detail::select_value(step_a, na, a);
    b = detail::select_value(step_b, nb, b);
  }
}

// One tile: a[i0, i1) and b[j0, j1) (a part between two balanced cuts, at most
// P::block * P::items + 1 elements) through `sh` (shared memory of at least
// P::block * P::items + 2 elements; pairs: 2 * P::block unsigned of shared memory). Each
// thread's steps of the walk to out and keep, in order.
//
// Thread l walks the part between the tile's balanced cuts at l * I and (l + 1) * I
// (the last one to the tile's end). That part has I + p1 - p0 elements, where p0 and p1
// say whether each cut took the b half of a pair; where p1 is 1 the a half (the cut's
// d-th element, at least I - 1 >= p0 past the part's start) is in the part too, and one
// step takes both. So no thread walks more than I steps (with I >= 2; the tile's end
// cut, by the same argument). Outputs are at most one per step.
template <class P, set_op Op, class T, class LoadA, class LoadB, class Comp>
__attribute__((always_inline)) inline void
set_op_tile(LoadA &&load_a, LoadB &&load_b, std::size_t i0, std::size_t i1, std::size_t j0,
            std::size_t j1, T *sh, unsigned *cuts, T (&out)[P::items], bool (&keep)[P::items],
            Comp comp) {
  constexpr unsigned B = P::block, I = P::items;
  static_assert(I >= 2, "set operations: at least two items a thread (see set_op_tile)");
  const unsigned l = unsigned(Thread::get().local.x);
  const unsigned la = unsigned(i1 - i0), len = unsigned(i1 - i0 + (j1 - j0));
  // The part, striped (coalesced loads), all loads of a thread before its stores.
  T items[I + 1];
#pragma unroll
  for (unsigned k = 0; k <= I; ++k) {
    const unsigned x = l + k * B;
    if (x < len)
      items[k] = x < la ? T(load_a(i0 + x)) : T(load_b(j0 + (x - la)));
  }
#pragma unroll
  for (unsigned k = 0; k <= I; ++k) {
    const unsigned x = l + k * B;
    if (x < len)
      sh[x] = items[k];
  }
  barrier();
  const auto at_a = [&](unsigned i) -> T { return sh[i]; };
  const auto at_b = [&](unsigned j) -> T { return sh[la + j]; };
  const unsigned dl = l * I < len ? l * I : len;
  unsigned ia, jb;
  balanced_path(at_a, la, at_b, len - la, dl, comp, ia, jb);
  cuts[l] = ia;
  cuts[B + l] = jb;
  barrier();
  // The next thread's cut (the tile's end for the last thread), as values: a ?: of the
  // shared slot and the local la selected an address, which put la on the stack.
  unsigned a_end = la, b_end = len - la;
  if (l + 1 < B) {
    a_end = cuts[l + 1];
    b_end = cuts[B + l + 1];
  }
  serial_set_op<Op>([&](unsigned x) -> T { return sh[x]; }, ia, a_end, la + jb, la + b_end, out,
                    keep, comp);
}

} // namespace agent
} // namespace pacxx
