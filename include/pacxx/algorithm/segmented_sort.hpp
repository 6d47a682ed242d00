// gpu::segmented_sort(keys, offsets[, comp]) and
// gpu::segmented_sort_by_key(keys, values, offsets[, comp]): sorts each segment of a CSR
// layout (offsets.size() = segments + 1, non-decreasing, offsets.back() <= keys.size())
// in place by comp (a strict weak ordering, default std::less<>), stably: equal keys keep
// their order, values follow their keys. As CUB's DeviceSegmentedSort::StableSortKeys /
// StableSortPairs. Elements outside every segment (before offsets[0], from offsets.back()
// on) are not moved. keys and values are gpu::vectors or writable views over them
// (values at least as long as keys); offsets any device range of integers.
//
// Launches: one that checks the offsets as segmented_reduce does (a bad offset is a
// pacxx::error naming the call, keys and values unchanged) and finds the longest segment
// and the first and last offsets (one read back of all four), then by the longest
// segment's length
// (pacxx::policy::segmented_sort):
//  - segments that a warp's registers hold (256 elements on CUDA, 512 for keys and values
//    of at most 16 bytes; 8 and 16 on OpenCL, whose warps are one work-item): a group of
//    lanes a segment, as few as its longest needs, each lane 8 or 16 elements in
//    registers, a bitonic network of register exchanges and shuffles over (key, position)
//    pairs, the position breaking ties (stable); radix keys of at most 32 bits with
//    std::less / std::greater as one 64-bit word, the key's bits above the position,
//    and integer keys without values as one 32-bit word, the key's bits alone;
//  - a block per segment sorting it in shared memory: a bitonic network over (key,
//    position) pairs, the position breaking ties, so the result is the stable one;
//    the network is as wide as the segment rounded up to a power of two, and the block
//    as large as the longest segment needs (three tile sizes);
//  - segments longer than the largest tile, radix keys (integers, float, double) with
//    std::less / std::greater: two stable radix sorts of positions over all elements
//    from offsets[0] to offsets.back(), by key and then by segment (its ceil(log2
//    segments) bits), then a gather and a copy back (five launches and the sorts');
//  - segments longer than the largest tile, any other comparator: one global stable
//    merge sort (gpu::sort) of (segment, position, key) records over all elements, the
//    records of elements outside the long segments comparing equal within their
//    segment so they keep their place; a pack and an unpack launch around it.
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>

#include <range/v3/iterator/traits.hpp>
#include <range/v3/range/access.hpp>
#include <range/v3/range/traits.hpp>

#include "pacxx/algorithm/policy.hpp"
#include "pacxx/algorithm/segmented_reduce.hpp"
#include "pacxx/algorithm/sort.hpp"
#include "pacxx/atomic.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/error.hpp"
#include "pacxx/kernel.hpp"
#include "pacxx/runtime.hpp"
#include "pacxx/shared_memory.hpp"
#include "pacxx/tools.hpp"
#include "pacxx/vector.hpp"

namespace gpu {
namespace detail {

// The offsets' check (segmented_reduce's offset_ok) and the length of the longest segment
// and the first and last offsets, in one launch, one fill and one read back of 32 bytes;
// a bad offset is a pacxx::error naming the call, thrown before anything is written.
// The check and the search were two launches with a read back after each: 64.5 us a
// call for 2^20 keys in segments of 100 against CUB's 43.7 (H200, 2026-11-28).
struct segment_extent {
  unsigned long long longest, first, last;
};
template <class O>
segment_extent checked_segment_extent(const char *name, const O &offsets, std::size_t segments,
                                      std::size_t n) {
  using U = unsigned long long;
  // All ones before the launch: [0] the longest length's complement (atomic_min), [1] and
  // [2] the first and last offsets, [3] the first bad offset's index (atomic_min).
  U *e = static_cast<U *>(pacxx::detail::scratch(4 * sizeof(U)));
  pacxx::detail::fill_on_device(e, 0xff, 4 * sizeof(U));
  using P = pacxx::policy::elementwise;
  pacxx::kernel(
      [](const auto &offsets_view, std::size_t segments, std::size_t n, U *e) {
        auto first = ranges::begin(offsets_view);
        using D = ranges::range_difference_t<decltype(offsets_view)>;
        U longest = 0;
        pacxx::detail::for_each_index<P>(segments + 1, [&](std::size_t s) {
          if (!offset_ok(first, s, segments, n)) {
            pacxx::atomic_min(e + 3, U(s));
            return;
          }
          if (s == segments)
            return;
          const U len = U(*(first + static_cast<D>(s + 1)) - *(first + static_cast<D>(s)));
          longest = len > longest ? len : longest;
          if (s == 0) {
            e[1] = U(*first);
            e[2] = U(*(first + static_cast<D>(segments)));
          }
        });
        // One atomic a warp: an atomic a segment on the one word took 126 us for 167772
        // segments of 100 (ncu, H100, 2026-11-28), longer than the sort's other launches.
        longest = pacxx::warp::reduce(longest, [](U a, U b) { return a > b ? a : b; });
        if (pacxx::warp::lane() == 0 && longest > 1)
          pacxx::atomic_min(e, ~longest);
      },
      pacxx::detail::elementwise_grid<P>(segments + 1))(offsets, segments, n, e);
  U words[4];
  pacxx::detail::copy_to_host(words, e, sizeof words);
  if (words[3] != ~0ull)
    throw bad_offset_error(name, words[3], n);
  return {~words[0], words[1], words[2]};
}

// The segment of element i in device code: the number of offsets <= i, less one (-1
// before offsets[0], `segments` from offsets.back() on).
template <class It> long long segment_of(It offsets, std::size_t segments, std::size_t i) {
  using D = ranges::iter_difference_t<It>;
  std::size_t lo = 0, hi = segments + 1;
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (static_cast<std::size_t>(*(offsets + D(mid))) <= i)
      lo = mid + 1;
    else
      hi = mid;
  }
  return static_cast<long long>(lo) - 1;
}

// A block of B threads a segment of at most B * Items elements (longer ones are left to
// the global sort: the block does nothing). Keys and their positions in shared memory;
// values stay in shared memory at their position until the keys are in order.
template <std::size_t B, std::size_t Items, class K, class V, bool HasValues, class KV, class VV,
          class O, class Comp>
void sort_segments_by_block(const KV &keys, const VV &values, const O &offsets,
                            std::size_t segments, Comp comp) {
  constexpr std::size_t tile = B * Items;
  pacxx::kernel(
      [comp](const auto &kv, const auto &vv, const auto &o) {
        pacxx::shared_memory<K, tile> sk;
        pacxx::shared_memory<unsigned, tile> sp;
        pacxx::shared_memory<V, HasValues ? tile : 1> sv;
        using DO = ranges::range_difference_t<decltype(o)>;
        using DK = ranges::range_difference_t<decltype(kv)>;
        using DV = ranges::range_difference_t<decltype(vv)>;
        const std::size_t l = pacxx::Thread::get().local.x, s = pacxx::Block::get().index.x;
        const std::size_t begin = static_cast<std::size_t>(*(ranges::begin(o) + DO(s)));
        std::size_t len = static_cast<std::size_t>(*(ranges::begin(o) + DO(s + 1))) - begin;
        if (len > tile)
          len = 0;
        const auto k0 = ranges::begin(kv) + DK(begin);
        const auto v0 = ranges::begin(vv) + DV(begin);
        for (std::size_t k = 0; k < Items; ++k) {
          const std::size_t i = k * B + l;
          sp[i] = static_cast<unsigned>(i);
          if (i < len) {
            sk[i] = *(k0 + DK(i));
            if (HasValues)
              sv[i] = *(v0 + DV(i));
          }
        }
        pacxx::barrier();
        // Whether the pair at a goes before the one at b: keys by comp, then positions;
        // positions from len on are padding, after everything.
        auto before = [&](std::size_t a, std::size_t b) {
          const unsigned pa = sp[a], pb = sp[b];
          if (pa >= len)
            return false;
          if (pb >= len)
            return true;
          if (comp(sk[a], sk[b]))
            return true;
          if (comp(sk[b], sk[a]))
            return false;
          return pa < pb;
        };
        std::size_t width = 1; // the network's width: len rounded up to a power of two
        while (width < len)
          width *= 2;
        for (std::size_t size = 2; size <= width; size *= 2)
          for (std::size_t stride = size / 2; stride > 0; stride /= 2) {
            for (std::size_t p = l; p < width / 2; p += B) {
              const std::size_t i = 2 * p - (p & (stride - 1)), j = i + stride;
              if ((i & size) == 0 ? before(j, i) : before(i, j)) {
                const K tk = sk[i];
                sk[i] = sk[j];
                sk[j] = tk;
                const unsigned tp = sp[i];
                sp[i] = sp[j];
                sp[j] = tp;
              }
            }
            pacxx::barrier();
          }
        for (std::size_t k = 0; k < Items; ++k) {
          const std::size_t i = k * B + l;
          if (i < len) {
            *(k0 + DK(i)) = sk[i];
            if (HasValues)
              *(v0 + DV(i)) = sv[sp[i]];
          }
        }
      },
      pacxx::launch_config{{segments}, {B}})(keys, values, offsets);
}

// The lanes of the running device's warps, on the host (32 on CUDA, 1 on OpenCL: what
// pacxx::warp::size() is in device code).
inline std::size_t host_warp_size() {
  const char *b = pacxx::native_handles().backend;
  return b[0] == 'c' ? 32 : 1; // "cuda" or "opencl"
}

// The elements of a warp's sorting network (sort_segments_by_warp). Element e of a
// segment of len is a key and its position e; positions from len on are padding, after
// every key. Positions are distinct, so `before` is a strict total order (the two lanes
// of an exchange always agree on it) and the sort is stable.
//
// Any comparator: the key and the position, compared by comp, then by position.
template <class K> struct warp_sort_pair {
  K key;
  unsigned pos;
};
template <class K, class Comp, int Order, bool Packed> struct warp_sort_items {
  using E = warp_sort_pair<K>;
  Comp comp;
  unsigned len;
  E make(const K *key, unsigned e) const { // key: null for padding
    E x;
    if (key)
      x.key = *key;
    x.pos = e;
    return x;
  }
  bool before(const E &a, const E &b) const {
    if (a.pos >= len || b.pos >= len)
      return a.pos < b.pos;
    if (comp(a.key, b.key))
      return true;
    if (comp(b.key, a.key))
      return false;
    return a.pos < b.pos;
  }
  static unsigned pos(const E &x) { return x.pos; }
  static constexpr bool exact_key = true; // key(x) is the key as loaded
  static K key(const E &x) { return x.key; }
};
// Radix keys of at most 32 bits with std::less / std::greater: one 64-bit word, the key's
// radix bits (pacxx/agent/radix_sort.hpp, complemented for descending) above the
// position, all-one bits for padding, compared as an integer. An exchange is a min and a
// max, a shuffle two words. (-0.0 has +0.0's bits, so float keys are read back from their
// positions instead of from the bits.)
template <class K, class Comp, int Order> struct warp_sort_items<K, Comp, Order, true> {
  using E = unsigned long long;
  using R = pacxx::agent::radix_key<K>;
  Comp comp;
  unsigned len;
  E make(const K *key, unsigned e) const {
    if (!key)
      return (E(0xffffffffu) << 32) | e;
    const auto b = R::bits(*key);
    return (E(Order == 2 ? decltype(b)(~b) : b) << 32) | e;
  }
  bool before(E a, E b) const { return a < b; }
  static unsigned pos(E x) { return static_cast<unsigned>(x); }
  static constexpr bool exact_key = std::is_integral<K>::value;
  static K key(E x) {
    using B = typename R::bits_type;
    const B b = static_cast<B>(x >> 32);
    return R::from_bits(Order == 2 ? B(~b) : b);
  }
};
// Keys only, integer keys of at most 32 bits with std::less / std::greater: equal keys
// cannot be told apart, so the sort is stable without positions. One 32-bit word, the
// key's radix bits (complemented for descending), all-one bits for padding (it ties only
// with keys whose bits are all one, which it cannot be told from); an exchange is a
// 32-bit min and max, a shuffle one word. The 64-bit words above took 259 us for 2^24
// keys in segments of 100, SM 84% busy issuing 108M instructions (ncu, H200, base
// clocks, 2026-11-28; CUB's small-segment kernel 142 us).
template <class K, class Comp, int Order> struct warp_sort_keys {
  using E = unsigned;
  using R = pacxx::agent::radix_key<K>;
  using B = typename R::bits_type;
  Comp comp;
  unsigned len;
  E make(const K *key, unsigned) const {
    if (!key)
      return ~E(0);
    const B b = R::bits(*key);
    return E(Order == 2 ? B(~b) : b);
  }
  bool before(E a, E b) const { return a < b; }
  static unsigned pos(E) { return 0; } // never read: no values, and keys are exact
  static constexpr bool exact_key = true;
  static K key(E x) { return R::from_bits(Order == 2 ? B(~B(x)) : B(x)); }
};
template <class K, class Comp>
using warp_sort_packed =
    std::integral_constant<bool, radix_order_t<Comp, K>::value != 0 &&
                                     sizeof(typename pacxx::agent::radix_key<K>::bits_type) <= 4>;
template <class K, class Comp, bool HasValues>
using warp_sort_keys_only = std::integral_constant<bool, !HasValues && std::is_integral<K>::value &&
                                                             warp_sort_packed<K, Comp>::value>;
template <class K, class Comp, bool HasValues, class = void> struct warp_sort_for {
  using type = warp_sort_items<K, Comp, 0, false>;
};
template <class K, class Comp, bool HasValues>
struct warp_sort_for<
    K, Comp, HasValues,
    typename std::enable_if<warp_sort_packed<K, Comp>::value &&
                            !warp_sort_keys_only<K, Comp, HasValues>::value>::type> {
  using type = warp_sort_items<K, Comp, radix_order_t<Comp, K>::value, true>;
};
template <class K, class Comp, bool HasValues>
struct warp_sort_for<
    K, Comp, HasValues,
    typename std::enable_if<warp_sort_keys_only<K, Comp, HasValues>::value>::type> {
  using type = warp_sort_keys<K, Comp, radix_order_t<Comp, K>::value>;
};

// In-lane compare-exchange of items a < b: the one that goes first to a.
template <class E, class Items>
__attribute__((always_inline)) inline void exchange_items(E &a, E &b, const Items &items) {
  if (items.before(b, a)) {
    const E t = a;
    a = b;
    b = t;
  }
}

// The exchanges of a merge's steps within a lane: strides `top`, top / 2, .. 1 (top a
// power of two below I, or 0; a constant once the caller's loops are unrolled).
template <std::size_t I, class E, class Items>
__attribute__((always_inline)) inline void exchange_within_lane(E (&x)[I], unsigned top,
                                                                const Items &items) {
#pragma unroll
  for (unsigned stride = top; stride > 0; stride /= 2)
#pragma unroll
    for (unsigned a = 0; a < I; ++a)
      if ((a & stride) == 0)
        exchange_items(x[a], x[a + stride], items);
}

// Cross-lane compare-exchange of this lane's item x with `send` of lane `partner`; the
// lower lane keeps the one that goes first. Every lane of the warp calls it together.
template <class E, class Items>
__attribute__((always_inline)) inline void exchange_lanes(E &x, const E &send, unsigned partner,
                                                          bool lower, const Items &items) {
  const E other = pacxx::warp::shuffle(send, partner);
  if (items.before(other, x) == lower)
    x = other;
}

// Segments of at most group * I elements, `group` lanes of a warp each (a power of two
// up to the warp's size; I a power of two), blocks of B threads taking B / group segments.
// Each lane holds I consecutive elements of its segment in registers, and the group sorts
// them with a bitonic network in the form where every merge starts by comparing element e
// with e ^ (size - 1), so all exchanges keep the first at the lower index: within a lane
// the exchanges are of registers (unrolled, constant indices), across lanes shuffles.
// Values are gathered by position once the keys are in order. Longer segments are left
// to the other paths (the group does nothing). The block's shared-memory bitonic sort
// with one block of 32 threads a segment of 100 took 1081 us for 2^24 keys (H100, ncu,
// 2026-11-28), CUB's warp sort 135, this kernel with (key, position) pairs 367.
template <std::size_t B, std::size_t I, class K, class V, bool HasValues, class KV, class VV,
          class O, class Comp>
void sort_segments_by_warp(const KV &keys, const VV &values, const O &offsets, std::size_t segments,
                           unsigned group, Comp comp) {
  static_assert(I >= 2 && (I & (I - 1)) == 0, "items a lane: a power of two");
  using Items = typename warp_sort_for<K, Comp, HasValues>::type;
  pacxx::kernel(
      [comp](const auto &kv, const auto &vv, const auto &o, std::size_t segments, unsigned group) {
        using DO = ranges::range_difference_t<decltype(o)>;
        using DK = ranges::range_difference_t<decltype(kv)>;
        using DV = ranges::range_difference_t<decltype(vv)>;
        using E = typename Items::E;
        const unsigned l = static_cast<unsigned>(pacxx::Thread::get().local.x);
        const std::size_t s = pacxx::Block::get().index.x * (B / group) + l / group;
        const unsigned g = l % group, lane = pacxx::warp::lane();
        std::size_t begin = 0, len = 0;
        if (s < segments) {
          begin = static_cast<std::size_t>(*(ranges::begin(o) + DO(s)));
          len = static_cast<std::size_t>(*(ranges::begin(o) + DO(s + 1))) - begin;
          if (len > group * I)
            len = 0;
        }
        const Items items{comp, static_cast<unsigned>(len)};
        const auto k0 = ranges::begin(kv) + DK(begin);
        E x[I];
#pragma unroll
        for (unsigned k = 0; k < I; ++k) {
          const unsigned e = g * unsigned(I) + k;
          if (e < len) {
            const K key = *(k0 + DK(e));
            x[k] = items.make(&key, e);
          } else {
            x[k] = items.make(nullptr, e);
          }
        }
    // Merges within the lane (sizes 2 .. I).
#pragma unroll
        for (unsigned size = 2; size <= I; size *= 2) {
#pragma unroll
          for (unsigned a = 0; a < I; ++a)
            if (a < (a ^ (size - 1)))
              exchange_items(x[a], x[a ^ (size - 1)], items);
          exchange_within_lane(x, size / 4, items);
        }
        // Merges across the group's lanes (sizes 2I .. group * I).
        for (unsigned size = 2 * I; size <= group * I; size *= 2) {
          const unsigned flip = size / I - 1; // e ^ (size - 1): lane g ^ flip, item I - 1 - k
          E f[I];
#pragma unroll
          for (unsigned k = 0; k < I; ++k)
            f[k] = x[I - 1 - k];
#pragma unroll
          for (unsigned k = 0; k < I; ++k)
            exchange_lanes(x[k], f[k], lane ^ flip, (g ^ flip) > g, items);
          for (unsigned m = size / (4 * I); m > 0; m /= 2) // strides >= I: lane g ^ m
#pragma unroll
            for (unsigned k = 0; k < I; ++k)
              exchange_lanes(x[k], x[k], lane ^ m, (g & m) == 0, items);
          exchange_within_lane(x, I / 2, items);
        }
        // Keys that the elements do not give back exactly, and values, are read from their
        // positions before any lane writes.
        K key[I];
        V val[HasValues ? I : 1];
        const auto v0 = ranges::begin(vv) + DV(begin);
#pragma unroll
        for (unsigned k = 0; k < I; ++k)
          if (g * unsigned(I) + k < len) {
            key[k] = Items::exact_key ? Items::key(x[k]) : *(k0 + DK(Items::pos(x[k])));
            if (HasValues)
              val[HasValues ? k : 0] = *(v0 + DV(Items::pos(x[k])));
          }
        pacxx::barrier();
#pragma unroll
        for (unsigned k = 0; k < I; ++k) {
          const unsigned e = g * unsigned(I) + k;
          if (e < len) {
            *(k0 + DK(e)) = key[k];
            if (HasValues)
              *(v0 + DV(e)) = val[HasValues ? k : 0];
          }
        }
      },
      pacxx::launch_config{{pacxx::detail::ceil_div(segments, B / group)}, {B}})(
      keys, values, offsets, segments, group);
}

// A record of the global sort: segment (-1 before the first, `segments` after the last),
// position, key, and whether its segment is sorted here (a long one).
template <class K> struct segment_record {
  long long seg;
  unsigned long long pos;
  K key;
  unsigned sorted;
};
template <class Comp> struct by_segment_then_key {
  Comp comp;
  template <class K> bool operator()(const segment_record<K> &a, const segment_record<K> &b) const {
    if (a.seg != b.seg)
      return a.seg < b.seg;
    return a.sorted && comp(a.key, b.key);
  }
};

// Sorts the segments longer than `tile` by one stable merge sort of records of all n
// elements (any comparator).
template <class K, class V, bool HasValues, class KV, class VV, class O, class Comp>
void sort_long_segments(const KV &keys, const VV &values, const O &offsets, std::size_t segments,
                        std::size_t n, std::size_t tile, Comp comp) {
  using R = segment_record<K>;
  using P = pacxx::policy::elementwise;
  vector<R> records(n);
  vector<V> copy(HasValues ? n : 0);
  pacxx::kernel(
      [](const auto &kv, const auto &vv, const auto &o, std::size_t segments, std::size_t n,
         std::size_t tile, R *records, V *copy) {
        using DO = ranges::range_difference_t<decltype(o)>;
        using DK = ranges::range_difference_t<decltype(kv)>;
        using DV = ranges::range_difference_t<decltype(vv)>;
        const auto off = ranges::begin(o);
        pacxx::detail::for_each_index<P>(n, [&](std::size_t i) {
          const long long seg = segment_of(off, segments, i);
          bool sorted = false;
          if (seg >= 0 && static_cast<std::size_t>(seg) < segments)
            sorted = static_cast<std::size_t>(*(off + DO(seg + 1)) - *(off + DO(seg))) > tile;
          records[i] = R{seg, i, *(ranges::begin(kv) + DK(i)), sorted ? 1u : 0u};
          if (HasValues)
            copy[i] = *(ranges::begin(vv) + DV(i));
        });
      },
      pacxx::detail::elementwise_grid<P>(n))(keys, values, offsets, segments, n, tile,
                                             records.data(), copy.data());
  gpu::sort(records, by_segment_then_key<Comp>{comp});
  pacxx::kernel(
      [](const auto &kv, const auto &vv, std::size_t n, const R *records, const V *copy) {
        using DK = ranges::range_difference_t<decltype(kv)>;
        using DV = ranges::range_difference_t<decltype(vv)>;
        pacxx::detail::for_each_index<P>(n, [&](std::size_t i) {
          const R r = records[i];
          if (!r.sorted)
            return;
          *(ranges::begin(kv) + DK(i)) = r.key;
          if (HasValues)
            *(ranges::begin(vv) + DV(i)) = copy[r.pos];
        });
      },
      pacxx::detail::elementwise_grid<P>(n))(keys, values, n, records.data(), copy.data());
}

// Radix keys with std::less / std::greater, the elements of [first, last) fewer than 2^32
// in fewer than 2^32 segments: two stable radix sorts of positions, by key and then by
// segment (the second keeps the first's order within a segment), then a gather of keys
// and values by position and a copy back. Segments sorted by their blocks before are
// sorted again (they stay as they are).
template <class K, class V, bool HasValues, class KV, class VV, class O, class Comp>
void radix_sort_segments(const KV &keys, const VV &values, const O &offsets, std::size_t segments,
                         std::size_t first, std::size_t last, Comp comp) {
  using P = pacxx::policy::elementwise;
  const std::size_t m = last - first;
  vector<K> k(m);
  vector<unsigned> pos(m), seg(m);
  pacxx::kernel(
      [](const auto &kv, std::size_t first, std::size_t m, K *k, unsigned *pos) {
        using DK = ranges::range_difference_t<decltype(kv)>;
        pacxx::detail::for_each_index<P>(m, [&](std::size_t i) {
          k[i] = *(ranges::begin(kv) + DK(first + i));
          pos[i] = static_cast<unsigned>(i);
        });
      },
      pacxx::detail::elementwise_grid<P>(m))(keys, first, m, k.data(), pos.data());
  gpu::sort_by_key(k, pos, comp);
  pacxx::kernel(
      [](const auto &o, std::size_t segments, std::size_t first, std::size_t m, const unsigned *pos,
         unsigned *seg) {
        pacxx::detail::for_each_index<P>(m, [&](std::size_t i) {
          seg[i] = static_cast<unsigned>(segment_of(ranges::begin(o), segments, first + pos[i]));
        });
      },
      pacxx::detail::elementwise_grid<P>(m))(offsets, segments, first, m, pos.data(), seg.data());
  int bits = 1;
  while (bits < 32 && (std::size_t(1) << bits) < segments)
    ++bits;
  gpu::sort_by_key(seg, pos, 0, bits);
  vector<V> v(HasValues ? m : 0);
  pacxx::kernel(
      [](const auto &kv, const auto &vv, std::size_t first, std::size_t m, const unsigned *pos,
         K *k, V *v) {
        using DK = ranges::range_difference_t<decltype(kv)>;
        using DV = ranges::range_difference_t<decltype(vv)>;
        pacxx::detail::for_each_index<P>(m, [&](std::size_t i) {
          k[i] = *(ranges::begin(kv) + DK(first + pos[i]));
          if (HasValues)
            v[i] = *(ranges::begin(vv) + DV(first + pos[i]));
        });
      },
      pacxx::detail::elementwise_grid<P>(m))(keys, values, first, m, pos.data(), k.data(),
                                             v.data());
  pacxx::kernel(
      [](const auto &kv, const auto &vv, std::size_t first, std::size_t m, const K *k, const V *v) {
        using DK = ranges::range_difference_t<decltype(kv)>;
        using DV = ranges::range_difference_t<decltype(vv)>;
        pacxx::detail::for_each_index<P>(m, [&](std::size_t i) {
          *(ranges::begin(kv) + DK(first + i)) = k[i];
          if (HasValues)
            *(ranges::begin(vv) + DV(first + i)) = v[i];
        });
      },
      pacxx::detail::elementwise_grid<P>(m))(keys, values, first, m, k.data(), v.data());
}

template <class K, class V, bool HasValues, class KV, class VV, class O, class Comp>
void sort_long_segments(const KV &keys, const VV &values, const O &offsets, std::size_t segments,
                        std::size_t n, std::size_t tile, const segment_extent &e, Comp comp,
                        std::true_type /*radix keys and order*/) {
  if (e.last - e.first <= 0xffffffffull && segments <= 0xffffffffull)
    radix_sort_segments<K, V, HasValues>(keys, values, offsets, segments, e.first, e.last, comp);
  else
    sort_long_segments<K, V, HasValues>(keys, values, offsets, segments, n, tile, comp);
}
template <class K, class V, bool HasValues, class KV, class VV, class O, class Comp>
void sort_long_segments(const KV &keys, const VV &values, const O &offsets, std::size_t segments,
                        std::size_t n, std::size_t tile, const segment_extent &, Comp comp,
                        std::false_type) {
  sort_long_segments<K, V, HasValues>(keys, values, offsets, segments, n, tile, comp);
}

// sort_segments_by_block with tiles of Tile elements where they fit the shared memory
// (returns Tile: the segments up to that long are sorted), else nothing (returns 0).
template <std::size_t B, std::size_t Tile, class K, class V, bool HasValues, class KV, class VV,
          class O, class Comp>
std::size_t sort_by_blocks(const KV &keys, const VV &values, const O &offsets, std::size_t segments,
                           Comp comp, std::true_type /*fits*/) {
  sort_segments_by_block<B, Tile / B, K, V, HasValues>(keys, values, offsets, segments, comp);
  return Tile;
}
template <std::size_t B, std::size_t Tile, class K, class V, bool HasValues, class KV, class VV,
          class O, class Comp>
std::size_t sort_by_blocks(const KV &, const VV &, const O &, std::size_t, Comp, std::false_type) {
  return 0;
}

template <class K, class V, bool HasValues, class KV, class VV, class O, class Comp>
void segmented_sort(const char *name, const KV &keys, const VV &values, const O &offsets,
                    std::size_t segments, std::size_t n, Comp comp) {
  const segment_extent e = checked_segment_extent(name, offsets, segments, n);
  const unsigned long long longest = e.longest;
  if (longest <= 1)
    return;
  using P = pacxx::policy::segmented_sort;
  // Segments that a warp's registers hold: a group of lanes each (see sort_segments_by_warp).
  const std::size_t lanes = host_warp_size();
  constexpr std::size_t item_bytes = sizeof(K) + (HasValues ? sizeof(V) : 0);
  if (longest <= P::warp_items * lanes ||
      (item_bytes <= P::warp_items_max_bytes && longest <= 2 * P::warp_items * lanes)) {
    // 16 items a lane for every packed network beyond 8 elements (fewer lanes a segment,
    // so fewer shuffles) was slower: 1045 against 815 us for 2^26 keys in segments of
    // 100 (H100, 2026-11-28).
    const std::size_t items = longest <= P::warp_items * lanes ? P::warp_items : 2 * P::warp_items;
    std::size_t group = 1;
    while (group * items < longest)
      group *= 2;
    if (items == P::warp_items)
      sort_segments_by_warp<P::warp_block, P::warp_items, K, V, HasValues>(
          keys, values, offsets, segments, static_cast<unsigned>(group), comp);
    else
      sort_segments_by_warp<P::warp_block, 2 * P::warp_items, K, V, HasValues>(
          keys, values, offsets, segments, static_cast<unsigned>(group), comp);
    return;
  }
  static_assert(P::small_tile % P::small_block == 0 && P::medium_tile % P::medium_block == 0 &&
                    P::large_tile % P::large_block == 0,
                "policy::segmented_sort: tiles are whole multiples of their blocks");
  // A tile takes this many bytes of shared memory per element: the largest tiles of large
  // keys and values do not fit (their segments go to the next smaller tile that does, or
  // to the global sort).
  constexpr std::size_t bytes = sizeof(K) + sizeof(unsigned) + (HasValues ? sizeof(V) : 0);
  using small_fits = std::integral_constant<bool, bytes * P::small_tile <= P::max_shared_bytes>;
  using medium_fits = std::integral_constant<bool, bytes * P::medium_tile <= P::max_shared_bytes>;
  using large_fits = std::integral_constant<bool, bytes * P::large_tile <= P::max_shared_bytes>;
  std::size_t by_blocks; // the longest segment the blocks sorted
  if (longest <= P::small_tile && small_fits::value)
    by_blocks = sort_by_blocks<P::small_block, P::small_tile, K, V, HasValues>(
        keys, values, offsets, segments, comp, small_fits{});
  else if (longest <= P::medium_tile && medium_fits::value)
    by_blocks = sort_by_blocks<P::medium_block, P::medium_tile, K, V, HasValues>(
        keys, values, offsets, segments, comp, medium_fits{});
  else if (large_fits::value)
    by_blocks = sort_by_blocks<P::large_block, P::large_tile, K, V, HasValues>(
        keys, values, offsets, segments, comp, large_fits{});
  else if (medium_fits::value)
    by_blocks = sort_by_blocks<P::medium_block, P::medium_tile, K, V, HasValues>(
        keys, values, offsets, segments, comp, medium_fits{});
  else
    by_blocks = sort_by_blocks<P::small_block, P::small_tile, K, V, HasValues>(
        keys, values, offsets, segments, comp, small_fits{});
  if (longest > by_blocks)
    sort_long_segments<K, V, HasValues>(
        keys, values, offsets, segments, n, by_blocks, e, comp,
        std::integral_constant<bool, radix_order_t<Comp, K>::value != 0>{});
}

// The number of segments (the offsets are checked with the first launch, in
// checked_segment_extent).
template <class O> std::size_t sort_segment_count(const char *name, const O &offsets) {
  static_assert(std::is_integral<ranges::range_value_t<O>>::value,
                "gpu::segmented_sort: offsets must be integers");
  return segment_count(name, offsets);
}

} // namespace detail

// Sorts each CSR segment of keys (a gpu::vector or writable view) in place by comp, stably;
// elements outside every segment do not move. Launches: the offsets' check and the search
// for the longest segment (one launch and a read back), then a block per segment in shared memory,
// or for segments longer than the largest tile radix sorts (radix keys with std::less /
// std::greater) or a merge sort (any other comparator). A bad offset is a pacxx::error, keys
// unchanged.
template <class Keys, class Offsets, class Comp = std::less<>>
void segmented_sort(Keys &&keys, Offsets &&offsets, Comp comp = Comp{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::segmented_sort", keys);
  static_assert(pacxx::is_device_copyable<Comp>::value,
                "gpu::segmented_sort: the comparison must be trivially copyable (capture "
                "values only)");
  auto kv = pacxx::detail::device_view(std::forward<Keys>(keys));
  auto off = pacxx::detail::device_view(std::forward<Offsets>(offsets));
  using K = ranges::range_value_t<decltype(kv)>;
  const char *name = "gpu::segmented_sort";
  const std::size_t segments = detail::sort_segment_count(name, off);
  detail::segmented_sort<K, K, false>(name, kv, kv, off, segments, pacxx::detail::device_size(kv),
                                      comp);
}

// gpu::segmented_sort with the values following their keys. Values shorter than keys, or a
// bad offset, is a pacxx::error, keys and values unchanged.
template <class Keys, class Values, class Offsets, class Comp = std::less<>>
void segmented_sort_by_key(Keys &&keys, Values &&values, Offsets &&offsets, Comp comp = Comp{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::segmented_sort_by_key", keys);
  static_assert(pacxx::is_device_copyable<Comp>::value,
                "gpu::segmented_sort_by_key: the comparison must be trivially copyable "
                "(capture values only)");
  auto kv = pacxx::detail::device_view(std::forward<Keys>(keys));
  auto vv = pacxx::detail::device_view(std::forward<Values>(values));
  auto off = pacxx::detail::device_view(std::forward<Offsets>(offsets));
  using K = ranges::range_value_t<decltype(kv)>;
  using V = ranges::range_value_t<decltype(vv)>;
  const std::size_t n = pacxx::detail::device_size(kv), nv = pacxx::detail::device_size(vv);
  if (nv < n)
    throw pacxx::error("gpu::segmented_sort_by_key: the values have " + std::to_string(nv) +
                       " elements, the keys " + std::to_string(n));
  const char *name = "gpu::segmented_sort_by_key";
  const std::size_t segments = detail::sort_segment_count(name, off);
  detail::segmented_sort<K, V, true>(name, kv, vv, off, segments, n, comp);
}

} // namespace gpu
