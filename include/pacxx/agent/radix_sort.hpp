// The tile loops of the onesweep radix sort (device code; Adinets & Merrill, "Onesweep: A
// Faster Least Significant Digit Radix Sort for GPUs", 2022; CUB's
// AgentRadixSortHistogram and AgentRadixSortOnesweep):
//
//   histogram_tiles: one pass over the keys counts the digits of every radix pass at
//     once, in shared memory per block, added to the global counts at the end.
//   onesweep_tile: one pass per digit. A block takes the next tile in the order blocks
//     start, loads its keys group-striped, ranks their digits (pacxx/block/
//     block_radix_rank.hpp), publishes the tile's count of every digit and looks back
//     over the predecessors' counts of its digit (one thread per digit, packed_counts in
//     pacxx/block/lookback.hpp), so it knows where each of its digits goes in the
//     output: the digit's global offset (the exclusive sum of the histogram over the
//     digits below) plus the same digit's count in the tiles before. The keys are then
//     staged in shared memory in rank order and stored from there, a block-width apart
//     (runs of one digit go to consecutive addresses); values follow their keys.
//
// Keys are ordered by their radix bits (radix_key): unsigned integers as they are,
// signed ones with the sign bit flipped, floating point ones with the sign bit flipped
// where it is clear and every bit flipped where it is set (so negative numbers come
// first, in reverse order of their magnitude), -0.0 read as +0.0 so that the two keep
// their input order, NaNs after +inf (negative NaNs before -inf). Descending sorts
// complement the bits. Only the bits read for digits change: keys are moved as they are.
#pragma once
#include <cstddef>
#include <cstring>
#include <type_traits>

#include "pacxx/atomic.hpp"
#include "pacxx/block/block_radix_rank.hpp"
#include "pacxx/block/block_scan.hpp"
#include "pacxx/block/lookback.hpp"
#include "pacxx/shared_memory.hpp"
#include "pacxx/thread.hpp"

namespace pacxx {
namespace agent {

constexpr unsigned radix_bits = 8;
constexpr unsigned radix_digits = 1u << radix_bits;

// The unsigned bits of K in an order that sorts as K does (see above).
template <class K, class = void> struct radix_key {};
template <class K>
struct radix_key<
    K, typename std::enable_if<std::is_integral<K>::value && !std::is_same<K, bool>::value>::type> {
  using bits_type = typename std::make_unsigned<K>::type;
  static bits_type bits(K k) {
    const bits_type b = static_cast<bits_type>(k);
    return std::is_signed<K>::value ? bits_type(b ^ (bits_type(1) << (sizeof(K) * 8 - 1))) : b;
  }
  // The key whose bits are b (the inverse of bits).
  static K from_bits(bits_type b) { return static_cast<K>(bits(static_cast<K>(b))); }
};
template <class K>
struct radix_key<K, typename std::enable_if<std::is_floating_point<K>::value>::type> {
  static_assert(sizeof(K) == 4 || sizeof(K) == 8, "radix sort: float and double keys only");
  using bits_type = typename std::conditional<sizeof(K) == 4, unsigned, unsigned long long>::type;
  static bits_type bits(K k) {
    bits_type b;
    std::memcpy(&b, &k, sizeof b);
    const bits_type sign = bits_type(1) << (sizeof(K) * 8 - 1);
    if (b == sign) // -0.0 sorts as +0.0
      b = 0;
    return b ^ ((b & sign) ? ~bits_type(0) : sign);
  }
  // The key whose bits are r (the inverse of bits but for -0.0, which it never returns).
  static K from_bits(bits_type r) {
    const bits_type sign = bits_type(1) << (sizeof(K) * 8 - 1);
    const bits_type b = (r & sign) ? bits_type(r ^ sign) : bits_type(~r);
    K k;
    std::memcpy(&k, &b, sizeof k);
    return k;
  }
};
// 16-bit floating-point storage types (gpu::half, gpu::bfloat16: pacxx/half.hpp) say so by a
// member type pacxx_float16; their 16 bits are ordered as a float's 32 are.
template <class K, class = void> struct is_float16 : std::false_type {};
template <class K>
struct is_float16<K, typename std::conditional<true, void, typename K::pacxx_float16>::type>
    : std::true_type {};
template <class K> struct radix_key<K, typename std::enable_if<is_float16<K>::value>::type> {
  using bits_type = unsigned short;
  static bits_type bits(K k) {
    bits_type b;
    std::memcpy(&b, &k, sizeof b);
    const bits_type sign = 0x8000u;
    if (b == sign) // -0 sorts as +0
      b = 0;
    return bits_type(b ^ ((b & sign) ? 0xffffu : sign));
  }
  // The key whose bits are r (never -0).
  static K from_bits(bits_type r) {
    const bits_type sign = 0x8000u;
    const bits_type b = (r & sign) ? bits_type(r ^ sign) : bits_type(~r);
    K k;
    std::memcpy(&k, &b, sizeof k);
    return k;
  }
};
template <class K> struct is_radix_key {
  static constexpr bool value = (std::is_integral<K>::value && !std::is_same<K, bool>::value) ||
                                std::is_same<K, float>::value || std::is_same<K, double>::value ||
                                is_float16<K>::value;
};

// The digit of k at bit `shift` (mask: the digit's bits), ascending or descending.
template <class K, bool Descending> struct radix_digit {
  using U = typename radix_key<K>::bits_type;
  unsigned shift, mask;
  unsigned operator()(K k) const {
    U b = radix_key<K>::bits(k);
    if (Descending)
      b = U(~b);
    return static_cast<unsigned>(b >> shift) & mask;
  }
};

// No values (a sort of keys only).
struct no_values {};

// Counts digits of every pass: hist[p * radix_digits + d] += the keys of the grid's tiles
// whose digit of pass p is d (passes of radix_bits from begin_bit, the last one ending at
// end_bit). hist must be zero before the launch. P: block, items.
template <class P, class K, bool Descending>
__attribute__((always_inline)) inline void
histogram_tiles(const K *keys, std::size_t n, unsigned begin_bit, unsigned end_bit, unsigned passes,
                unsigned long long *hist) {
  constexpr std::size_t B = P::block, max_passes = sizeof(K);
  shared_memory<unsigned, max_passes * radix_digits> counts;
  const std::size_t l = Thread::get().local.x;
  for (std::size_t i = l; i < max_passes * radix_digits; i += B)
    counts[i] = 0;
  barrier();
  radix_digit<K, Descending> digit[max_passes];
  for (unsigned p = 0; p < max_passes; ++p) {
    const unsigned shift = begin_bit + p * radix_bits;
    const unsigned width = shift < end_bit ? end_bit - shift : 0;
    digit[p] = {shift < end_bit ? shift : 0,
                width >= radix_bits ? radix_digits - 1 : (1u << width) - 1u};
  }
  auto count = [&](K k) {
    for (unsigned p = 0; p < passes; ++p)
      atomic_add(counts.data() + p * radix_digits + digit[p](k), 1u);
  };
  const std::size_t tile = B * P::items, step = Grid::get().size.x * tile;
  for (std::size_t base = Block::get().index.x * tile; base < n; base += step) {
    if (base + tile <= n) {
      K v[P::items];
      for (std::size_t k = 0; k < P::items; ++k)
        v[k] = keys[base + k * B + l];
      for (std::size_t k = 0; k < P::items; ++k)
        count(v[k]);
    } else {
      for (std::size_t k = 0; k < P::items; ++k)
        if (base + k * B + l < n)
          count(keys[base + k * B + l]);
    }
  }
  barrier();
  for (std::size_t i = l; i < passes * radix_digits; i += B)
    if (const unsigned c = counts[i])
      atomic_add(hist + i, static_cast<unsigned long long>(c));
}

// A digit's global offset (the histogram scanned over the digits) and its count in the
// tile (scanned into its start in the tile), scanned together.
struct digit_offsets {
  unsigned long long global;
  unsigned tile;
};

// The bytes of one staged item: the larger of a key and a value (none: 0).
template <class V> struct staged_size {
  static constexpr std::size_t value = sizeof(V);
};
template <> struct staged_size<no_values> {
  static constexpr std::size_t value = 0;
};

// The tile's keys, staged in shared memory in sorted order (stage[i]: the tile's i-th
// key by digit), stored from there to out[offset[digit] + i], a block-width apart (so a
// run of one digit goes to consecutive addresses). dest[k] receives where the thread's
// k-th stored item went (the values go to the same places). Offset is unsigned (32
// bits) where every index fits, so the offsets and the index arithmetic are 32-bit; an
// offset may wrap below zero (a digit's start in the tile is subtracted), which the
// unsigned sum with i undoes.
template <std::size_t B, std::size_t I, class K, class Digit, class Offset>
__attribute__((always_inline)) inline void store_keys(const K *stage, std::size_t valid, K *out,
                                                      const Offset *offset, const Digit &digit,
                                                      Offset (&dest)[I]) {
  const unsigned l = static_cast<unsigned>(Thread::get().local.x);
  const bool full = valid == B * I;
#pragma unroll
  for (unsigned k = 0; k < I; ++k) {
    const unsigned i = k * unsigned(B) + l;
    const K key = stage[i];
    dest[k] = offset[digit(key)] + Offset(i);
    if (full || i < valid)
      out[dest[k]] = key;
  }
}

// The values of the tile after their keys: loaded in the keys' order, staged at the
// keys' ranks (in the same shared memory as the keys: a barrier first), stored to the
// keys' places (dest). One code path for full and partial tiles (a partial tile's loads
// past the end read its last value instead; only the stores are checked): a separate
// partial path: 106 registers for the pairs pass, this one 96 (ptxas, sm_90, 256 x 16,
// unbounded).
template <std::size_t B, std::size_t I, class V, class Offset>
__attribute__((always_inline)) inline void
scatter_values(const V *in, V *out, std::size_t base, std::size_t valid, void *stage_memory,
               const unsigned (&rank)[I], const Offset (&dest)[I]) {
  using rank_t = block_radix_rank<B, I, radix_bits>;
  V *stage = static_cast<V *>(stage_memory);
  const unsigned l = static_cast<unsigned>(Thread::get().local.x);
  const bool full = valid == B * I;
  const unsigned last = static_cast<unsigned>(valid - 1);
  V items[I];
#pragma unroll
  for (unsigned k = 0; k < I; ++k) {
    const unsigned at = static_cast<unsigned>(rank_t::position(l, k));
    items[k] = in[base + (full || at < last ? at : last)];
  }
  barrier(); // every key is read from the stage
#pragma unroll
  for (unsigned k = 0; k < I; ++k)
    stage[rank[k]] = items[k];
  barrier();
#pragma unroll
  for (unsigned k = 0; k < I; ++k) {
    const unsigned i = k * unsigned(B) + l;
    if (full || i < valid)
      out[dest[k]] = stage[i];
  }
}
template <std::size_t B, std::size_t I, class Offset>
__attribute__((always_inline)) inline void
scatter_values(const no_values *, no_values *, std::size_t, std::size_t, void *,
               const unsigned (&)[I], const Offset (&)[I]) {}

// One tile of a radix pass over the digit at bit `shift` (`width` bits): keys
// (and values) from in to out, stably by digit. hist: this pass's digit counts over all
// keys; state: this pass's look-back counters (zero before the pass), counter: its tile
// counter (zero before); next: the next pass's look-back words, which this tile clears
// (null on the last pass).
template <class P, class K, class V, bool Descending, class Word>
__attribute__((always_inline)) inline void
onesweep_tile(const K *keys_in, K *keys_out, const V *values_in, V *values_out, std::size_t n,
              unsigned shift, unsigned width, const unsigned long long *hist,
              const packed_counts<Word> &state, unsigned *counter, Word *next) {
  constexpr std::size_t B = P::block, I = P::items, tile_size = B * I;
  constexpr std::size_t kv_bytes =
      sizeof(K) > staged_size<V>::value ? sizeof(K) : staged_size<V>::value;
  constexpr std::size_t item_bytes = kv_bytes > sizeof(unsigned) ? kv_bytes : sizeof(unsigned);
  using rank_t = block_radix_rank<B, I, radix_bits>;
  rank_t ranker;
  block_scan<digit_offsets, B> scan;
  // 32-bit offsets where the look-back's words are (n below 2^30), else 64-bit.
  using Offset = typename std::conditional<sizeof(Word) == 4, unsigned, std::size_t>::type;
  shared_memory<Offset, radix_digits> offset;
  shared_memory<unsigned long long, (tile_size * item_bytes + 7) / 8> stage;

  const std::size_t tile = tile_order(counter), base = tile * tile_size;
  const std::size_t l = Thread::get().local.x;
  const std::size_t valid = n - base < tile_size ? n - base : tile_size;
  const radix_digit<K, Descending> digit_of{shift, width >= radix_bits ? radix_digits - 1
                                                                       : (1u << width) - 1u};

  // Items past the end (the last tile's) are keys whose every radix bit sorts last, so
  // they take the last digit of every pass and rank after every key of the tile; no
  // item needs a check of its position (measured on the H100: the 20 checks held
  // predicates in registers across the rank).
  using U = typename radix_key<K>::bits_type;
  const K past_end = radix_key<K>::from_bits(Descending ? U(0) : U(~U(0)));
  K keys[I];
  if (valid == tile_size) {
#pragma unroll
    for (std::size_t k = 0; k < I; ++k)
      keys[k] = keys_in[base + rank_t::position(l, k)];
  } else {
#pragma unroll
    for (std::size_t k = 0; k < I; ++k) {
      const std::size_t at = rank_t::position(l, k);
      keys[k] = at < valid ? keys_in[base + at] : past_end;
    }
  }
  auto digit = [&](std::size_t k) -> unsigned { return digit_of(keys[k]); };
  if (next != nullptr && l < radix_digits)
    next[tile * radix_digits + l] = 0;

  // The digit counts of the tile are known inside the rank: publish them at once (tile
  // 0's are already its inclusive prefixes), and scan them together with the global
  // digit offsets.
  unsigned count = 0;
  digit_offsets mine{0, 0};
  auto scan_digits = [&](unsigned c) -> unsigned {
    count = c;
    if (l < radix_digits) {
      if (tile == 0)
        state.publish_inclusive(0, l, Word(c));
      else
        state.publish_aggregate(tile, l, Word(c));
    }
    const digit_offsets v{l < radix_digits ? hist[l] : 0ull, c};
    mine =
        scan.exclusive(v, digit_offsets{0, 0}, [](const digit_offsets &a, const digit_offsets &b) {
          return digit_offsets{a.global + b.global, a.tile + b.tile};
        });
    return mine.tile;
  };
  unsigned rank[I];
  // The stage is free until the keys are staged: the rank may use it (OpenCL).
  ranker.rank(digit, rank, scan_digits, reinterpret_cast<unsigned *>(stage.data()));
  // The keys go to the stage in sorted order now, before the look-back (CUB's order):
  // the shared stores overlap the wait for the predecessors, and the keys' registers
  // are free before it.
  K *staged_keys = reinterpret_cast<K *>(stage.data());
#pragma unroll
  for (std::size_t k = 0; k < I; ++k)
    staged_keys[rank[k]] = keys[k];

  // Where digit l of this tile goes: its global offset plus its count in the tiles
  // before (the look-back), less its start in the tile (the stores add the position in
  // the tile).
  if (l < radix_digits) {
    Word before = 0;
    if (tile != 0) {
      before = state.exclusive_prefix(tile, l);
      state.publish_inclusive(tile, l, Word(before + count));
    }
    offset[l] = static_cast<Offset>(mine.global + before - mine.tile);
  }
  barrier();
  Offset dest[I];
  store_keys<B, I>(staged_keys, valid, keys_out, offset.data(), digit_of, dest);
  scatter_values<B, I>(values_in, values_out, base, valid, stage.data(), rank, dest);
}

} // namespace agent
} // namespace pacxx
