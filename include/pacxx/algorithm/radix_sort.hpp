// The onesweep radix sort's dispatch (pacxx/agent/radix_sort.hpp has the tile loops):
// sizes the grids, lays out the scratch and launches
//   1. the clear of the digit counts and the passes' tile counters (tiny),
//   2. the histogram of every pass's digits (one read of the keys), which also clears
//      the first pass's look-back counters,
//   3. one onesweep pass per radix_bits of the bit range: keys (and values) from one
//      buffer to the other, stably by the digit; each pass clears the next one's
//      look-back counters. The look-back counters alternate between two regions.
// So a sort is 2 + passes launches: 32-bit keys 6, 64-bit keys 10; a bit range of b bits
// ceil(b / 8) passes. The passes alternate between the input and a buffer of the same
// size from the memory pool; after an odd number of passes the result is copied back (a
// device copy, not a launch), so it always ends where it started and every pointer or
// view into it stays valid. Values larger than policy::radix_sort::max_value_bytes go
// by index instead: the keys are sorted with their indices, then the values gathered
// once (two launches and a device copy more).
//
// Staging: the histogram kernel's loop over the passes (its count is staged) and each
// pass's digit width (8 but for a short last pass of a bit range) are constants to the
// JIT. Counts in the look-back travel as 32-bit words (30-bit counts) below 2^30 keys,
// as 64-bit words above.
#pragma once
#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include "pacxx/agent/radix_runs.hpp"
#include "pacxx/agent/radix_sort.hpp"
#include "pacxx/algorithm/detail/clear_tiles.hpp"
#include "pacxx/algorithm/policy.hpp"
#include "pacxx/error.hpp"
#include "pacxx/kernel.hpp"
#include "pacxx/runtime.hpp"
#include "pacxx/tune.hpp"
#include "pacxx/vector.hpp"

namespace gpu {
namespace detail {

using pacxx::agent::no_values;
using pacxx::agent::radix_bits;
using pacxx::agent::radix_digits;

template <class V> struct value_bytes {
  static constexpr std::size_t value = sizeof(V);
};
template <> struct value_bytes<no_values> {
  static constexpr std::size_t value = 0;
};

inline std::size_t align_up(std::size_t b) { return (b + 255) / 256 * 256; }

// The histogram of every pass's digits (hist: zero before), which also zeroes the
// first pass's look-back words (`words` 32-bit words at first). One kernel per key type
// and order, whatever the values.
template <class K, bool Descending>
void radix_histogram(const K *keys, std::size_t n, unsigned begin_bit, unsigned end_bit,
                     unsigned passes, unsigned long long *hist, unsigned *first,
                     std::size_t words) {
  using H = pacxx::policy::radix_histogram;
  pacxx::kernel(
      [](const K *keys, std::size_t n, unsigned begin_bit, unsigned end_bit, unsigned passes,
         unsigned long long *hist, unsigned *first, std::size_t words) {
        pacxx::agent::histogram_tiles<H, K, Descending>(keys, n, begin_bit, end_bit,
                                                        pacxx::stage(passes), hist);
        const std::size_t stride = pacxx::Grid::get().size.x * H::block;
        for (std::size_t i = pacxx::Thread::get().global.x; i < words; i += stride)
          first[i] = 0;
      },
      pacxx::detail::grid_for(pacxx::detail::ceil_div(n, H::items), H::block, H::max_blocks))(
      keys, n, begin_bit, end_bit, passes, hist, first, words);
}

// Whether policy P asks for the passes over contiguous runs (P::runs; the tuning
// spaces' radix_runs_point) instead of the onesweep passes.
template <class P, class = void> struct sorts_runs : std::false_type {};
template <class P> struct sorts_runs<P, decltype(void(P::runs))> : std::true_type {};

// The passes over contiguous runs (pacxx/agent/radix_runs.hpp): per pass the runs'
// digit counts, read back and turned into each (run, digit)'s first position on the
// host, then the scatter. Two launches a pass, the counts read back and the positions
// copied in between. Keys in keys (values in values) at the end, as radix_passes.
template <class K, class V, bool Descending, class P>
void radix_runs_passes(K *keys, K *keys_alt, V *values, V *values_alt, std::size_t n,
                       unsigned begin_bit, unsigned end_bit) {
  const unsigned passes = (end_bit - begin_bit + radix_bits - 1) / radix_bits;
  const std::size_t runs = n < P::runs ? n : P::runs, words = runs * radix_digits;
  unsigned *counts_kernel =
      static_cast<unsigned *>(pacxx::detail::scratch(2 * words * sizeof(unsigned)));
  unsigned *offsets_kernel = counts_kernel + words;
  std::vector<unsigned> counts(words), offsets(words);
  K *key_buf[2] = {keys, keys_alt};
  V *value_buf[2] = {values, values_alt};
  const pacxx::launch_config grid{{runs}, {1}};
  for (unsigned p = 0; p < passes; ++p) {
    const unsigned shift = begin_bit + p * radix_bits;
    const unsigned width = end_bit - shift < radix_bits ? end_bit - shift : radix_bits;
    const unsigned mask = width >= radix_bits ? radix_digits - 1 : (1u << width) - 1u;
    pacxx::kernel(
        [](const K *keys, std::size_t n, unsigned shift, unsigned mask, unsigned *counts) {
          pacxx::agent::run_digit_counts<K, Descending>(keys, n, shift, mask, counts);
        },
        grid)(key_buf[p % 2], n, shift, mask, counts_kernel);
    pacxx::detail::copy_to_host(counts.data(), counts_kernel, words * sizeof(unsigned));
    unsigned next = 0; // n < 2^32 (radix_passes_tuned's range)
    for (unsigned d = 0; d < radix_digits; ++d)
      for (std::size_t r = 0; r < runs; ++r) {
        offsets[r * radix_digits + d] = next;
        next += counts[r * radix_digits + d];
      }
    pacxx::detail::copy_to_device(offsets_kernel, offsets.data(), words * sizeof(unsigned));
    pacxx::kernel(
        [](const K *keys_in, K *keys_out, const V *values_in, V *values_out, std::size_t n,
           unsigned shift, unsigned mask, const unsigned *offsets) {
          pacxx::agent::run_scatter<K, V, Descending>(keys_in, keys_out, values_in, values_out, n,
                                                      shift, mask, offsets);
        },
        grid)(key_buf[p % 2], key_buf[(p + 1) % 2], value_buf[p % 2], value_buf[(p + 1) % 2], n,
              shift, mask, offsets_kernel);
  }
  if (passes % 2 == 1) {
    pacxx::detail::copy_on_device(keys, keys_alt, n * sizeof(K));
    if (value_bytes<V>::value != 0)
      pacxx::detail::copy_on_device(values, values_alt, n * value_bytes<V>::value);
  }
}

template <class K, class V, bool Descending, class Word, class P>
void radix_onesweep_passes(K *keys, K *keys_alt, V *values, V *values_alt, std::size_t n,
                           unsigned begin_bit, unsigned end_bit);
template <class K, class V, bool Descending, class Word, class P>
void radix_passes_with(K *keys, K *keys_alt, V *values, V *values_alt, std::size_t n,
                       unsigned begin_bit, unsigned end_bit, std::true_type /*runs*/) {
  static_assert(sizeof(Word) == 4, "the passes over runs count in 32 bits (below 2^30 keys)");
  radix_runs_passes<K, V, Descending, P>(keys, keys_alt, values, values_alt, n, begin_bit, end_bit);
}
template <class K, class V, bool Descending, class Word, class P>
void radix_passes_with(K *keys, K *keys_alt, V *values, V *values_alt, std::size_t n,
                       unsigned begin_bit, unsigned end_bit, std::false_type) {
  radix_onesweep_passes<K, V, Descending, Word, P>(keys, keys_alt, values, values_alt, n, begin_bit,
                                                   end_bit);
}

// The passes over keys and values with look-back words of type Word, under policy P.
template <class K, class V, bool Descending, class Word,
          class P = pacxx::policy::radix_sort_for<sizeof(K), value_bytes<V>::value, sizeof(Word)>>
void radix_passes(K *keys, K *keys_alt, V *values, V *values_alt, std::size_t n, unsigned begin_bit,
                  unsigned end_bit) {
  radix_passes_with<K, V, Descending, Word, P>(keys, keys_alt, values, values_alt, n, begin_bit,
                                               end_bit, sorts_runs<P>{});
}

// The onesweep passes (pacxx/agent/radix_sort.hpp) under policy P.
template <class K, class V, bool Descending, class Word, class P>
void radix_onesweep_passes(K *keys, K *keys_alt, V *values, V *values_alt, std::size_t n,
                           unsigned begin_bit, unsigned end_bit) {
  const unsigned passes = (end_bit - begin_bit + radix_bits - 1) / radix_bits;
  const std::size_t tiles = pacxx::detail::ceil_div(n, P::block * P::items);
  const std::size_t state_words = tiles * radix_digits;

  // Scratch: the digit counts of every pass, the passes' tile counters, then the two
  // look-back regions.
  const std::size_t hist_bytes = passes * radix_digits * sizeof(unsigned long long);
  const std::size_t counter_bytes = align_up(passes * sizeof(unsigned));
  const std::size_t state_bytes = align_up(state_words * sizeof(Word));
  char *memory =
      static_cast<char *>(pacxx::detail::scratch(hist_bytes + counter_bytes + 2 * state_bytes));
  auto *hist = reinterpret_cast<unsigned long long *>(memory);
  auto *counters = reinterpret_cast<unsigned *>(memory + hist_bytes);
  Word *region[2] = {reinterpret_cast<Word *>(memory + hist_bytes + counter_bytes),
                     reinterpret_cast<Word *>(memory + hist_bytes + counter_bytes + state_bytes)};

  clear_words(reinterpret_cast<unsigned *>(memory), (hist_bytes + passes * sizeof(unsigned)) / 4);

  radix_histogram<K, Descending>(keys, n, begin_bit, end_bit, passes, hist,
                                 reinterpret_cast<unsigned *>(region[0]),
                                 state_words * sizeof(Word) / sizeof(unsigned));

  K *key_buf[2] = {keys, keys_alt};
  V *value_buf[2] = {values, values_alt};
  for (unsigned p = 0; p < passes; ++p) {
    const unsigned shift = begin_bit + p * radix_bits;
    const unsigned width = end_bit - shift < radix_bits ? end_bit - shift : radix_bits;
    const pacxx::packed_counts<Word> state{region[p % 2], radix_digits};
    Word *next = p + 1 < passes ? region[(p + 1) % 2] : nullptr;
    pacxx::kernel(
        [](const K *keys_in, K *keys_out, const V *values_in, V *values_out, std::size_t n,
           unsigned shift, unsigned width, const unsigned long long *hist,
           const pacxx::packed_counts<Word> &state, unsigned *counter, Word *next) {
          if (P::min_blocks > 0)
            pacxx::launch_bounds(P::block, P::min_blocks);
          pacxx::agent::onesweep_tile<P, K, V, Descending, Word>(
              keys_in, keys_out, values_in, values_out, n, shift, pacxx::stage(width), hist, state,
              counter, next);
        },
        pacxx::launch_config{{tiles}, {P::block}})(
        key_buf[p % 2], key_buf[(p + 1) % 2], value_buf[p % 2], value_buf[(p + 1) % 2], n, shift,
        width, hist + p * radix_digits, state, counters + p, next);
  }
  if (passes % 2 == 1) {
    pacxx::detail::copy_on_device(keys, keys_alt, n * sizeof(K));
    if (value_bytes<V>::value != 0)
      pacxx::detail::copy_on_device(values, values_alt, n * value_bytes<V>::value);
  }
}

// The passes under the tuned policy (pacxx/tune.hpp; 32-bit look-back words, below 2^30
// keys). The passes sort in place, so a trial sorts a copy of the keys (and values).
template <class K, class V, bool Descending, class Word>
void radix_passes_tuned(K *keys, K *keys_alt, V *values, V *values_alt, std::size_t n, unsigned b,
                        unsigned e) {
  using Space = pacxx::policy::tuning::radix_space<sizeof(K), value_bytes<V>::value, sizeof(Word)>;
  const std::string family = std::string("gpu::radix_sort/") + std::to_string(sizeof(K)) + "/" +
                             std::to_string(value_bytes<V>::value) + (Descending ? "/down" : "");
  const std::size_t choice =
      pacxx::tune::choose<Space>(family, pacxx::tune::size_class(n), [&](auto policy) {
        vector<K> k(n);
        vector<typename std::conditional<value_bytes<V>::value == 0, char, V>::type> v(
            value_bytes<V>::value == 0 ? 0 : n);
        pacxx::detail::copy_on_device(k.data(), keys, n * sizeof(K));
        if (value_bytes<V>::value != 0)
          pacxx::detail::copy_on_device(v.data(), values, n * value_bytes<V>::value);
        radix_passes<K, V, Descending, Word, decltype(policy)>(
            k.data(), keys_alt, reinterpret_cast<V *>(v.data()), values_alt, n, b, e);
      });
  pacxx::tune::invoke<Space>(choice, [&](auto policy) {
    radix_passes<K, V, Descending, Word, decltype(policy)>(keys, keys_alt, values, values_alt, n, b,
                                                           e);
  });
}

// Moves the keys (and values) through the passes: the body of radix_sort.
template <class K, class V, bool Descending>
void radix_sort_moving(K *keys, V *values, std::size_t n, unsigned b, unsigned e) {
  vector<K> keys_alt(n);
  // No values: a null buffer (a vector of no_values would allocate n bytes).
  vector<typename std::conditional<value_bytes<V>::value == 0, char, V>::type> values_alt(
      value_bytes<V>::value == 0 ? 0 : n);
  V *alt = reinterpret_cast<V *>(values_alt.data());
  if (n <= pacxx::packed_counts<unsigned>::max_count)
    radix_passes_tuned<K, V, Descending, unsigned>(keys, keys_alt.data(), values, alt, n, b, e);
  else
    radix_passes<K, V, Descending, unsigned long long>(keys, keys_alt.data(), values, alt, n, b, e);
}

// Values larger than policy::radix_sort::max_value_bytes: the keys are sorted with
// their indices (Index: 32 bits where n allows), then the values are gathered in that
// order into a buffer and copied back; three launches and a device copy more than
// moving them, but the passes' stage holds 4- or 8-byte indices instead.
template <class Index, class K, class V, bool Descending>
void radix_sort_by_index(K *keys, V *values, std::size_t n, unsigned b, unsigned e) {
  using P = pacxx::policy::elementwise;
  vector<Index> index(n);
  pacxx::kernel(
      [](Index *index, std::size_t n) {
        pacxx::detail::for_each_index<P>(n, [&](std::size_t i) { index[i] = Index(i); });
      },
      pacxx::detail::elementwise_grid<P>(n))(index.data(), n);
  radix_sort_moving<K, Index, Descending>(keys, index.data(), n, b, e);
  vector<V> gathered(n);
  pacxx::kernel(
      [](const V *values, const Index *index, V *out, std::size_t n) {
        pacxx::detail::for_each_index<P>(n, [&](std::size_t i) { out[i] = values[index[i]]; });
      },
      pacxx::detail::elementwise_grid<P>(n))(values, index.data(), gathered.data(), n);
  pacxx::detail::copy_on_device(values, gathered.data(), n * sizeof(V));
}

template <class K, class V, bool Descending>
void radix_sort_values(K *keys, V *values, std::size_t n, unsigned b, unsigned e,
                       std::true_type /* moved through the passes */) {
  radix_sort_moving<K, V, Descending>(keys, values, n, b, e);
}
template <class K, class V, bool Descending>
void radix_sort_values(K *keys, V *values, std::size_t n, unsigned b, unsigned e,
                       std::false_type /* sorted by index */) {
  if (n <= 0xffffffffull)
    radix_sort_by_index<unsigned, K, V, Descending>(keys, values, n, b, e);
  else
    radix_sort_by_index<unsigned long long, K, V, Descending>(keys, values, n, b, e);
}

// Sorts n keys (and their values; V = no_values: none) stably by bits [begin_bit,
// end_bit) of their radix order, in place (buffers from the pool alternate with them).
template <class K, class V, bool Descending>
void radix_sort(const char *name, K *keys, V *values, std::size_t n, int begin_bit, int end_bit) {
  static_assert(pacxx::agent::is_radix_key<K>::value,
                "gpu radix sort: keys must be integers, float or double");
  if (begin_bit < 0 || end_bit > int(sizeof(K) * 8) || begin_bit > end_bit)
    throw pacxx::error(std::string(name) + ": the bit range [" + std::to_string(begin_bit) + ", " +
                       std::to_string(end_bit) + ") is not within the key's " +
                       std::to_string(sizeof(K) * 8) + " bits");
  if (n <= 1 || begin_bit == end_bit)
    return;
  radix_sort_values<K, V, Descending>(
      keys, values, n, unsigned(begin_bit), unsigned(end_bit),
      std::integral_constant<bool, value_bytes<V>::value <=
                                       pacxx::policy::radix_sort::max_value_bytes>{});
}

} // namespace detail
} // namespace gpu
