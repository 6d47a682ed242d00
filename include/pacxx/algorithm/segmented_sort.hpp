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
// pacxx::error naming the call, keys and values unchanged) and finds the longest segment,
// the first and last offsets, the long segments' tiles and which size classes occur (one
// read back), then by size class (pacxx::policy::segmented_sort), each segment sorted once
// and a class launched only where one of its segments occurs:
//  - segments that a warp's registers hold (256 elements on CUDA, 512 for keys and values
//    of at most 16 bytes; 8 and 16 on OpenCL, whose warps are one work-item): a group of
//    lanes a segment, as few as its longest needs, each lane 8 or 16 elements in
//    registers, a bitonic network of register exchanges and shuffles over (key, position)
//    pairs, the position breaking ties (stable); radix keys of at most 32 bits with
//    std::less / std::greater as one 64-bit word, the key's bits above the position,
//    and integer keys without values as one 32-bit word, the key's bits alone;
//  - up to the largest tile a block's shared memory holds: a block per segment, a
//    bitonic network over (key, position) pairs, the position breaking ties, so the
//    result is the stable one; the network is as wide as the segment rounded up to a
//    power of two, and the block as large as the longest segment needs (three tile sizes;
//    with long segments the largest that fits, above the warp's class); radix keys with
//    std::less / std::greater compared by their radix bits, as the other classes order
//    them, so a segment's order does not depend on its class (see below on NaNs);
//  - longer segments, radix keys (integers, float, double, half) with std::less /
//    std::greater: an LSD radix sort whose passes scatter within each segment, over
//    tiles of 256 x 16 elements (fewer items for values above 8 bytes) that never
//    straddle segments: a tile list (two launches and a scan), then per 8-bit digit a
//    count per tile, one scan of all the counts and a scatter (keys ranked in shared
//    memory, values following), the first pass reading the user's range, the last
//    writing it (a one-pass sort copies back); segments of 2^32 elements or more, or
//    values too large for the shared memory, take the merge sort below;
//  - longer segments, any other comparator: one global stable merge sort (gpu::sort) of
//    (segment, position, key) records over all elements, the records of elements outside
//    the long segments comparing equal within their segment so they keep their place; a
//    pack and an unpack launch around it.
// Floating-point keys with std::less / std::greater are ordered by their radix bits in
// every class, as gpu::sort orders them: -0.0 and +0.0 equal (stable), NaNs with the sign
// bit set before -inf and the others after +inf (reversed for std::greater). Compared by
// the comparator instead, a NaN is equivalent to every key, which is not a strict weak
// ordering: the block class then left NaNs wherever its network put them, so a segment's
// order depended on its length (stl_segmented_scan_sort_test, FloatsWithSignedZerosAndNaNs,
// failed before).
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>

#include <range/v3/iterator/traits.hpp>
#include <range/v3/range/access.hpp>
#include <range/v3/range/traits.hpp>

#include "pacxx/agent/radix_sort.hpp"
#include "pacxx/algorithm/policy.hpp"
#include "pacxx/algorithm/scan.hpp"
#include "pacxx/algorithm/segmented_reduce.hpp"
#include "pacxx/algorithm/sort.hpp"
#include "pacxx/atomic.hpp"
#include "pacxx/block/block_radix_rank.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/error.hpp"
#include "pacxx/kernel.hpp"
#include "pacxx/runtime.hpp"
#include "pacxx/shared_memory.hpp"
#include "pacxx/tools.hpp"
#include "pacxx/vector.hpp"

namespace gpu {
namespace detail {

// The offsets' check (segmented_reduce's offset_ok; a bad offset is a pacxx::error naming
// the call, thrown before anything is written) and what the dispatch needs of the
// offsets: the longest segment, the first and last offsets, and by size class (lo: the
// warp kernel's longest, hi: the block kernel's, tile: the long path's tile) the long
// segments' tiles (those longer than hi, each ceil(len / tile)) and whether any segment
// of 2..lo and of lo+1..hi elements exists, so only the classes that exist are launched.
// One fill, one launch and a read back of 56 bytes. The check and the search were two
// launches with a fill and a read back each: 64.5 us a call for 2^20 keys in segments of
// 100 against CUB's 43.7 (H200, 2026-11-28).
struct segment_extent {
  unsigned long long longest, first, last, long_tiles, any_warp, any_block;
};
template <class O>
segment_extent checked_segment_extent(const char *name, const O &offsets, std::size_t segments,
                                      std::size_t n, std::size_t lo = 0,
                                      std::size_t hi = ~std::size_t(0), std::size_t tile = 1) {
  using U = unsigned long long;
  // Zero before the launch: segment_extent's words, then the first bad offset's index
  // complemented (atomic_max of ~index: the largest is the first; zero, none).
  constexpr std::size_t words = sizeof(segment_extent) / sizeof(U) + 1;
  U *e = static_cast<U *>(pacxx::detail::scratch(words * sizeof(U)));
  pacxx::detail::fill_on_device(e, 0, words * sizeof(U));
  using P = pacxx::policy::elementwise;
  pacxx::kernel(
      [](const auto &offsets_view, std::size_t segments, std::size_t n, U lo, U hi, U tile, U *e) {
        auto first = ranges::begin(offsets_view);
        using D = ranges::range_difference_t<decltype(offsets_view)>;
        U longest = 0, tiles = 0, any_warp = 0, any_block = 0;
        pacxx::detail::for_each_index<P>(segments + 1, [&](std::size_t s) {
          if (!offset_ok(first, s, segments, n)) {
            pacxx::atomic_max(e + (words - 1), ~U(s));
            return;
          }
          if (s == segments)
            return;
          const U len = U(*(first + static_cast<D>(s + 1)) - *(first + static_cast<D>(s)));
          longest = len > longest ? len : longest;
          if (len > hi)
            tiles += (len + tile - 1) / tile;
          else if (len > lo)
            any_block = 1;
          else if (len > 1)
            any_warp = 1;
          if (s == 0) {
            e[1] = U(*first);
            e[2] = U(*(first + static_cast<D>(segments)));
          }
        });
        // One atomic a warp: an atomic a segment on the one word took 126 us for 167772
        // segments of 100 (ncu, H100, 2026-11-28), longer than the sort's other launches.
        auto max = [](U a, U b) { return a > b ? a : b; };
        longest = pacxx::warp::reduce(longest, max);
        tiles = pacxx::warp::reduce(tiles, [](U a, U b) { return a + b; });
        any_warp = pacxx::warp::reduce(any_warp, max);
        any_block = pacxx::warp::reduce(any_block, max);
        if (pacxx::warp::lane() == 0) {
          if (longest > 1)
            pacxx::atomic_max(e, longest);
          if (tiles)
            pacxx::atomic_add(e + 3, tiles);
          if (any_warp)
            pacxx::atomic_max(e + 4, any_warp);
          if (any_block)
            pacxx::atomic_max(e + 5, any_block);
        }
      },
      pacxx::detail::elementwise_grid<P>(segments + 1))(offsets, segments, n, U(lo), U(hi), U(tile),
                                                        e);
  U result[words];
  pacxx::detail::copy_to_host(result, e, sizeof result);
  if (result[words - 1] != 0)
    throw bad_offset_error(name, ~result[words - 1], n);
  return {result[0], result[1], result[2], result[3], result[4], result[5]};
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

// A block of B threads a segment of more than `lower` and at most B * Items elements
// (others are left to the other paths: the block does nothing). Keys and their positions in shared
// memory; values stay in shared memory at their position until the keys are in order.
template <std::size_t B, std::size_t Items, class K, class V, bool HasValues, class KV, class VV,
          class O, class Comp>
void sort_segments_by_block(const KV &keys, const VV &values, const O &offsets,
                            std::size_t segments, std::size_t lower, Comp comp) {
  constexpr std::size_t tile = B * Items;
  pacxx::kernel(
      [comp](const auto &kv, const auto &vv, const auto &o, std::size_t lower) {
        pacxx::shared_memory<K, tile> sk;
        pacxx::shared_memory<unsigned, tile> sp;
        pacxx::shared_memory<V, HasValues ? tile : 1> sv;
        using DO = ranges::range_difference_t<decltype(o)>;
        using DK = ranges::range_difference_t<decltype(kv)>;
        using DV = ranges::range_difference_t<decltype(vv)>;
        const std::size_t l = pacxx::Thread::get().local.x, s = pacxx::Block::get().index.x;
        const std::size_t begin = static_cast<std::size_t>(*(ranges::begin(o) + DO(s)));
        std::size_t len = static_cast<std::size_t>(*(ranges::begin(o) + DO(s + 1))) - begin;
        if (len > tile || len <= lower)
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
      pacxx::launch_config{{segments}, {B}})(keys, values, offsets, lower);
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
// clocks, 2026-11-28; CUB's small-segment kernel 142 us); these 160 us.
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

// Long segments, radix keys with std::less / std::greater: an LSD radix sort whose passes
// scatter within each segment, so no pass over segment ids is needed. The old path (two
// global radix sorts of positions, by key and then by segment, with a binary search per
// element for its segment, a gather and a copy back) took 5.6 ms for 2^26 u32 keys in
// segments of 100000 (ncu, H200, base clocks): 963 us of it the segment search at
// random positions, 1216 us the sort by segment; CUB's one block a segment 3494 us.
//
// Each long segment is cut into tiles of B * I elements that never straddle segments
// (the last one of a segment partial); tile_start[s] is the exclusive scan of the
// segments' tile counts, tile_seg[g] the segment of tile g, and segment s takes
// elements tile_start[s] * tile .. of the ping-pong buffers. A pass over one 8-bit
// digit is three launches: every tile counts its digits into counts[tile_start[s] *
// 256 + d * tiles(s) + t] ([segment][digit][tile of the segment]), one exclusive scan of
// the whole array gives every (segment, digit, tile) its place relative to the scanned
// (s, 0, 0), and every tile ranks its keys stably (pacxx/block/block_radix_rank.hpp, as
// onesweep_tile) and scatters them within its segment. The first pass reads the user's
// range, the last writes it (a one-pass sort copies back).
template <class T> struct long_buffer {
  T *p;
};
// The element of a tile's region: in a buffer at buf, in the user's range at seg.
template <class T> T *long_at(const long_buffer<T> &b, std::size_t, std::size_t buf) {
  return b.p + buf;
}
template <class View>
auto long_at(const View &v, std::size_t seg, std::size_t) -> decltype(ranges::begin(v)) {
  return ranges::begin(v) + static_cast<ranges::range_difference_t<View>>(seg);
}

// The largest power of two items a thread, at most `items`, whose staged tile (`bytes` an
// item) fits `limit` bytes of shared memory (0: none).
constexpr std::size_t long_items_for(std::size_t bytes, std::size_t block, std::size_t items,
                                     std::size_t limit) {
  return items == 0
             ? 0
             : (bytes * block * items <= limit ? items
                                               : long_items_for(bytes, block, items / 2, limit));
}
template <class K, class V, bool HasValues> struct long_tiles {
  using P = pacxx::policy::segmented_sort;
  static constexpr std::size_t value_bytes = HasValues ? sizeof(V) : 0;
  static constexpr std::size_t kv_bytes = sizeof(K) > value_bytes ? sizeof(K) : value_bytes;
  static constexpr std::size_t bytes = kv_bytes > sizeof(unsigned) ? kv_bytes : sizeof(unsigned);
  static constexpr std::size_t block = P::long_block;
  static constexpr std::size_t items =
      long_items_for(bytes, block, P::long_items, P::long_stage_bytes);
  static constexpr std::size_t tile = block * items;
};

// Where tile g is: its segment's first element in the user's range (seg) and in the
// buffers (buf), its index t among the segment's `tiles`, its valid elements, and where
// the segment's counters start.
struct long_tile_place {
  std::size_t seg, buf, counts;
  unsigned t, tiles, valid;
};
template <std::size_t Tile, class O>
long_tile_place long_place(const O &o, const unsigned *tile_seg, const unsigned *tile_start,
                           std::size_t g) {
  using DO = ranges::range_difference_t<O>;
  const unsigned s = tile_seg[g], ts = tile_start[s];
  long_tile_place p;
  p.seg = static_cast<std::size_t>(*(ranges::begin(o) + DO(s)));
  const std::size_t len = static_cast<std::size_t>(*(ranges::begin(o) + DO(s + 1))) - p.seg;
  p.buf = std::size_t(ts) * Tile;
  p.counts = std::size_t(ts) * pacxx::agent::radix_digits;
  p.t = static_cast<unsigned>(g - ts);
  p.tiles = tile_start[s + 1] - ts;
  const std::size_t rest = len - std::size_t(p.t) * Tile;
  p.valid = static_cast<unsigned>(rest < Tile ? rest : Tile);
  return p;
}

// Pass (a): every tile's count of each digit, in shared memory, to counts.
template <class LT, class K, bool Descending, class In, class O>
void long_tile_counts(const In &in, const O &offsets, const unsigned *tile_seg,
                      const unsigned *tile_start, unsigned *counts, std::size_t tiles,
                      unsigned shift) {
  using pacxx::agent::radix_digits;
  pacxx::kernel(
      [](const auto &in, const auto &o, const unsigned *tile_seg, const unsigned *tile_start,
         unsigned *counts, unsigned shift) {
        constexpr std::size_t B = LT::block, I = LT::items, T = LT::tile;
        pacxx::shared_memory<unsigned, radix_digits> c;
        const unsigned l = static_cast<unsigned>(pacxx::Thread::get().local.x);
        const long_tile_place p =
            long_place<T>(o, tile_seg, tile_start, pacxx::Block::get().index.x);
        for (unsigned d = l; d < radix_digits; d += unsigned(B))
          c[d] = 0;
        pacxx::barrier();
        const pacxx::agent::radix_digit<K, Descending> digit_of{shift, radix_digits - 1};
        const auto src = long_at(in, p.seg + std::size_t(p.t) * T, p.buf + std::size_t(p.t) * T);
#pragma unroll
        for (unsigned k = 0; k < I; ++k) {
          const unsigned i = k * unsigned(B) + l;
          if (i < p.valid)
            pacxx::atomic_add(c.data() + digit_of(*(src + std::ptrdiff_t(i))), 1u);
        }
        pacxx::barrier();
        for (unsigned d = l; d < radix_digits; d += unsigned(B))
          counts[p.counts + std::size_t(d) * p.tiles + p.t] = c[d];
      },
      pacxx::launch_config{{tiles}, {LT::block}})(in, offsets, tile_seg, tile_start, counts, shift);
}

// Pass (c): every tile ranks its keys stably by the digit and writes them (and their
// values) to their places within the segment: scanned[s][d][t] - scanned[s][0][0] plus
// the key's rank among the tile's keys of digit d. 32-bit places (a segment is shorter
// than 2^32; the scan may wrap, the differences do not).
template <class LT, class K, class V, bool HasValues, bool Descending, class KI, class KO, class VI,
          class VO, class O>
void long_tile_scatter(const KI &kin, const KO &kout, const VI &vin, const VO &vout,
                       const O &offsets, const unsigned *tile_seg, const unsigned *tile_start,
                       const unsigned *scanned, std::size_t tiles, unsigned shift) {
  using pacxx::agent::radix_digits;
  pacxx::kernel(
      [](const auto &kin, const auto &kout, const auto &vin, const auto &vout, const auto &o,
         const unsigned *tile_seg, const unsigned *tile_start, const unsigned *scanned,
         unsigned shift) {
        constexpr std::size_t B = LT::block, I = LT::items, T = LT::tile;
        using rank_t = pacxx::block_radix_rank<B, I, pacxx::agent::radix_bits>;
        rank_t ranker;
        pacxx::digit_sum<B> sum;
        pacxx::shared_memory<unsigned, radix_digits> offset;
        pacxx::shared_memory<unsigned long long, (T * LT::bytes + 7) / 8> stage;
        const unsigned l = static_cast<unsigned>(pacxx::Thread::get().local.x);
        const long_tile_place p =
            long_place<T>(o, tile_seg, tile_start, pacxx::Block::get().index.x);
        const pacxx::agent::radix_digit<K, Descending> digit_of{shift, radix_digits - 1};
        const std::size_t first = std::size_t(p.t) * T;
        const auto ki = long_at(kin, p.seg + first, p.buf + first);
        // Items past the segment's end take keys whose every radix bit sorts last, so they
        // rank after every key of the tile (as onesweep_tile).
        using U = typename pacxx::agent::radix_key<K>::bits_type;
        const K past_end = pacxx::agent::radix_key<K>::from_bits(Descending ? U(0) : U(~U(0)));
        K keys[I];
#pragma unroll
        for (unsigned k = 0; k < I; ++k) {
          const unsigned at = static_cast<unsigned>(rank_t::position(l, k));
          keys[k] = at < p.valid ? *(ki + std::ptrdiff_t(at)) : past_end;
        }
        auto digit = [&](std::size_t k) -> unsigned { return digit_of(keys[k]); };
        unsigned start = 0; // thread d: digit d's start in the tile
        auto scan_digits = [&](unsigned c) -> unsigned {
          start = sum(c);
          return start;
        };
        unsigned rank[I];
        // The stage is free until the keys are staged: the rank may use it (OpenCL).
        ranker.rank(digit, rank, scan_digits, reinterpret_cast<unsigned *>(stage.data()));
        K *staged = reinterpret_cast<K *>(stage.data());
#pragma unroll
        for (unsigned k = 0; k < I; ++k)
          staged[rank[k]] = keys[k];
        if (l < radix_digits)
          offset[l] =
              scanned[p.counts + std::size_t(l) * p.tiles + p.t] - scanned[p.counts] - start;
        pacxx::barrier();
        // From the stage in sorted order, a block-width apart: a run of one digit goes to
        // consecutive addresses.
        const auto ko = long_at(kout, p.seg, p.buf);
        unsigned dest[I];
#pragma unroll
        for (unsigned k = 0; k < I; ++k) {
          const unsigned i = k * unsigned(B) + l;
          const K key = staged[i];
          dest[k] = offset[digit_of(key)] + i;
          if (i < p.valid)
            *(ko + std::ptrdiff_t(dest[k])) = key;
        }
        if (HasValues) {
          // Values loaded in the keys' tile order straight into the stage at the keys' ranks
          // (no array of values in registers: for 24-byte values it went to local memory,
          // 96 bytes of stack, ptxas sm_90), stored to the keys' places.
          const auto vi = long_at(vin, p.seg + first, p.buf + first);
          const auto vo = long_at(vout, p.seg, p.buf);
          V *staged_values = reinterpret_cast<V *>(stage.data());
          pacxx::barrier(); // every key is read from the stage
#pragma unroll
          for (unsigned k = 0; k < I; ++k) {
            const unsigned at = static_cast<unsigned>(rank_t::position(l, k));
            if (at < p.valid)
              staged_values[rank[k]] = *(vi + std::ptrdiff_t(at));
          }
          pacxx::barrier();
#pragma unroll
          for (unsigned k = 0; k < I; ++k) {
            const unsigned i = k * unsigned(B) + l;
            if (i < p.valid)
              *(vo + std::ptrdiff_t(dest[k])) = staged_values[i];
          }
        }
      },
      pacxx::launch_config{{tiles}, {LT::block}})(kin, kout, vin, vout, offsets, tile_seg,
                                                  tile_start, scanned, shift);
}

// A one-pass sort (8-bit keys): the buffers back to the user's range.
template <class LT, bool HasValues, class K, class V, class KV, class VV, class O>
void long_tile_copy_back(const long_buffer<K> &kb, const long_buffer<V> &vb, const KV &keys,
                         const VV &values, const O &offsets, const unsigned *tile_seg,
                         const unsigned *tile_start, std::size_t tiles) {
  pacxx::kernel(
      [](const auto &kb, const auto &vb, const auto &kv, const auto &vv, const auto &o,
         const unsigned *tile_seg, const unsigned *tile_start) {
        constexpr std::size_t B = LT::block, I = LT::items, T = LT::tile;
        const unsigned l = static_cast<unsigned>(pacxx::Thread::get().local.x);
        const long_tile_place p =
            long_place<T>(o, tile_seg, tile_start, pacxx::Block::get().index.x);
        const std::size_t first = std::size_t(p.t) * T;
        const auto kf = long_at(kb, 0, p.buf + first);
        const auto kt = long_at(kv, p.seg + first, 0);
        const auto vf = long_at(vb, 0, p.buf + first);
        const auto vt = long_at(vv, p.seg + first, 0);
        for (unsigned k = 0; k < I; ++k) {
          const unsigned i = k * unsigned(B) + l;
          if (i < p.valid) {
            *(kt + std::ptrdiff_t(i)) = *(kf + std::ptrdiff_t(i));
            if (HasValues)
              *(vt + std::ptrdiff_t(i)) = *(vf + std::ptrdiff_t(i));
          }
        }
      },
      pacxx::launch_config{{tiles}, {LT::block}})(kb, vb, keys, values, offsets, tile_seg,
                                                  tile_start);
}

// Sorts the segments longer than `hi` (e.long_tiles tiles in all) by the tile radix sort.
template <class K, class V, bool HasValues, bool Descending, class KV, class VV, class O>
void radix_sort_long_segments(const KV &keys, const VV &values, const O &offsets,
                              std::size_t segments, std::size_t hi, std::size_t total) {
  using LT = long_tiles<K, V, HasValues>;
  using P = pacxx::policy::elementwise;
  constexpr std::size_t T = LT::tile;
  using pacxx::agent::radix_digits;
  // The tiles: counts per segment, scanned in place, then each segment's tiles listed.
  vector<unsigned> tile_start(segments + 1), tile_seg(total);
  pacxx::kernel(
      [](const auto &o, std::size_t segments, std::size_t hi, unsigned *tile_start) {
        using DO = ranges::range_difference_t<decltype(o)>;
        pacxx::detail::for_each_index<P>(segments + 1, [&](std::size_t s) {
          std::size_t len = 0;
          if (s < segments)
            len = static_cast<std::size_t>(*(ranges::begin(o) + DO(s + 1)) -
                                           *(ranges::begin(o) + DO(s)));
          tile_start[s] = len > hi ? static_cast<unsigned>((len + T - 1) / T) : 0u;
        });
      },
      pacxx::detail::elementwise_grid<P>(segments + 1))(offsets, segments, hi, tile_start.data());
  gpu::exclusive_scan(tile_start, tile_start, 0u);
  pacxx::kernel(
      [](std::size_t segments, const unsigned *tile_start, unsigned *tile_seg) {
        pacxx::detail::for_each_index<P>(segments, [&](std::size_t s) {
          for (unsigned g = tile_start[s]; g < tile_start[s + 1]; ++g)
            tile_seg[g] = static_cast<unsigned>(s);
        });
      },
      pacxx::detail::elementwise_grid<P>(segments))(segments, tile_start.data(), tile_seg.data());

  constexpr unsigned passes = sizeof(typename pacxx::agent::radix_key<K>::bits_type);
  vector<unsigned> counts(total * radix_digits);
  vector<K> ka(total * T), kb(passes > 2 ? total * T : 0);
  vector<V> va(HasValues ? total * T : 0), vb(HasValues && passes > 2 ? total * T : 0);
  const long_buffer<K> bk[2] = {{ka.data()}, {kb.data()}};
  const long_buffer<V> bv[2] = {{va.data()}, {vb.data()}};
  const unsigned *ts = tile_start.data(), *tg = tile_seg.data();
  auto scan = [&] { gpu::exclusive_scan(counts, counts, 0u); };
  long_tile_counts<LT, K, Descending>(keys, offsets, tg, ts, counts.data(), total, 0);
  scan();
  long_tile_scatter<LT, K, V, HasValues, Descending>(keys, bk[0], values, bv[0], offsets, tg, ts,
                                                     counts.data(), total, 0);
  for (unsigned p = 1; p + 1 < passes; ++p) {
    const unsigned shift = p * pacxx::agent::radix_bits;
    const long_buffer<K> &from = bk[(p - 1) % 2], &to = bk[p % 2];
    long_tile_counts<LT, K, Descending>(from, offsets, tg, ts, counts.data(), total, shift);
    scan();
    long_tile_scatter<LT, K, V, HasValues, Descending>(
        from, to, bv[(p - 1) % 2], bv[p % 2], offsets, tg, ts, counts.data(), total, shift);
  }
  if (passes > 1) {
    const unsigned p = passes - 1, shift = p * pacxx::agent::radix_bits;
    const long_buffer<K> &from = bk[(p - 1) % 2];
    long_tile_counts<LT, K, Descending>(from, offsets, tg, ts, counts.data(), total, shift);
    scan();
    long_tile_scatter<LT, K, V, HasValues, Descending>(from, keys, bv[(p - 1) % 2], values, offsets,
                                                       tg, ts, counts.data(), total, shift);
  } else {
    long_tile_copy_back<LT, HasValues>(bk[0], bv[0], keys, values, offsets, tg, ts, total);
  }
}

// Radix keys in the order of their radix bits (Order: radix_order_t, 1 ascending, 2
// descending): the order of the warp kernel's packed words, the long path and gpu::sort
// (see the header on NaNs). Device code.
template <class K, int Order> struct radix_bits_order {
  bool operator()(const K &a, const K &b) const {
    using R = pacxx::agent::radix_key<K>;
    return Order == 1 ? R::bits(a) < R::bits(b) : R::bits(b) < R::bits(a);
  }
};
// The comparator the block kernel sorts by: comp itself, or for a radix order the radix
// bits' order.
template <class K, class Comp> Comp block_order(Comp comp, std::integral_constant<int, 0>) {
  return comp;
}
template <class K, class Comp, int Order>
radix_bits_order<K, Order> block_order(Comp, std::integral_constant<int, Order>) {
  return {};
}

// sort_segments_by_block with tiles of Tile elements where they fit the shared memory
// (returns Tile: the segments up to that long are sorted), else nothing (returns 0).
template <std::size_t B, std::size_t Tile, class K, class V, bool HasValues, class KV, class VV,
          class O, class Comp>
std::size_t sort_by_blocks(const KV &keys, const VV &values, const O &offsets, std::size_t segments,
                           std::size_t lower, Comp comp, std::true_type /*fits*/) {
  sort_segments_by_block<B, Tile / B, K, V, HasValues>(
      keys, values, offsets, segments, lower, block_order<K>(comp, radix_order_t<Comp, K>{}));
  return Tile;
}
template <std::size_t B, std::size_t Tile, class K, class V, bool HasValues, class KV, class VV,
          class O, class Comp>
std::size_t sort_by_blocks(const KV &, const VV &, const O &, std::size_t, std::size_t, Comp,
                           std::false_type) {
  return 0;
}

// The long segments by the tile radix sort where the keys and the order allow it
// (Order: radix_order_t), else by the global merge sort.
template <class K, class V, bool HasValues, class KV, class VV, class O, class Comp>
void sort_long_segments(const KV &keys, const VV &values, const O &offsets, std::size_t segments,
                        std::size_t n, std::size_t hi, const segment_extent &, Comp comp,
                        std::integral_constant<int, 0>) {
  sort_long_segments<K, V, HasValues>(keys, values, offsets, segments, n, hi, comp);
}
template <class K, class V, bool HasValues, class KV, class VV, class O, class Comp, int Order>
void sort_long_segments(const KV &keys, const VV &values, const O &offsets, std::size_t segments,
                        std::size_t n, std::size_t hi, const segment_extent &e, Comp comp,
                        std::integral_constant<int, Order>) {
  using LT = long_tiles<K, V, HasValues>;
  if (LT::items != 0 && e.longest <= 0xffffffffull && segments < 0xffffffffull &&
      e.long_tiles * pacxx::agent::radix_digits <= 0xffffffffull)
    radix_sort_long_segments<K, V, HasValues, Order == 2>(keys, values, offsets, segments, hi,
                                                          e.long_tiles);
  else
    sort_long_segments<K, V, HasValues>(keys, values, offsets, segments, n, hi, comp);
}

// sort_segments_by_warp with `items` (policy::segmented_sort's warp_items or twice that)
// elements a lane and `group` lanes a segment.
template <class K, class V, bool HasValues, class KV, class VV, class O, class Comp>
void sort_segments_by_warp_items(std::size_t items, const KV &keys, const VV &values,
                                 const O &offsets, std::size_t segments, std::size_t group,
                                 Comp comp) {
  using P = pacxx::policy::segmented_sort;
  if (items == P::warp_items)
    sort_segments_by_warp<P::warp_block, P::warp_items, K, V, HasValues>(
        keys, values, offsets, segments, static_cast<unsigned>(group), comp);
  else
    sort_segments_by_warp<P::warp_block, 2 * P::warp_items, K, V, HasValues>(
        keys, values, offsets, segments, static_cast<unsigned>(group), comp);
}

template <class K, class V, bool HasValues, class KV, class VV, class O, class Comp>
void segmented_sort(const char *name, const KV &keys, const VV &values, const O &offsets,
                    std::size_t segments, std::size_t n, Comp comp) {
  using P = pacxx::policy::segmented_sort;
  static_assert(P::small_tile % P::small_block == 0 && P::medium_tile % P::medium_block == 0 &&
                    P::large_tile % P::large_block == 0,
                "policy::segmented_sort: tiles are whole multiples of their blocks");
  // Size classes, each segment sorted once: up to `warp` elements by the warp kernel,
  // up to `hi` by the block kernel with the largest tile that fits the shared memory, the
  // longer ones by the long path. Each class is launched only where a segment needs it.
  const std::size_t lanes = host_warp_size();
  constexpr std::size_t item_bytes = sizeof(K) + (HasValues ? sizeof(V) : 0);
  const std::size_t warp_items =
      item_bytes <= P::warp_items_max_bytes ? 2 * P::warp_items : P::warp_items;
  const std::size_t warp = warp_items * lanes;
  // A tile takes this many bytes of shared memory per element: the largest tiles of large
  // keys and values do not fit (their segments go to the next smaller tile that does, or
  // to the long path).
  constexpr std::size_t bytes = sizeof(K) + sizeof(unsigned) + (HasValues ? sizeof(V) : 0);
  using small_fits = std::integral_constant<bool, bytes * P::small_tile <= P::max_shared_bytes>;
  using medium_fits = std::integral_constant<bool, bytes * P::medium_tile <= P::max_shared_bytes>;
  using large_fits = std::integral_constant<bool, bytes * P::large_tile <= P::max_shared_bytes>;
  constexpr std::size_t block_tile = large_fits::value    ? P::large_tile
                                     : medium_fits::value ? P::medium_tile
                                     : small_fits::value  ? P::small_tile
                                                          : 0;
  const std::size_t hi = block_tile > warp ? block_tile : warp;
  const segment_extent e = checked_segment_extent(name, offsets, segments, n, warp, hi,
                                                  long_tiles<K, V, HasValues>::tile);
  const unsigned long long longest = e.longest;
  if (longest <= 1)
    return;
  if (longest <= warp) {
    // The fewest items a lane and lanes a segment the longest needs: 16 items a lane for
    // every packed network beyond 8 elements (fewer lanes a segment, so fewer shuffles)
    // was slower: 1045 against 815 us for 2^26 keys in segments of 100 (H100, 2026-11-28),
    // and for the keys-only 32-bit words too: 215 against 174 us at 2^24, 748 against 585
    // at 2^26 (H200, 2026-11-28).
    const std::size_t items = longest <= P::warp_items * lanes ? P::warp_items : 2 * P::warp_items;
    std::size_t group = 1;
    while (group * items < longest)
      group *= 2;
    sort_segments_by_warp_items<K, V, HasValues>(items, keys, values, offsets, segments, group,
                                                 comp);
    return;
  }
  if (longest <= hi) {
    // No long segments: the smallest tile the longest fits, every segment in it (a block
    // each; short segments too, as many blocks as segments either way).
    if (longest <= P::small_tile && small_fits::value)
      sort_by_blocks<P::small_block, P::small_tile, K, V, HasValues>(
          keys, values, offsets, segments, 0, comp, small_fits{});
    else if (longest <= P::medium_tile && medium_fits::value)
      sort_by_blocks<P::medium_block, P::medium_tile, K, V, HasValues>(
          keys, values, offsets, segments, 0, comp, medium_fits{});
    else
      sort_by_blocks<P::large_block, P::large_tile, K, V, HasValues>(
          keys, values, offsets, segments, 0, comp, large_fits{});
    return;
  }
  // Long segments: the short ones by the warp kernel (a whole warp's lanes a segment),
  // the middle ones by the largest block tile, the long ones by the long path. Before,
  // the block kernel sorted every short segment and the long path all of offsets[0] ..
  // offsets.back() again.
  if (e.any_warp)
    sort_segments_by_warp_items<K, V, HasValues>(warp_items, keys, values, offsets, segments, lanes,
                                                 comp);
  if (e.any_block) {
    if (large_fits::value)
      sort_by_blocks<P::large_block, P::large_tile, K, V, HasValues>(
          keys, values, offsets, segments, warp, comp, large_fits{});
    else if (medium_fits::value)
      sort_by_blocks<P::medium_block, P::medium_tile, K, V, HasValues>(
          keys, values, offsets, segments, warp, comp, medium_fits{});
    else
      sort_by_blocks<P::small_block, P::small_tile, K, V, HasValues>(
          keys, values, offsets, segments, warp, comp, small_fits{});
  }
  sort_long_segments<K, V, HasValues>(keys, values, offsets, segments, n, hi, e, comp,
                                      radix_order_t<Comp, K>{});
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
// elements outside every segment do not move. Launches: one for the offsets' check and
// the segments' size classes, then a warp's registers, a block's shared memory or (longer
// than the largest tile) a radix sort within the segments (radix keys with std::less /
// std::greater) or a merge sort (any other comparator). A bad offset is a pacxx::error,
// keys unchanged.
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
