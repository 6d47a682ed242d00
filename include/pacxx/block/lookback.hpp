// Decoupled look-back (Merrill & Garland, "Single-pass Parallel Prefix Scan with
// Decoupled Look-back", 2016): how one pass over the data carries a prefix from tile to
// tile. Each tile publishes its aggregate as soon as it is known, and its inclusive
// prefix once it has one; a tile finds its exclusive prefix by walking back over its
// predecessors, folding aggregates until it meets an inclusive prefix. Scans, stream
// compaction, reduce by key and the radix sort's digit offsets all stand on it.
//
// Tiles are numbered in the order blocks start (pacxx::tile_order: the block index on
// CUDA, which starts blocks in index order; a counter elsewhere), so a tile only ever
// waits for tiles whose blocks are already running: the walk can not deadlock however
// the device schedules blocks (PoCL runs work-groups on a few CPU threads in any order).
//
// Memory: tile_state<T>::bytes(tiles) of device memory, cleared by clear() before every
// pass (a tiny kernel; the dispatch launches it).
//
// Determinism: the walk stops at whichever inclusive prefix it meets first, so the order
// in which lookback_prefix combines the tiles' values depends on timing. Exact for
// integers (copy_if's counts, the radix sort's digit counts); a float sum may differ in
// its last bits from run to run. ordered_lookback_prefix (gpu::deterministic scans)
// combines them in one fixed order.
#pragma once
#include <cstddef>
#include <cstring>

#include "pacxx/atomic.hpp"
#include "pacxx/block/warp.hpp"
#include "pacxx/shared_memory.hpp"
#include "pacxx/thread.hpp"

namespace pacxx {

namespace detail {
// T as whole 32-bit words: each word is read and written with a volatile access (which
// no cache of another multiprocessor serves stale), and the slot never shares a word
// with a neighbour.
template <class T> using word_slot = warp::detail::words<T>;

template <class T> inline void store_volatile(word_slot<T> *p, const T &v) {
  word_slot<T> w;
  std::memset(&w, 0, sizeof w);
  std::memcpy(&w, &v, sizeof(T));
  volatile unsigned *q = p->w;
  for (std::size_t k = 0; k < word_slot<T>::count; ++k)
    q[k] = w.w[k];
}
template <class T> inline T load_volatile(const word_slot<T> *p) {
  word_slot<T> w;
  const volatile unsigned *q = p->w;
  for (std::size_t k = 0; k < word_slot<T>::count; ++k)
    w.w[k] = q[k];
  return warp::detail::from_bytes<T>(&w);
}
inline unsigned load_volatile(const unsigned *p) {
  return *static_cast<const volatile unsigned *>(p);
}
inline void store_volatile(unsigned *p, unsigned v) { *static_cast<volatile unsigned *>(p) = v; }
} // namespace detail

// The published state of every tile of one pass. Values of at most 4 bytes travel with
// their status in one 64-bit word (one volatile store publishes both, so a reader never
// needs a fence: CUB's ScanTileState for primitive types). Values of 5 to 8 bytes travel
// with their status in one 16-byte pair, read and written with one 128-bit access on
// CUDA (CUB's ScanTileState for 8-byte values); OpenCL does not promise that a 16-byte
// access is one access, so there, and for larger values, the value sits in its own slot
// (one for the aggregate, one for the prefix, so that publishing the prefix never
// changes a value a reader has just been told is the aggregate), published value first,
// fence, then status.
template <class T> struct tile_state {
  // A tile's status: nothing published, its aggregate, or its inclusive prefix.
  enum : unsigned { empty = 0, has_aggregate = 1, has_prefix = 2 };
  static constexpr bool packed = sizeof(T) <= 4; // value and status in one 64-bit word
  // Value and status in one 16-byte pair.
  static constexpr bool paired = sizeof(T) > 4 && sizeof(T) <= 8;
  // The bytes a packed word or a pair carries (the packed and paired branches are
  // compiled for every T, C++14 has no if constexpr: a size that never exceeds either
  // side keeps them in bounds).
  static constexpr std::size_t packed_bytes = sizeof(T) < 4 ? sizeof(T) : 4;
  // The bytes of a value in a pair.
  static constexpr std::size_t pair_bytes = sizeof(T) < 8 ? sizeof(T) : 8;
  typedef unsigned long long pair_word __attribute__((vector_size(16))); // {status, value}

  unsigned *counter;               // tiles handed out so far (tile_order)
  unsigned long long *words;       // packed: per tile, value << 32 | status
  pair_word *pairs;                // paired: per tile, {status, value}
  unsigned *status;                // otherwise: per tile, the status
  detail::word_slot<T> *aggregate; // otherwise: per tile, the aggregate
  detail::word_slot<T> *inclusive; // otherwise: per tile, the inclusive prefix

  // Host: the device memory for `tiles` tiles, and the state laid out in it: 16 bytes of
  // counter, the status words (or pairs), then the value slots where they are used.
  static std::size_t bytes(std::size_t tiles) {
    return 16 + status_bytes(tiles) + (packed ? 0 : 2 * tiles * sizeof(detail::word_slot<T>));
  }
  // Host: the state of `tiles` tiles laid out in memory (bytes(tiles) of device memory).
  static tile_state at(void *memory, std::size_t tiles) {
    char *p = static_cast<char *>(memory);
    tile_state s;
    s.counter = reinterpret_cast<unsigned *>(p);
    s.words = reinterpret_cast<unsigned long long *>(p + 16);
    s.pairs = reinterpret_cast<pair_word *>(p + 16);
    s.status = reinterpret_cast<unsigned *>(p + 16);
    s.aggregate = reinterpret_cast<detail::word_slot<T> *>(p + 16 + status_bytes(tiles));
    s.inclusive = s.aggregate + tiles;
    if (packed)
      s.aggregate = s.inclusive = nullptr;
    return s;
  }

  // Host: how many 32-bit words from `counter` on hold the counter and every status (a
  // pass is ready once they are zero; a type-independent clear kernel may zero them).
  static std::size_t clear_words(std::size_t tiles) { return (16 + status_bytes(tiles)) / 4; }

  // Device: clears entry i of [0, tiles]: the status of tile i, or (i == tiles) the
  // counter.
  void clear(std::size_t i, std::size_t tiles) const {
    if (i == tiles)
      *counter = 0;
    else if (packed)
      words[i] = 0;
    else
      *status_word(i) = empty;
  }

  // Device: publishes v as tile's aggregate.
  void publish_aggregate(std::size_t tile, const T &v) const { publish(tile, v, has_aggregate); }
  // Device: publishes v as tile's inclusive prefix.
  void publish_inclusive(std::size_t tile, const T &v) const { publish(tile, v, has_prefix); }

  // The status of `tile` and, unless empty, its value (the inclusive prefix if it has
  // one, else the aggregate). Never waits.
  unsigned peek(std::size_t tile, T &value) const {
    if (packed) {
      const unsigned long long w = *static_cast<const volatile unsigned long long *>(words + tile);
      const unsigned bits = static_cast<unsigned>(w >> 32);
      std::memcpy(&value, &bits, packed_bytes);
      return static_cast<unsigned>(w) & 3u;
    }
    if (paired && one_access_pairs()) {
      const pair_word w = *static_cast<const volatile pair_word *>(pairs + tile);
      const unsigned long long bits = w[1];
      std::memcpy(&value, &bits, pair_bytes);
      return static_cast<unsigned>(w[0]) & 3u;
    }
    const unsigned st = detail::load_volatile(status_word(tile));
    if (st != empty) {
      thread_fence(); // the flag before the value it announces
      value = detail::load_volatile(st == has_prefix ? inclusive + tile : aggregate + tile);
    }
    return st;
  }

private:
  static std::size_t status_bytes(std::size_t tiles) {
    return packed   ? sizeof(unsigned long long) * tiles
           : paired ? sizeof(pair_word) * tiles
                    : align(sizeof(unsigned) * tiles);
  }
  // Whether a 16-byte pair is read and written with one access: on CUDA (the only
  // target whose warps are wider than one work-item; a constant after the JIT).
  static bool one_access_pairs() { return warp::size() > 1; }
  // The status where it is a word of its own: the low word of the pair, or status[tile].
  unsigned *status_word(std::size_t tile) const {
    return paired ? reinterpret_cast<unsigned *>(pairs + tile) : status + tile;
  }

  void publish(std::size_t tile, const T &v, unsigned st) const {
    if (packed) {
      unsigned bits = 0;
      std::memcpy(&bits, &v, packed_bytes);
      *static_cast<volatile unsigned long long *>(words + tile) =
          static_cast<unsigned long long>(bits) << 32 | st;
      return;
    }
    if (paired && one_access_pairs()) {
      unsigned long long bits = 0;
      std::memcpy(&bits, &v, pair_bytes);
      const pair_word w = {st, bits};
      *static_cast<volatile pair_word *>(pairs + tile) = w;
      return;
    }
    detail::store_volatile(st == has_prefix ? inclusive + tile : aggregate + tile, v);
    if (paired && st == has_prefix) { // for inclusive_at: the host reads the pair's value
      unsigned long long bits = 0;
      std::memcpy(&bits, &v, pair_bytes);
      reinterpret_cast<volatile unsigned long long *>(pairs + tile)[1] = bits;
    }
    thread_fence(); // the value before the flag
    detail::store_volatile(status_word(tile), st);
  }
  static std::size_t align(std::size_t b) { return (b + 15) / 16 * 16; }
};

// Counts carried from tile to tile with their status in the top two bits of one word
// (CUB's onesweep look-back): Word is unsigned (counts below 2^30) or unsigned long
// long. Many counters per tile (a radix sort: one per digit), each published and
// looked back by one thread on its own, so no warp has to take part. Zero is "empty":
// the words need only be zeroed before a pass.
template <class Word> struct packed_counts {
  static constexpr unsigned bits = sizeof(Word) * 8;           // bits of a word
  static constexpr Word has_aggregate = Word(1) << (bits - 2); // status bit: an aggregate
  static constexpr Word has_prefix = Word(1) << (bits - 1);    // status bit: an inclusive prefix
  static constexpr Word value_mask = has_aggregate - 1;        // the count's bits
  // The largest count a word can carry.
  static constexpr unsigned long long max_count = value_mask;

  Word *words;       // per tile, `width` counters: words[tile * width + c]
  std::size_t width; // counters per tile

  // Publishes v as counter c's aggregate in tile.
  void publish_aggregate(std::size_t tile, std::size_t c, Word v) const {
    store(tile, c, v | has_aggregate);
  }
  // Publishes v as counter c's inclusive prefix in tile.
  void publish_inclusive(std::size_t tile, std::size_t c, Word v) const {
    store(tile, c, v | has_prefix);
  }
  // The sum of counter c over tiles [0, tile): walks back from tile - 1, adding
  // aggregates until it meets an inclusive prefix, waiting where a predecessor has not
  // published yet (its block has started: tiles are numbered in the order blocks start).
  Word exclusive_prefix(std::size_t tile, std::size_t c) const {
    Word sum = 0;
    for (std::size_t t = tile; t-- > 0;) {
      Word w;
      // Spins without sleeping, as CUB's onesweep does: a sleep from 32 ns doubling to
      // 512 ns was 1.4 % slower at 2^28, for keys and for pairs (H100, 2026-11-25).
      do
        w = *static_cast<const volatile Word *>(words + t * width + c);
      while (w == 0);
      sum += w & value_mask;
      if (w & has_prefix)
        break;
    }
    return sum;
  }

private:
  void store(std::size_t tile, std::size_t c, Word w) const {
    *static_cast<volatile Word *>(words + tile * width + c) = w;
  }
};

// The next tile in the order blocks start (every thread of the block gets it; every
// thread must call it, and calling it again needs a barrier in between). On CUDA that is
// the block index: the device starts a kernel's blocks in index order, so a block only
// waits for blocks already running or done (what CUB's single-pass scans rely on). That
// saves every tile an atomic round trip and a barrier before its first load. Elsewhere
// (PoCL runs work-groups on a few CPU threads in any order) thread 0 takes the next
// number from `counter` (zero before the pass).
__attribute__((always_inline)) inline std::size_t tile_order(unsigned *counter) {
  if (warp::size() > 1) // CUDA (a constant after the JIT)
    return Block::get().index.x;
  shared_memory<unsigned, 1> tile;
  if (Thread::get().local.x == 0)
    tile[0] = atomic_add(counter, 1u);
  barrier();
  return tile[0];
}

// The same for the tiles of a tile_state.
template <class T>
__attribute__((always_inline)) inline std::size_t tile_order(const tile_state<T> &state) {
  // No barrier after: a block taking a second tile must pass a barrier before calling
  // again (its tile loop has several).
  return tile_order(state.counter);
}

// The prefix callback of pacxx::block_scan for tile `tile` > 0 (called by the first warp
// of the block together): publishes the tile's aggregate, walks back over the
// predecessors a warp at a time (lane k looks at tile - 1 - k), publishes the tile's
// inclusive prefix and returns its exclusive prefix (in every lane).
//
// first_delay_ns: how long the warp waits after publishing the aggregate before its
// first look (CUB's L2 write latency delay), in grids of 500 blocks or more, where
// polling at once mostly finds predecessors that have not published yet and only
// loads the memory system they are publishing through. Between polls the wait starts
// at 64 ns and doubles up to 1 us.
template <class T, class Op> struct lookback_prefix {
  tile_state<T> state;     // the pass's published tile states
  std::size_t tile;        // this block's tile (> 0)
  Op op;                   // the scan's associative operation
  unsigned first_delay_ns; // the wait before the first look (0: none)

  // Publishes the tile's aggregate and inclusive prefix; returns its exclusive prefix
  // (called by the lanes of the first warp together).
  T operator()(const T &aggregate) {
    const unsigned w = warp::size(), lane = warp::lane();
    if (lane == 0)
      state.publish_aggregate(tile, aggregate);
    T prefix{};
    bool have = false;
    if (first_delay_ns > 0 && Grid::get().size.x >= 500)
      pacxx::nanosleep(first_delay_ns);
    // Window [first - w + 1, first]: lane k reads tile first - k. Tile 0 always has a
    // prefix, so a lane past it pretends to have one and the walk stops at tile 0 or
    // later.
    unsigned backoff = 64; // ns, doubled up to 1 us while predecessors have not published
    for (std::size_t first = tile - 1;; first -= w) {
      const bool real = lane <= first;
      const std::size_t mine = real ? first - lane : 0;
      unsigned st = tile_state<T>::has_prefix;
      T v = aggregate;
      for (;;) {
        if (real)
          st = state.peek(mine, v);
        if (warp::ballot(st == tile_state<T>::empty) == 0)
          break;
        pacxx::nanosleep(backoff); // let the predecessors publish (CUB's delay)
        backoff = backoff < 1024 ? 2 * backoff : backoff;
      }
      const unsigned prefixes = warp::ballot(st == tile_state<T>::has_prefix);
      const unsigned count = prefixes ? unsigned(__builtin_ctz(prefixes)) + 1 : w;
      // Fold lanes [0, count) in tile order: the farthest tile (highest lane) first.
      for (unsigned d = 1; d < w; d *= 2) {
        T other = warp::shuffle_down(v, d);
        if (lane + d < count)
          v = op(other, v);
      }
      v = warp::shuffle(v, 0);
      prefix = have ? op(v, prefix) : v;
      have = true;
      if (prefixes)
        break;
    }
    if (lane == 0)
      state.publish_inclusive(tile, op(prefix, aggregate));
    return prefix;
  }
};

// The prefix callback of the deterministic scans (gpu::deterministic), called as
// lookback_prefix is. lookback_prefix folds the aggregates it meets as a tree whose shape
// depends on where its walk stops, that is on timing: a float sum differs in its last
// bits from run to run. Here every tile's inclusive prefix is, bit for bit, the left fold
// (...((A0 op A1) op A2) ... op At) of the tiles' aggregates (A0: tile 0's inclusive
// prefix, init folded in), whatever the timing: the tile takes the nearest predecessor k
// that has published its inclusive prefix (by induction that fold up to k) and folds the
// aggregates of tiles k + 1 .. tile - 1 onto it one at a time in tile order, then its
// own. Any k gives the same value, so the walk may stop wherever it likes.
//
// The warp reads Windows * w predecessors at once (lane k's value i is tile - 1 - i * w
// - k), so one round trip usually reaches an inclusive prefix (the standard walk reads a
// window of w per round trip), and holds them in registers for the fold. It polls again
// while a predecessor nearer than the nearest prefix has not published, or while none
// of them has a prefix (a nearer one will: every tile before this one is running or
// done). The price is the serial fold: one op per tile between k and this one, where
// the standard walk does log2(w) steps.
template <class T, class Op, unsigned Windows> struct ordered_lookback_prefix {
  static_assert(Windows >= 1, "ordered_lookback_prefix: at least one window");
  tile_state<T> state;     // the pass's published tile states
  std::size_t tile;        // this block's tile (> 0)
  Op op;                   // the scan's associative operation
  unsigned first_delay_ns; // the wait before the first look (0: none)

  // Publishes the tile's aggregate and inclusive prefix; returns its exclusive prefix
  // (called by the lanes of the first warp together).
  T operator()(const T &aggregate) {
    constexpr unsigned max_warp = 32; // warp::size() is 32 or 1
    const unsigned w = warp::size(), lane = warp::lane();
    if (lane == 0)
      state.publish_aggregate(tile, aggregate);
    if (first_delay_ns > 0 && Grid::get().size.x >= 500)
      pacxx::nanosleep(first_delay_ns);
    T v[Windows];
    unsigned window = 0, at = 0; // the nearest inclusive prefix: lane `at` of window `window`
    unsigned backoff = 64;       // ns, doubled up to 1 us while predecessors have not published
    for (;;) {
      // Every load first, then the ballots: a ballot waits for its load, and the loads
      // of the windows are one round trip only if none waits for another's ballot.
      // Lanes before tile 0 read tile 0 and count as empty: they are farther than tile
      // 0, which always publishes an inclusive prefix, so never needed.
      unsigned st[Windows], empty[Windows], prefixes[Windows];
#pragma unroll
      for (unsigned i = 0; i < Windows; ++i) {
        const std::size_t back = std::size_t(i) * w + lane + 1;
        v[i] = aggregate;
        st[i] = state.peek(back <= tile ? tile - back : 0, v[i]);
      }
#pragma unroll
      for (unsigned i = 0; i < Windows; ++i) {
        const bool real = std::size_t(i) * w + lane + 1 <= tile;
        empty[i] = warp::ballot(!real || st[i] == tile_state<T>::empty);
        prefixes[i] = warp::ballot(real && st[i] == tile_state<T>::has_prefix);
      }
      bool found = false, ready = true; // ready: every tile nearer than it has published
#pragma unroll
      for (unsigned i = 0; i < Windows; ++i) {
        if (!found && prefixes[i]) {
          found = true;
          window = i;
          at = unsigned(__builtin_ctz(prefixes[i]));
          ready = ready && (empty[i] & ((1u << at) - 1u)) == 0;
        } else if (!found) {
          ready = ready && empty[i] == 0;
        }
      }
      if (found && ready)
        break;
      pacxx::nanosleep(backoff);
      backoff = backoff < 1024 ? 2 * backoff : backoff;
    }
    // The fold, in every lane alike: the prefix, then the aggregates nearer than it from
    // the farthest on. The loops count up over constant bounds (fully unrolled; lanes past
    // the warp drop out where it is one thread), so each value is fetched by a shuffle
    // that does not wait for the fold before it.
    T mine = v[0];
#pragma unroll
    for (unsigned i = 1; i < Windows; ++i)
      mine = i == window ? v[i] : mine;
    T acc = warp::shuffle(mine, at);
#pragma unroll
    for (unsigned r = 0; r < Windows; ++r) {
      const unsigned i = Windows - 1 - r;
      if (i <= window) {
        const unsigned nearer = i == window ? at : w; // lanes [0, nearer) come after the prefix
#pragma unroll
        for (unsigned q = 0; q < max_warp; ++q) {
          const unsigned j = max_warp - 1 - q;
          if (j < w) {
            const T x = warp::shuffle(v[i], j);
            if (j < nearer)
              acc = op(acc, x);
          }
        }
      }
    }
    if (lane == 0)
      state.publish_inclusive(tile, op(acc, aggregate));
    return acc;
  }
};

} // namespace pacxx
