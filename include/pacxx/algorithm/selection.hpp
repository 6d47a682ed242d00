// Selection: gpu::top_k, gpu::nth_element, gpu::partial_sort.
//
//   gpu::top_k(in, k, out_values[, out_indices][, comp])
//       The k first elements of in in the order comp (default std::greater<>: the k
//       largest), sorted by comp, ties in input order (as a stable sort of in, cut at
//       k), written to the first k elements of out_values, and their positions in in to
//       out_indices. k > size of in, or an output with fewer than k elements, is a
//       pacxx::error.
//   gpu::nth_element(v, nth[, comp])
//       Reorders the gpu::vector v so that v[nth] is the element a sort by comp would put
//       there, no element before it after it in comp's order and none after it before it
//       (std::nth_element). nth == v.size() does nothing, as std's; beyond is an error.
//   gpu::partial_sort(v, k[, comp])
//       The k first elements of v in comp's order, sorted, at the front (std::partial_sort;
//       the rest in unspecified order).
//
// Arithmetic keys with std::less / std::greater (comparators that are radix orders, as
// gpu::sort's) are selected by radix select, not sorted: the key with the wanted rank is
// found one 11-bit digit at a time from the top, each digit by a histogram of the keys
// that share the digits found so far and a one-block launch that picks the digit, the
// state kept on the device (3 passes and one read-back for 32-bit keys, 6 for 64-bit),
// so the counts of keys before, at and after it are known exactly (the second digit's pass
// also compacts the keys that share the first digit, and the later digits read only
// those where they fit in the scratch: radix_select, select_kind); then
//   top_k         k = 1: gpu::min_element over the keys' bits (one pass, no select);
//                 else the keys up to the selected one appended with their indices in no
//                 order (one pass: append_selected), radix sorted by index and then
//                 stably by key, and the first k copied;
//   nth_element   moves each element of a copy of v (made by the first digit's pass) to
//                 its part of v (before, after the selected key), each part in no
//                 particular order, and fills the part equal to it with the selected key
//                 (bit-identical to each of them; a floating zero's part, which may hold
//                 -0.0 and +0.0, is moved instead): one pass (partition_around). On the
//                 H200 (ncu, 2^26 floats) the former partition, which moved all three
//                 parts, took 517 us at 1 TB/s and the former device copy before the
//                 select read and wrote 256 MB;
//   partial_sort  is nth_element for rank k - 1, then a sort of the first k.
// Any other comparator (user structs, user orders) sorts the whole range (stable merge
// sort) and cuts it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <range/v3/view/iota.hpp>
#include <range/v3/view/slice.hpp>
#include <range/v3/view/transform.hpp>
#include <range/v3/view/zip.hpp>

#include "pacxx/agent/radix_sort.hpp"
#include "pacxx/algorithm/copy.hpp"
#include "pacxx/algorithm/copy_if.hpp"
#include "pacxx/algorithm/histogram.hpp"
#include "pacxx/algorithm/min_element.hpp"
#include "pacxx/algorithm/sort.hpp"
#include "pacxx/algorithm/transform.hpp"
#include "pacxx/atomic.hpp"
#include "pacxx/block/block_scan.hpp"
#include "pacxx/block/warp.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/error.hpp"
#include "pacxx/kernel.hpp"
#include "pacxx/shared_memory.hpp"
#include "pacxx/tools.hpp"
#include "pacxx/vector.hpp"

namespace gpu {
namespace detail {

// The bits of key k in the order of comp (radix_order 1: ascending, 2: descending).
template <class K, int Order> struct select_bits {
  using B = typename pacxx::agent::radix_key<K>::bits_type;
  B operator()(const K &k) const {
    const B b = pacxx::agent::radix_key<K>::bits(k);
    return Order == 2 ? B(~b) : b;
  }
};

// The selected key's bits and the numbers of keys before it and equal to it.
template <class B> struct radix_selection {
  B bits;
  std::size_t before, equal;
};

// The radix select's state on the device, one word each (the bits as unsigned long long):
// the bits found so far, the mask of the digits found, the rank still to find among the
// keys that share them, the keys before them, the keys that share them, and the number
// of candidates (keys that share the first digit) the second digit's pass compacted.
enum select_word { sel_prefix, sel_mask, sel_rank, sel_before, sel_equal, sel_count, sel_words };

// The digit (`bins` bins from bit `shift`) of a key whose found digits are the state's;
// `bins` (no bin) for the others. Reads the state on the device, so a digit's histogram
// needs nothing from the host (the state stays in L1/L2: two words every block reads).
template <class K, int Order> struct select_digit {
  using B = typename select_bits<K, Order>::B;
  const unsigned long long *state;
  unsigned shift;
  unsigned operator()(const K &k, unsigned bins) const {
    const B b = select_bits<K, Order>{}(k);
    const B prefix = B(state[sel_prefix]), mask = B(state[sel_mask]);
    return (b & mask) == prefix ? static_cast<unsigned>(b >> shift) & (bins - 1u) : bins;
  }
};

// Finds the bin of the state's rank in the histogram h (bins counters), adds its digit to
// the state and zeroes h for the next digit: one block, each thread sums a run of bins,
// the first thread walks the sums, then the run that holds the rank.
template <unsigned Block> struct select_bin {
  unsigned shift;
  void operator()(unsigned long long *h, unsigned long long *state, unsigned bins) const {
    using U = unsigned long long;
    U *sums = pacxx::dynamic_shared_memory<U>();
    const unsigned l = static_cast<unsigned>(pacxx::Thread::get().local.x);
    const unsigned per = (bins + Block - 1u) / Block;
    const unsigned first = l * per < bins ? l * per : bins;
    const unsigned last = first + per < bins ? first + per : bins;
    U sum = 0;
    for (unsigned b = first; b < last; ++b)
      sum += h[b];
    sums[l] = sum;
    pacxx::barrier();
    if (l == 0) {
      U r = state[sel_rank], before = state[sel_before];
      unsigned run = 0;
      for (; run + 1u < Block && r >= sums[run]; ++run) { // the rank is in this run (or the last)
        r -= sums[run];
        before += sums[run];
      }
      const unsigned lo = run * per < bins ? run * per : bins;
      const unsigned hi = lo + per < bins ? lo + per : bins;
      unsigned d = lo;
      for (; d + 1u < hi && r >= h[d]; ++d) {
        r -= h[d];
        before += h[d];
      }
      state[sel_rank] = r;
      state[sel_before] = before;
      state[sel_equal] = h[d];
      state[sel_prefix] |= U(d) << shift;
      state[sel_mask] |= U(bins - 1u) << shift;
    }
    pacxx::barrier();
    for (unsigned b = first; b < last; ++b)
      h[b] = 0;
  }
};

// What a digit's pass of radix_select does besides counting.
//   select_plain       nothing (the first pass of top_k).
//   select_copy        stores every key it reads to aux[i] (the first pass of nth_element:
//                      the copy it partitions from, made while reading v anyway; before,
//                      a device copy of v went first: 256 MB read and written for 2^26
//                      floats).
//   select_compact     appends every key it counts (those that share the first digit: the
//                      candidates) to aux, in no order, while fewer than cap, and counts
//                      them all in state[sel_count] (one atomic a warp and tile).
//   select_candidates  reads the state[sel_count] candidates from aux where they fit
//                      (<= cap), else the whole input. The digit-3 pass over 2^26 floats
//                      read all 256 MB (98 us on the H200, ncu); the candidates are usually
//                      a small part (1/2048 of uniform bits), all of them only in
//                      degenerate inputs (all keys in one top digit).
enum select_kind { select_plain, select_copy, select_compact, select_candidates };

// Where the calling lane's c items go in a buffer filled from *count on: the warp's lanes
// take consecutive places, the last lane (whose inclusive count is the warp's) claiming
// them with one atomic. Every lane of the warp calls it together.
inline std::size_t warp_append_at(unsigned c, unsigned long long *count) {
  using U = unsigned long long;
  const unsigned inc = pacxx::warp::inclusive_scan(c, std::plus<unsigned>{});
  const unsigned last = pacxx::warp::size() - 1u;
  U at = 0;
  if (pacxx::warp::lane() == last)
    at = pacxx::atomic_add(count, U(inc));
  return std::size_t(pacxx::warp::shuffle(at, last)) + (inc - c);
}

// One tile of m keys at base through runs(bin), Guard: some of its items may be past m.
// A thread issues all its loads first, maps them, then does its kind's stores and counts.
template <class P, int Kind, bool Guard, class K, class Load, class Map, class Runs>
__attribute__((always_inline)) inline void
select_tile(std::size_t base, std::size_t m, Load &load, const Map &map, unsigned bins, Runs &runs,
            K *aux, std::size_t cap, unsigned long long *count) {
  constexpr std::size_t B = P::block;
  const std::size_t l = pacxx::Thread::get().local.x;
  K v[P::items];
  unsigned b[P::items];
#pragma unroll
  for (std::size_t k = 0; k < P::items; ++k)
    if (!Guard || base + k * B + l < m)
      v[k] = load(base + k * B + l);
#pragma unroll
  for (std::size_t k = 0; k < P::items; ++k)
    b[k] = !Guard || base + k * B + l < m ? map(v[k], bins) : bins;
  if (Kind == select_copy) {
#pragma unroll
    for (std::size_t k = 0; k < P::items; ++k)
      if (!Guard || base + k * B + l < m)
        aux[base + k * B + l] = v[k];
  }
  if (Kind == select_compact) {
    unsigned c = 0;
#pragma unroll
    for (std::size_t k = 0; k < P::items; ++k)
      c += b[k] < bins ? 1u : 0u;
    if (pacxx::warp::ballot(c != 0)) { // the same in every lane of the warp
      std::size_t pos = warp_append_at(c, count);
#pragma unroll
      for (std::size_t k = 0; k < P::items; ++k)
        if (b[k] < bins) {
          if (pos < cap)
            aux[pos] = v[k];
          ++pos;
        }
    }
  }
#pragma unroll
  for (std::size_t k = 0; k < P::items; ++k)
    runs(b[k]);
}
template <class P, int Kind, class K, class Load, class Map, class Runs>
__attribute__((always_inline)) inline void
select_tiles(std::size_t m, Load &load, const Map &map, unsigned bins, Runs &runs, K *aux,
             std::size_t cap, unsigned long long *count) {
  const std::size_t tile = P::block * P::items;
  const std::size_t step = pacxx::Grid::get().size.x * tile;
  for (std::size_t base = pacxx::Block::get().index.x * tile; base < m; base += step) {
    if (base + tile <= m)
      select_tile<P, Kind, false>(base, m, load, map, bins, runs, aux, cap, count);
    else
      select_tile<P, Kind, true>(base, m, load, map, bins, runs, aux, cap, count);
  }
}

// The histogram (bins counters, added into h) of the digit at `shift` of the keys that
// share the state's digits, over the n keys of src, doing Kind's work besides
// (select_kind): histogram_with's shared-memory kernel (bins <= 2^11 always fit), the
// bin count staged.
template <class P, class K, int Order, int Kind, class V>
void select_histogram(const V &src, std::size_t n, std::size_t bins, unsigned shift,
                      unsigned long long *h, unsigned long long *state, K *aux, std::size_t cap) {
  using U = unsigned long long;
  const std::size_t tiles = pacxx::detail::ceil_div(n, P::block * P::items);
  const std::size_t blocks = shared_histogram_blocks<P>(tiles, bins);
  pacxx::kernel(
      [bins, shift, cap](const auto &view, std::size_t n, U *out, U *state, K *aux) {
        pacxx::launch_bounds(P::block, sizeof(K) <= 4
                                           ? pacxx::policy::select_candidates::min_blocks
                                           : pacxx::policy::select_candidates::min_blocks_wide);
        auto v = view;
        auto first = ranges::begin(v);
        using D = ranges::range_difference_t<decltype(v)>;
        auto load = [&](std::size_t i) -> K { return K(*(first + static_cast<D>(i))); };
        const unsigned nbins = static_cast<unsigned>(pacxx::stage(bins));
        const unsigned l = static_cast<unsigned>(pacxx::Thread::get().local.x);
        unsigned *counts = zeroed_shared_counts<P::block>(nbins, l);
        auto runs = shared_bin_runs(counts, nbins);
        const select_digit<K, Order> map{state, shift};
        const std::size_t m = Kind == select_candidates ? std::size_t(state[sel_count]) : 0;
        if (Kind == select_candidates && m <= cap) {
          auto from_aux = [aux](std::size_t i) -> K { return aux[i]; };
          select_tiles<P, select_plain>(m, from_aux, map, nbins, runs, aux, cap, state + sel_count);
        } else {
          select_tiles<P, Kind == select_candidates ? select_plain : Kind>(
              n, load, map, nbins, runs, aux, cap, state + sel_count);
        }
        runs.flush();
        add_shared_counts<P::block>(counts, nbins, out, l);
      },
      pacxx::launch_config{{blocks}, {P::block}, bins * sizeof(unsigned)})(src, n, h, state, aux);
}

// The bits of the key of rank r (0-based, in comp's order) among the n keys of the device
// view src, and the numbers of keys before it and equal to it: one histogram per digit of
// 11 bits, top digit first (3 passes over 32-bit keys, 6 over 64-bit), each followed by a
// one-block launch that picks the digit on the device; the state is read back once at
// the end. (Before: 8-bit digits through gpu::histogram_even with the state on the host,
// 4 passes and 4 read-backs for 32-bit keys; top_k of 2^24 floats took 500 us on the H200
// on 2026-11-27, more than gpu::sort's 469; the new figures are in
// benchmarks/results/2026-11-27-h200-issue-38/topk.)
// The first pass reads src and, where Copy, stores it to copy (copy's view: rest); the
// others read rest (src itself where !Copy). The second pass compacts the candidates to
// aux (cap keys at most) and the later ones read them from there where they fit
// (select_kind); without aux (cap 0) every pass reads rest whole.
template <class K, int Order, bool Copy, class V, class R>
radix_selection<typename select_bits<K, Order>::B> radix_select(const V &src, const R &rest,
                                                                std::size_t n, std::size_t r,
                                                                K *copy, K *aux, std::size_t cap) {
  using B = typename select_bits<K, Order>::B;
  using U = unsigned long long;
  using P = pacxx::policy::histogram;
  constexpr unsigned digit_bits = 11, block = 256;
  std::vector<U> init(sel_words, U(0));
  init[sel_rank] = r;
  init[sel_equal] = n;
  gpu::vector<U> state = gpu::copy(init);
  gpu::vector<U> h(std::size_t(1) << digit_bits, U(0));
  for (int top = int(sizeof(B) * 8), pass = 0; top > 0; top -= int(digit_bits), ++pass) {
    const unsigned width = top < int(digit_bits) ? unsigned(top) : digit_bits;
    const unsigned shift = unsigned(top) - width, bins = 1u << width;
    if (pass == 0 && Copy)
      select_histogram<P, K, Order, select_copy>(src, n, bins, shift, h.data(), state.data(), copy,
                                                 0);
    else if (pass == 0)
      select_histogram<P, K, Order, select_plain>(src, n, bins, shift, h.data(), state.data(), aux,
                                                  0);
    else if (pass == 1 && cap > 0)
      select_histogram<P, K, Order, select_compact>(rest, n, bins, shift, h.data(), state.data(),
                                                    aux, cap);
    else if (cap > 0)
      select_histogram<P, K, Order, select_candidates>(rest, n, bins, shift, h.data(), state.data(),
                                                       aux, cap);
    else
      select_histogram<P, K, Order, select_plain>(rest, n, bins, shift, h.data(), state.data(), aux,
                                                  0);
    pacxx::kernel([shift](U *counts, U *words,
                          unsigned nbins) { select_bin<block>{shift}(counts, words, nbins); },
                  pacxx::launch_config{{1}, {block}, block * sizeof(U)})(h.data(), state.data(),
                                                                         bins);
  }
  const std::vector<U> s = gpu::copy(state);
  return {B(s[sel_prefix]), std::size_t(s[sel_before]), std::size_t(s[sel_equal])};
}

// Tests of a key against the selected bits: before it, equal to it.
template <class K, int Order, class B> struct bits_before {
  B bits;
  bool operator()(const K &k) const { return select_bits<K, Order>{}(k) < bits; }
};
template <class K, int Order, class B> struct bits_equal {
  B bits;
  bool operator()(const K &k) const { return select_bits<K, Order>{}(k) == bits; }
};
template <class K, int Order, class B> struct bits_through {
  B bits;
  bool operator()(const K &k) const { return select_bits<K, Order>{}(k) <= bits; }
};
// The same on (key, index) pairs.
template <class Test> struct on_first {
  Test test;
  template <class P> bool operator()(const P &p) const { return test(std::get<0>(p)); }
};

// Compacts the elements of src (n) that sel selects into out, which the caller knows
// has room for them (no count): tile clear and pass.
template <class V, class Sel, class Out>
std::size_t compact_known(const char *name, const V &src, std::size_t n, Sel sel, const Out &out) {
  using U = ranges::range_value_t<V>;
  using P = pacxx::policy::select_for<U>;
  return select_with(n, [&](auto c_type) -> std::size_t {
    using C = decltype(c_type);
    const select_memory<C> mem = select_setup<P, C>(name, n);
    clear_tiles(mem);
    return select_pass<P, false>(src, n, sel, out, out, mem);
  });
}

// One tile of append_selected at base (Guard: some of its items may be past n): a thread
// issues all its loads first (unguarded in full tiles, so they are all in flight: with a
// check on each, the pass took 229 us over 2^26 floats, the unguarded histogram pass
// 120; ncu, H200, base clocks, 2026-11-28), then tests them, and a warp with selected
// keys takes their places with one atomic.
template <class P, bool Guard, class K, class Load, class Test>
__attribute__((always_inline)) inline void append_tile(std::size_t base, std::size_t n, Load &load,
                                                       const Test &test, K *keys, std::size_t *idx,
                                                       unsigned long long *count) {
  constexpr std::size_t b = P::block;
  const std::size_t l = pacxx::Thread::get().local.x;
  K v[P::items];
#pragma unroll
  for (std::size_t k = 0; k < P::items; ++k)
    if (!Guard || base + k * b + l < n)
      v[k] = load(base + k * b + l);
  bool hit[P::items];
  unsigned c = 0;
#pragma unroll
  for (std::size_t k = 0; k < P::items; ++k) {
    hit[k] = (!Guard || base + k * b + l < n) && test(v[k]);
    c += hit[k] ? 1u : 0u;
  }
  if (pacxx::warp::ballot(c != 0)) { // the same in every lane of the warp
    std::size_t pos = warp_append_at(c, count);
#pragma unroll
    for (std::size_t k = 0; k < P::items; ++k)
      if (hit[k]) {
        keys[pos] = v[k];
        idx[pos] = base + k * b + l;
        ++pos;
      }
  }
}

// Appends the (key, index) of every key of src (n) that test selects to keys / idx, in no
// order, counting them in *count (zero before): one atomic a warp and tile where one of
// its lanes has a key. For top_k, whose selected keys are few (k plus ties) and sorted
// afterwards: the ordered compaction (a tile clear, then a pass of pairs with look-back)
// took 424 us over 2^26 floats (ncu, H200, base clocks, 2026-11-28).
template <class K, class V, class Test>
void append_selected(const V &src, std::size_t n, Test test, K *keys, std::size_t *idx,
                     unsigned long long *count) {
  using P = pacxx::policy::histogram;
  using U = unsigned long long;
  pacxx::kernel(
      [test](const auto &view, std::size_t n, K *keys, std::size_t *idx, U *count) {
        auto first = ranges::begin(view);
        using D = ranges::range_difference_t<decltype(view)>;
        auto load = [&](std::size_t i) -> K { return K(*(first + static_cast<D>(i))); };
        constexpr std::size_t tile = P::block * P::items;
        const std::size_t step = pacxx::Grid::get().size.x * tile;
        // The same trip count in every lane of a block: the warp's scan and shuffle.
        for (std::size_t base = pacxx::Block::get().index.x * tile; base < n; base += step) {
          if (base + tile <= n)
            append_tile<P, false>(base, n, load, test, keys, idx, count);
          else
            append_tile<P, true>(base, n, load, test, keys, idx, count);
        }
      },
      pacxx::detail::grid_for(pacxx::detail::ceil_div(n, P::items), P::block, P::max_blocks))(
      src, n, keys, idx, count);
}

template <class C, class K>
using radix_selectable = std::integral_constant<bool, pacxx::agent::is_radix_key<K>::value &&
                                                          radix_order_t<C, K>::value != 0>;

// top_k into the new vectors vals and idx (k elements each), sorted by comp.
//   k = 1: the first smallest key bits (gpu::min_element over the bits: one pass).
//   else:  radix_select finds the k-th key; one pass appends every key up to it with its
//          index (append_selected, in no order), a radix sort by index puts them in input
//          order and a stable sort by key orders them, ties in input order; the first k
//          are the result. Where the k-th key has many copies (more than
//          select_tie_slack beyond k) the keys before it and the first copies are taken by
//          two compactions instead, so the sort stays at k elements.
constexpr std::size_t select_tie_slack = std::size_t(1) << 16;
template <class K, class Comp, class V>
void top_k_into(const char *name, const V &src, std::size_t n, std::size_t k, vector<K> &vals,
                vector<std::size_t> &idx, Comp comp, std::true_type /*radix*/) {
  constexpr int Order = radix_order_t<Comp, K>::value;
  using B = typename select_bits<K, Order>::B;
  auto pairs = ranges::views::zip(src, ranges::views::iota(std::size_t(0), n));
  auto out = ranges::views::zip(pacxx::detail::device_view(vals), pacxx::detail::device_view(idx));
  if (k == 1) {
    const std::size_t i = gpu::min_element(src | ranges::views::transform(select_bits<K, Order>{}));
    gpu::transform(pairs | ranges::views::slice(i, i + 1), out, identity{});
    return;
  }
  // The candidates' scratch: a part of n (policy::select_candidates); more candidates
  // than that (few distinct top digits) read the input whole.
  const std::size_t cap = n / pacxx::policy::select_candidates::divisor;
  vector<K> cand(cap);
  const radix_selection<B> s = radix_select<K, Order, false>(
      src, src, n, k - 1, static_cast<K *>(nullptr), cand.data(), cap);
  const std::size_t through = s.before + s.equal;
  if (through - k <= select_tie_slack) {
    // Every key up to the k-th, appended in no order, then put in input order (a radix
    // sort by index over the index's bits) and sorted stably by key: ties in input order.
    vector<K> cv(through);
    vector<std::size_t> ci(through);
    vector<unsigned long long> appended(1, 0ull);
    append_selected(src, n, bits_through<K, Order, B>{s.bits}, cv.data(), ci.data(),
                    appended.data());
    int index_bits = 1;
    while (index_bits < 64 && (std::size_t(1) << index_bits) < n)
      ++index_bits;
    gpu::sort_by_key(ci, cv, 0, index_bits);
    gpu::sort_by_key(cv, ci, comp);
    pacxx::detail::copy_on_device(vals.data(), cv.data(), k * sizeof(K));
    pacxx::detail::copy_on_device(idx.data(), ci.data(), k * sizeof(std::size_t));
    return;
  }
  if (s.before > 0)
    compact_known(name, pairs, n, select_if<on_first<bits_before<K, Order, B>>>{{{s.bits}}}, out);
  const std::size_t need = k - s.before;
  // The equal keys to a buffer of all of them (their number is known), the first `need`
  // moved behind the others (device copies).
  vector<K> eq_vals(s.equal);
  vector<std::size_t> eq_idx(s.equal);
  compact_known(
      name, pairs, n, select_if<on_first<bits_equal<K, Order, B>>>{{{s.bits}}},
      ranges::views::zip(pacxx::detail::device_view(eq_vals), pacxx::detail::device_view(eq_idx)));
  pacxx::detail::copy_on_device(vals.data() + s.before, eq_vals.data(), need * sizeof(K));
  pacxx::detail::copy_on_device(idx.data() + s.before, eq_idx.data(), need * sizeof(std::size_t));
  gpu::sort_by_key(vals, idx, comp);
}
template <class K, class Comp, class V>
void top_k_into(const char *, const V &src, std::size_t n, std::size_t k, vector<K> &vals,
                vector<std::size_t> &idx, Comp comp, std::false_type /*radix*/) {
  vector<K> all(n);
  vector<std::size_t> pos(n);
  gpu::transform(src, all, identity{});
  gpu::transform(ranges::views::iota(std::size_t(0), n), pos, identity{});
  gpu::sort_by_key(all, pos, comp);
  pacxx::detail::copy_on_device(vals.data(), all.data(), k * sizeof(K));
  pacxx::detail::copy_on_device(idx.data(), pos.data(), k * sizeof(std::size_t));
}

template <class D> void check_output(const char *name, const char *what, D &d, std::size_t k) {
  const std::size_t m = pacxx::detail::device_size(d);
  if (m < k)
    throw pacxx::error(std::string(name) + ": " + what + " has " + std::to_string(m) +
                       " elements, fewer than k = " + std::to_string(k));
}

template <class In, class OutV, class OutI, class Comp>
void top_k_impl(In &&in, std::size_t k, OutV &&out_values, OutI *out_indices, Comp comp) {
  const char *name = "gpu::top_k";
  auto src = pacxx::detail::device_view(std::forward<In>(in));
  auto dv = pacxx::detail::device_view(std::forward<OutV>(out_values));
  const std::size_t n = pacxx::detail::device_size(src);
  if (k > n)
    throw pacxx::error(std::string(name) + ": k = " + std::to_string(k) + " of " +
                       std::to_string(n) + " elements");
  check_output(name, "out_values", dv, k);
  if (out_indices)
    check_output(name, "out_indices", *out_indices, k);
  if (k == 0)
    return;
  using K = ranges::range_value_t<decltype(src)>;
  vector<K> vals(k);
  vector<std::size_t> idx(k);
  top_k_into(name, src, n, k, vals, idx, comp, radix_selectable<Comp, K>{});
  gpu::transform(pacxx::detail::device_view(vals), dv, identity{});
  if (out_indices)
    gpu::transform(pacxx::detail::device_view(idx), *out_indices, identity{});
}

// Whether the keys whose bits are `bits` may differ in their own bits: only -0.0 and +0.0
// (floating keys read -0.0 as +0.0, radix_key); every other key's bits are a bijection
// with its value (NaN payloads included), so the selected key stands for all of them.
template <class T, int Order, class B> bool equal_keys_may_differ(B bits) {
  const B zero = B(B(1) << (sizeof(B) * 8 - 1)); // +0.0's bits (radix_key)
  return !std::is_integral<T>::value && bits == (Order == 2 ? B(~zero) : zero);
}

// Moves the n elements of src to dst by their bits' order against `bits`: those before it
// to [0, before), those after it to [before + equal, n), each part in no particular order
// (nth_element asks for none), and fills [before, before + equal) with the selected key
// (every key there is bit-identical to it: equal_keys_may_differ) where !MoveEqual, or
// moves the equal keys there too (MoveEqual: a selected zero of a floating type, where
// -0.0 and +0.0 both count as equal). One pass, a tile a block: each thread classifies
// its items (loaded a block-width apart), the block scans the counts packed in one word
// (16 bits each for two parts, 21 each in 64 bits for three: a tile has fewer than 2^16
// items), its first thread takes the block's place in each part with one atomic a part
// (counters: three zeroed words), and the block stages its items by part in shared memory
// and stores them from there, a block-width apart; the items' parts are recomputed from
// the keys at staging (no array of parts in registers). Block g also fills the equal
// range's g-th tile. The former kernel (3 parts moved, 16 items a thread, 56 registers)
// took 517 us for 2^26 floats on the H200 (ncu, base clocks: 49% occupancy, 1 TB/s of
// DRAM, latency-bound); this one keeps 8 items a thread and fewer registers so that more
// blocks fit on an SM (policy::partition_around).
template <class T, int Order, bool MoveEqual, class B, class V>
void partition_around(const V &src, T *dst, std::size_t n, B bits, std::size_t before,
                      std::size_t equal, unsigned long long *counters) {
  using U = unsigned long long;
  using P = pacxx::policy::partition_around;
  constexpr std::size_t block = P::block, items = P::items, tile = block * items;
  using C = typename std::conditional<MoveEqual, U, unsigned>::type; // packed counts
  // Bits a count, and where the counts of the equal and after parts start.
  constexpr unsigned width = MoveEqual ? 21 : 16, at_equal = width;
  constexpr unsigned at_after = MoveEqual ? 2 * width : width;
  static_assert(tile < (std::size_t(1) << 16), "partition_around: 16-bit counts");
  const T key = pacxx::agent::radix_key<T>::from_bits(Order == 2 ? B(~bits) : bits);
  // Offsets within a tile are 32-bit and every address is a tile base plus a constant
  // a item (fewer registers than 64-bit indices per item: 45 against 38 for floats).
  pacxx::kernel(
      [bits, before, equal, key](const auto &in, T *dst, std::size_t n, U *counters) {
        pacxx::launch_bounds(block, sizeof(T) <= 4 ? P::min_blocks : P::min_blocks_wide);
        pacxx::shared_memory<T, tile> stage;
        pacxx::shared_memory<U, 3> base;
        pacxx::block_scan<C, block> scan;
        using D = ranges::range_difference_t<decltype(in)>;
        constexpr C mask = (C(1) << width) - 1;
        const unsigned l = static_cast<unsigned>(pacxx::Thread::get().local.x);
        const std::size_t first = pacxx::Block::get().index.x * tile;
        const unsigned valid = unsigned(n - first < tile ? n - first : tile); // items here
        auto it = ranges::begin(in) + D(first + l);
        T x[items];
        C counts = 0;
#pragma unroll
        for (unsigned k = 0; k < items; ++k)
          if (k * block + l < valid)
            x[k] = *(it + D(k * block));
        if (!MoveEqual && first < equal) { // the block's tile of the equal range
          const unsigned fill = unsigned(equal - first < tile ? equal - first : tile);
          T *f = dst + before + first + l;
#pragma unroll
          for (unsigned k = 0; k < items; ++k)
            if (k * block + l < fill)
              f[k * block] = key;
        }
#pragma unroll
        for (unsigned k = 0; k < items; ++k) {
          if (k * block + l < valid) {
            const B b = select_bits<T, Order>{}(x[k]);
            if (b < bits)
              counts += C(1);
            else if (b != bits)
              counts += C(1) << at_after;
            else if (MoveEqual)
              counts += C(1) << at_equal;
          }
        }
        C total;
        const C mine = scan.exclusive(counts, C(0), std::plus<C>{}, total);
        const unsigned t0 = unsigned(total & mask),
                       t1 = MoveEqual ? unsigned((total >> at_equal) & mask) : 0u,
                       t2 = unsigned((total >> at_after) & mask);
        if (l == 0) {
          base[0] = t0 ? pacxx::atomic_add(counters, U(t0)) : 0;
          if (MoveEqual)
            base[1] = t1 ? pacxx::atomic_add(counters + 1, U(t1)) : 0;
          base[2] = t2 ? pacxx::atomic_add(counters + 2, U(t2)) : 0;
        }
        unsigned o0 = unsigned(mine & mask),
                 o1 = t0 + (MoveEqual ? unsigned((mine >> at_equal) & mask) : 0u),
                 o2 = t0 + t1 + unsigned((mine >> at_after) & mask);
#pragma unroll
        for (unsigned k = 0; k < items; ++k) {
          if (k * block + l < valid) {
            const B b = select_bits<T, Order>{}(x[k]);
            if (b < bits)
              stage[o0++] = x[k];
            else if (b != bits)
              stage[o2++] = x[k];
            else if (MoveEqual)
              stage[o1++] = x[k];
          }
        }
        pacxx::barrier();
        // Each part's destination less its first staged slot, plus this thread's lane.
        T *const d0 = dst + std::size_t(base[0]) + l;
        T *const d1 = dst + (before + std::size_t(base[1]) - t0) + l;
        T *const d2 = dst + (before + equal + std::size_t(base[2]) - t0 - t1) + l;
#pragma unroll
        for (unsigned k = 0; k < items; ++k) {
          const unsigned i = k * block + l;
          if (i < t0)
            d0[k * block] = stage[i];
          else if (MoveEqual && i < t0 + t1)
            d1[k * block] = stage[i];
          else if (i < t0 + t1 + t2)
            d2[k * block] = stage[i];
        }
      },
      pacxx::launch_config{{pacxx::detail::ceil_div(n, tile)}, {block}})(src, dst, n, counters);
}

template <class T, class Comp>
void nth_element_impl(const char *, vector<T> &v, std::size_t nth, Comp comp, std::false_type) {
  (void)nth;
  gpu::sort(v, comp);
}
template <class T, class Comp>
void nth_element_impl(const char *, vector<T> &v, std::size_t nth, Comp, std::true_type) {
  constexpr int Order = radix_order_t<Comp, T>::value;
  using B = typename select_bits<T, Order>::B;
  const std::size_t n = v.size();
  // The first digit's pass copies v to `copy` (what the partition reads), the second
  // compacts the candidates into v (free by then: room for all n of them), the later ones
  // read those; the partition writes v.
  vector<T> copy(n);
  auto src = pacxx::detail::device_view(copy);
  const radix_selection<B> s = radix_select<T, Order, true>(pacxx::detail::device_view(v), src, n,
                                                            nth, copy.data(), v.data(), n);
  vector<unsigned long long> counters(3, 0ull);
  if (equal_keys_may_differ<T, Order>(s.bits))
    partition_around<T, Order, true>(src, v.data(), n, s.bits, s.before, s.equal, counters.data());
  else
    partition_around<T, Order, false>(src, v.data(), n, s.bits, s.before, s.equal, counters.data());
}

template <class T> void check_rank(const char *name, const vector<T> &v, std::size_t r) {
  if (r > v.size())
    throw pacxx::error(std::string(name) + ": position " + std::to_string(r) + " of a vector of " +
                       std::to_string(v.size()) + " elements");
}

} // namespace detail

/// The k first elements of in in comp's order (default: the k largest), sorted, ties in
/// input order, to out_values (see the file's comment).
template <class In, class OutV, class Comp = std::greater<>,
          class = typename std::enable_if<!ranges::range<Comp>>::type>
void top_k(In &&in, std::size_t k, OutV &&out_values, Comp comp = {}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::top_k", in);
  using I = ranges::views::all_t<vector<std::size_t> &>;
  detail::top_k_impl(std::forward<In>(in), k, std::forward<OutV>(out_values),
                     static_cast<I *>(nullptr), comp);
}

/// The same, with the positions in in of the selected elements to out_indices (a
/// gpu::vector or writable view of an integer type).
template <class In, class OutV, class OutI, class Comp = std::greater<>,
          class = typename std::enable_if<ranges::range<OutI>>::type>
void top_k(In &&in, std::size_t k, OutV &&out_values, OutI &&out_indices, Comp comp = {}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::top_k", in);
  auto di = pacxx::detail::device_view(std::forward<OutI>(out_indices));
  detail::top_k_impl(std::forward<In>(in), k, std::forward<OutV>(out_values), &di, comp);
}

/// Reorders v so that v[nth] is what a sort by comp puts there, with nothing after it in
/// comp's order before it and nothing before it after it (std::nth_element).
template <class T, class Comp = std::less<>>
void nth_element(vector<T> &v, std::size_t nth, Comp comp = {}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::nth_element", v);
  detail::check_rank("gpu::nth_element", v, nth);
  if (nth == v.size())
    return;
  detail::nth_element_impl("gpu::nth_element", v, nth, comp, detail::radix_selectable<Comp, T>{});
}

/// Puts the k first elements of v in comp's order, sorted, at its front
/// (std::partial_sort; the others follow in unspecified order).
template <class T, class Comp = std::less<>>
void partial_sort(vector<T> &v, std::size_t k, Comp comp = {}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::partial_sort", v);
  detail::check_rank("gpu::partial_sort", v, k);
  if (k == 0)
    return;
  if (!detail::radix_selectable<Comp, T>::value || k == v.size()) {
    gpu::sort(v, comp);
    return;
  }
  detail::nth_element_impl("gpu::partial_sort", v, k - 1, comp,
                           detail::radix_selectable<Comp, T>{});
  if (k > 1) {
    vector<T> head(k);
    pacxx::detail::copy_on_device(head.data(), v.data(), k * sizeof(T));
    gpu::sort(head, comp);
    pacxx::detail::copy_on_device(v.data(), head.data(), k * sizeof(T));
  }
}

} // namespace gpu
