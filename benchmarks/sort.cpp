// Sorting (issue 10) against CUB (DeviceRadixSort, DeviceMergeSort, DeviceMerge; temporary
// storage preallocated) and Thrust, all in this one process. Sizes 2^20 .. 2^28
// (PACXX_BENCH_MAX_LOG2 lowers the top). Times are per call until the result is written.
//
// pacxx and Thrust sort in place: each iteration first restores the unsorted input with
// a device copy, outside the timed region (state.PauseTiming). CUB sorts from the input
// to a second buffer, so it needs no restore. Every result is checked against CUB's (or
// Thrust's, where CUB has no such algorithm) once per size before timing.
//
// Families (report_stl.py): sort_u32, sort_pairs_u32 (32-bit keys and 32-bit values),
// sort_u64, sort_f32, sort16 (keys below 2^16 sorted by bits [0, 16): pacxx and CUB with
// the bit range, pacxxall: pacxx over all 32 bits, what skipping passes gains),
// sort_items (a 12-byte struct with a comparator: merge sorts), sort_cmp_u64 (64-bit keys
// with a comparator on their low 32 bits: merge sorts of 8-byte elements), sort_points (a
// 16-byte struct with a comparator on two float fields), sort_scores (an 8-byte struct
// with a comparator on its float field), lower_bound (n queries
// into n sorted keys), merge (two sorted halves of n/2).
#include <pacxx/pacxx.hpp>

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <vector>

#include "baselines/sort.h"

bool operator==(const bench_item &a, const bench_item &b) {
  return a.group == b.group && a.score == b.score && a.id == b.id;
}

bool operator==(const bench_point &a, const bench_point &b) {
  return a.x == b.x && a.y == b.y && a.z == b.z && a.id == b.id;
}

bool operator==(const bench_score &a, const bench_score &b) {
  return a.score == b.score && a.id == b.id;
}

namespace {

inline void sort_sizes(benchmark::internal::Benchmark *b) {
  int hi = 28;
  if (const char *s = std::getenv("PACXX_BENCH_MAX_LOG2"))
    hi = std::atoi(s);
  for (int e = 20; e <= hi; ++e)
    b->Arg(int64_t(1) << e);
  b->UseRealTime()->Unit(benchmark::kMicrosecond);
}
inline void search_sizes(benchmark::internal::Benchmark *b) {
  int hi = 24;
  if (const char *s = std::getenv("PACXX_BENCH_MAX_LOG2"))
    hi = std::atoi(s) < 24 ? std::atoi(s) : 24;
  for (int e = 20; e <= hi; ++e)
    b->Arg(int64_t(1) << e);
  b->UseRealTime()->Unit(benchmark::kMicrosecond);
}

struct item_order {
  bool operator()(const bench_item &a, const bench_item &b) const {
    return a.group < b.group || (a.group == b.group && a.score > b.score);
  }
};

std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  return x ^ (x >> 33);
}

// One buffer to sort: the pristine input, the buffer pacxx and Thrust sort in place, and
// CUB's output.
template <class T> struct buffers {
  gpu::vector<T> input, work, out;
  explicit buffers(const std::vector<T> &h) : input(gpu::copy(h)), work(h.size()), out(h.size()) {}
  void restore() {
    pacxx::detail::copy_on_device(work.data(), input.data(), input.size() * sizeof(T));
    pacxx::synchronize();
  }
};

// One data set alive at a time (the largest sizes of all families would not fit together):
// the data of (family, n), made anew when another is asked for.
struct held_data {
  const void *family = nullptr;
  std::size_t n = 0;
  std::shared_ptr<void> data;
};
held_data &held() {
  static auto *h = new held_data;
  return *h;
}
template <class D, class Make> D &cached(const void *family, std::size_t n, Make make) {
  held_data &h = held();
  if (h.family != family || h.n != n || !h.data) {
    h.data.reset(); // the old data set first: the two may not fit together
    pacxx::synchronize();
    // And the pool's unused blocks (the old sizes' data and scratch): the driver then
    // places this size's buffers as in a process that sorts this size alone. Kept, they
    // cost pacxx 8 % at 2^27 u32 pairs (5.09 against 4.69 ms on the H100, 2026-11-26,
    // benchmarks/results/2026-11-26-h100-small-reductions); CUB's own time there moved
    // by 10 % with the placement too (4.46-4.53 against 4.91 ms).
    pacxx::release_cached_memory();
    h.data = std::shared_ptr<void>(make(n));
    h.family = family;
    h.n = n;
    cub_sort_prepare(n);
  }
  return *static_cast<D *>(h.data.get());
}

template <class T, T (*Make)(std::size_t)> buffers<T> &data(std::size_t n) {
  static const char family = 0;
  return cached<buffers<T>>(&family, n, [](std::size_t n) {
    std::vector<T> h(n);
    for (std::size_t i = 0; i < n; ++i)
      h[i] = Make(i);
    return new buffers<T>(h);
  });
}

unsigned u32_of(std::size_t i) { return unsigned(mix(i)); }
unsigned u16_of(std::size_t i) { return unsigned(mix(i)) & 0xffffu; }
unsigned long long u64_of(std::size_t i) { return mix(i + 17); }
float f32_of(std::size_t i) { return float(std::int32_t(mix(i + 5))) * 1e-6f; }
bench_item item_of(std::size_t i) {
  const std::uint64_t r = mix(i + 99);
  return bench_item{int(r % 1000), float((r >> 20) % 64) * 0.25f, unsigned(i)};
}

// Coordinates on a grid of 1/8, so that equal z (and equal (z, x)) are common.
bench_point point_of(std::size_t i) {
  const std::uint64_t r = mix(i + 7);
  return bench_point{float(r % 4096) * 0.125f, float((r >> 12) % 4096) * 0.125f,
                     float((r >> 24) % 2048) * 0.125f, unsigned(i)};
}

// Scores on a grid of 1/2 below 32768, so that ties are common (and stability shows).
bench_score score_of(std::size_t i) {
  const std::uint64_t r = mix(i + 13);
  return bench_score{float(r % 65536) * 0.5f, unsigned(i)};
}

template <class T> bool same(const gpu::vector<T> &a, const gpu::vector<T> &b) {
  const std::vector<T> x = gpu::copy(a), y = gpu::copy(b);
  return x == y;
}

// Times f() after restore() each iteration; the first call's result is checked.
template <class Restore, class F, class Check>
void timed(benchmark::State &state, std::size_t bytes_per_item, Restore restore, F f, Check check) {
  const std::size_t n = state.range(0);
  restore();
  f();
  if (!check())
    return state.SkipWithError("wrong result");
  // PACXX_BENCH_PROFILE_N=n: the timed loops of size n (every benchmark the filter leaves
  // at that size) are the only range a profiler started with --profile-from-start off
  // sees, whatever ran before them in the process.
  const char *profile_n = std::getenv("PACXX_BENCH_PROFILE_N");
  const bool profile = profile_n && std::strtoull(profile_n, nullptr, 10) == n;
  if (profile)
    bench_profile(1);
  for (auto _ : state) {
    state.PauseTiming();
    restore();
    state.ResumeTiming();
    f();
  }
  if (profile)
    bench_profile(0);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * n * bytes_per_item);
  state.counters["n"] = static_cast<double>(n);
}

// The reference result of a family, computed once per size by CUB into b.out.
template <class T> void reference(buffers<T> &b, void (*cub)(const T *, T *, std::size_t)) {
  cub(b.input.data(), b.out.data(), b.input.size());
}

#define KEY_SORT_BENCHES(family, T, make, cubf, thrustf)                                           \
  void family##_pacxx(benchmark::State &state) {                                                   \
    auto &d = data<T, make>(state.range(0));                                                       \
    timed(                                                                                         \
        state, sizeof(T), [&] { d.restore(); },                                                    \
        [&] {                                                                                      \
          gpu::sort(d.work);                                                                       \
          pacxx::synchronize();                                                                    \
        },                                                                                         \
        [&] {                                                                                      \
          reference<T>(d, cubf);                                                                   \
          return same(d.work, d.out);                                                              \
        });                                                                                        \
  }                                                                                                \
  void family##_cub(benchmark::State &state) {                                                     \
    auto &d = data<T, make>(state.range(0));                                                       \
    timed(                                                                                         \
        state, sizeof(T), [] {}, [&] { cubf(d.input.data(), d.out.data(), d.input.size()); },      \
        [] { return true; });                                                                      \
  }                                                                                                \
  void family##_thrust(benchmark::State &state) {                                                  \
    auto &d = data<T, make>(state.range(0));                                                       \
    timed(                                                                                         \
        state, sizeof(T), [&] { d.restore(); }, [&] { thrustf(d.work.data(), d.work.size()); },    \
        [&] {                                                                                      \
          reference<T>(d, cubf);                                                                   \
          return same(d.work, d.out);                                                              \
        });                                                                                        \
  }

KEY_SORT_BENCHES(sort_u32, unsigned, u32_of, cub_sort_keys_u32, thrust_sort_u32)
KEY_SORT_BENCHES(sort_u64, unsigned long long, u64_of, cub_sort_keys_u64, thrust_sort_u64)
KEY_SORT_BENCHES(sort_f32, float, f32_of, cub_sort_keys_f32, thrust_sort_f32)

// Pairs: the values are the input positions.
struct pairs {
  buffers<unsigned> keys, values;
  explicit pairs(std::size_t n) : keys(make_keys(n)), values(make_values(n)) {}
  static std::vector<unsigned> make_keys(std::size_t n) {
    std::vector<unsigned> h(n);
    for (std::size_t i = 0; i < n; ++i)
      h[i] = u32_of(i + 3);
    return h;
  }
  static std::vector<unsigned> make_values(std::size_t n) {
    std::vector<unsigned> h(n);
    for (std::size_t i = 0; i < n; ++i)
      h[i] = unsigned(i);
    return h;
  }
  void restore() {
    keys.restore();
    values.restore();
  }
};
pairs &pair_data(std::size_t n) {
  static const char family = 0;
  return cached<pairs>(&family, n, [](std::size_t n) { return new pairs(n); });
}
void cub_pairs(pairs &d) {
  cub_sort_pairs_u32(d.keys.input.data(), d.keys.out.data(), d.values.input.data(),
                     d.values.out.data(), d.keys.input.size());
}
bool pairs_match(pairs &d) {
  cub_pairs(d);
  return same(d.keys.work, d.keys.out) && same(d.values.work, d.values.out);
}

void sort_pairs_u32_pacxx(benchmark::State &state) {
  pairs &d = pair_data(state.range(0));
  timed(
      state, 8, [&] { d.restore(); },
      [&] {
        gpu::sort_by_key(d.keys.work, d.values.work);
        pacxx::synchronize();
      },
      [&] { return pairs_match(d); });
}
void sort_pairs_u32_cub(benchmark::State &state) {
  pairs &d = pair_data(state.range(0));
  timed(
      state, 8, [] {}, [&] { cub_pairs(d); }, [] { return true; });
}
void sort_pairs_u32_thrust(benchmark::State &state) {
  pairs &d = pair_data(state.range(0));
  timed(
      state, 8, [&] { d.restore(); },
      [&] { thrust_sort_pairs_u32(d.keys.work.data(), d.values.work.data(), d.keys.work.size()); },
      [&] { return pairs_match(d); });
}

// Keys below 2^16: two passes where the bit range says so, four otherwise.
void cub_bits16(const unsigned *in, unsigned *out, std::size_t n) {
  cub_sort_keys_u32_bits(in, out, n, 0, 16);
}
void sort16_pacxx(benchmark::State &state) {
  auto &d = data<unsigned, u16_of>(state.range(0));
  timed(
      state, 4, [&] { d.restore(); },
      [&] {
        gpu::sort(d.work, 0, 16);
        pacxx::synchronize();
      },
      [&] {
        reference<unsigned>(d, cub_bits16);
        return same(d.work, d.out);
      });
}
void sort16_pacxxall(benchmark::State &state) {
  auto &d = data<unsigned, u16_of>(state.range(0));
  timed(
      state, 4, [&] { d.restore(); },
      [&] {
        gpu::sort(d.work);
        pacxx::synchronize();
      },
      [&] {
        reference<unsigned>(d, cub_bits16);
        return same(d.work, d.out);
      });
}
void sort16_cub(benchmark::State &state) {
  auto &d = data<unsigned, u16_of>(state.range(0));
  timed(
      state, 4, [] {}, [&] { cub_bits16(d.input.data(), d.out.data(), d.input.size()); },
      [] { return true; });
}

// Comparator sorts: pacxx's and CUB's merge sorts, Thrust's stable_sort with the same
// comparator; all stable, so all give Thrust's result (computed into out).
#define COMPARATOR_SORT_BENCHES(family, T, make, order, cubf, thrustf)                             \
  void family##_reference(buffers<T> &d) {                                                         \
    pacxx::detail::copy_on_device(d.out.data(), d.input.data(), d.input.size() * sizeof(T));       \
    thrustf(d.out.data(), d.out.size());                                                           \
  }                                                                                                \
  void family##_pacxx(benchmark::State &state) {                                                   \
    auto &d = data<T, make>(state.range(0));                                                       \
    timed(                                                                                         \
        state, sizeof(T), [&] { d.restore(); },                                                    \
        [&] {                                                                                      \
          gpu::sort(d.work, order{});                                                              \
          pacxx::synchronize();                                                                    \
        },                                                                                         \
        [&] {                                                                                      \
          family##_reference(d);                                                                   \
          return same(d.work, d.out);                                                              \
        });                                                                                        \
  }                                                                                                \
  void family##_thrust(benchmark::State &state) {                                                  \
    auto &d = data<T, make>(state.range(0));                                                       \
    timed(                                                                                         \
        state, sizeof(T), [&] { d.restore(); }, [&] { thrustf(d.work.data(), d.work.size()); },    \
        [] { return true; });                                                                      \
  }                                                                                                \
  void family##_cub(benchmark::State &state) {                                                     \
    auto &d = data<T, make>(state.range(0));                                                       \
    timed(                                                                                         \
        state, sizeof(T), [&] { d.restore(); }, [&] { cubf(d.work.data(), d.work.size()); },       \
        [&] {                                                                                      \
          family##_reference(d);                                                                   \
          return same(d.work, d.out);                                                              \
        });                                                                                        \
  }

// A 12-byte struct ordered by (group, score descending).
COMPARATOR_SORT_BENCHES(sort_items, bench_item, item_of, item_order, cub_merge_sort_items,
                        thrust_sort_items)

// 64-bit keys with a comparator on their low 32 bits (so a merge sort everywhere).
struct u64_low_order {
  bool operator()(unsigned long long a, unsigned long long b) const {
    return unsigned(a) < unsigned(b);
  }
};
COMPARATOR_SORT_BENCHES(sort_cmp_u64, unsigned long long, u64_of, u64_low_order,
                        cub_merge_sort_u64_low, thrust_sort_u64_low)

// A 16-byte struct ordered by (z, x).
struct point_order {
  bool operator()(const bench_point &a, const bench_point &b) const {
    return a.z < b.z || (a.z == b.z && a.x < b.x);
  }
};
COMPARATOR_SORT_BENCHES(sort_points, bench_point, point_of, point_order, cub_merge_sort_points,
                        thrust_sort_points)

// An 8-byte struct ordered by score, highest first.
struct score_order {
  bool operator()(const bench_score &a, const bench_score &b) const { return a.score > b.score; }
};
COMPARATOR_SORT_BENCHES(sort_scores, bench_score, score_of, score_order, cub_merge_sort_scores,
                        thrust_sort_scores)

// n queries into n sorted keys (sorted: every other even number; queries: any number).
struct search_data {
  gpu::vector<unsigned> sorted, queries;
  gpu::vector<std::size_t> out, ref;
  explicit search_data(std::size_t n) : out(n), ref(n) {
    std::vector<unsigned> s(n), q(n);
    for (std::size_t i = 0; i < n; ++i) {
      s[i] = unsigned(4 * i);
      q[i] = unsigned(mix(i) % (4 * n + 8));
    }
    sorted = gpu::copy(s);
    queries = gpu::copy(q);
  }
};
search_data &searches(std::size_t n) {
  static const char family = 0;
  return cached<search_data>(&family, n, [](std::size_t n) { return new search_data(n); });
}
void lower_bound_pacxx(benchmark::State &state) {
  search_data &d = searches(state.range(0));
  timed(
      state, 4 + 8, [] {},
      [&] {
        gpu::lower_bound(d.sorted, d.queries, d.out);
        pacxx::synchronize();
      },
      [&] {
        thrust_lower_bound_u32(d.sorted.data(), d.sorted.size(), d.queries.data(), d.queries.size(),
                               d.ref.data());
        return same(d.out, d.ref);
      });
}
void lower_bound_thrust(benchmark::State &state) {
  search_data &d = searches(state.range(0));
  timed(
      state, 4 + 8, [] {},
      [&] {
        thrust_lower_bound_u32(d.sorted.data(), d.sorted.size(), d.queries.data(), d.queries.size(),
                               d.ref.data());
      },
      [] { return true; });
}

// Two sorted halves of n/2 (evens and multiples of three, so ties occur).
struct merge_data {
  gpu::vector<unsigned> a, b, out, ref;
  explicit merge_data(std::size_t n) : out(n), ref(n) {
    std::vector<unsigned> ha(n / 2), hb(n - n / 2);
    for (std::size_t i = 0; i < ha.size(); ++i)
      ha[i] = unsigned(2 * i);
    for (std::size_t i = 0; i < hb.size(); ++i)
      hb[i] = unsigned(3 * i);
    a = gpu::copy(ha);
    b = gpu::copy(hb);
  }
};
merge_data &merges(std::size_t n) {
  static const char family = 0;
  return cached<merge_data>(&family, n, [](std::size_t n) { return new merge_data(n); });
}
void merge_pacxx(benchmark::State &state) {
  merge_data &d = merges(state.range(0));
  timed(
      state, 8, [] {},
      [&] {
        gpu::merge(d.a, d.b, d.out);
        pacxx::synchronize();
      },
      [&] {
        thrust_merge_u32(d.a.data(), d.a.size(), d.b.data(), d.b.size(), d.ref.data());
        return same(d.out, d.ref);
      });
}
void merge_thrust(benchmark::State &state) {
  merge_data &d = merges(state.range(0));
  timed(
      state, 8, [] {},
      [&] { thrust_merge_u32(d.a.data(), d.a.size(), d.b.data(), d.b.size(), d.ref.data()); },
      [] { return true; });
}
void merge_cub(benchmark::State &state) {
  merge_data &d = merges(state.range(0));
  timed(
      state, 8, [] {},
      [&] { cub_merge_u32(d.a.data(), d.a.size(), d.b.data(), d.b.size(), d.ref.data()); },
      [] { return true; });
}

} // namespace

#define SORT_BENCH(f) BENCHMARK(f)->Apply(sort_sizes)
SORT_BENCH(sort_u32_pacxx);
SORT_BENCH(sort_u32_cub);
SORT_BENCH(sort_u32_thrust);
SORT_BENCH(sort_pairs_u32_pacxx);
SORT_BENCH(sort_pairs_u32_cub);
SORT_BENCH(sort_pairs_u32_thrust);
SORT_BENCH(sort_u64_pacxx);
SORT_BENCH(sort_u64_cub);
SORT_BENCH(sort_u64_thrust);
SORT_BENCH(sort_f32_pacxx);
SORT_BENCH(sort_f32_cub);
SORT_BENCH(sort_f32_thrust);
SORT_BENCH(sort16_pacxx);
SORT_BENCH(sort16_pacxxall);
SORT_BENCH(sort16_cub);
SORT_BENCH(sort_items_pacxx);
SORT_BENCH(sort_items_cub);
SORT_BENCH(sort_items_thrust);
SORT_BENCH(sort_points_pacxx);
SORT_BENCH(sort_points_cub);
SORT_BENCH(sort_points_thrust);
SORT_BENCH(sort_scores_pacxx);
SORT_BENCH(sort_scores_cub);
SORT_BENCH(sort_scores_thrust);
SORT_BENCH(sort_cmp_u64_pacxx);
SORT_BENCH(sort_cmp_u64_cub);
SORT_BENCH(sort_cmp_u64_thrust);
BENCHMARK(lower_bound_pacxx)->Apply(search_sizes);
BENCHMARK(lower_bound_thrust)->Apply(search_sizes);
SORT_BENCH(merge_pacxx);
SORT_BENCH(merge_cub);
SORT_BENCH(merge_thrust);

BENCHMARK_MAIN();
