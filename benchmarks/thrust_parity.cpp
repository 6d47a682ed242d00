// The Thrust-parity algorithms (issue 38) beside CUB (temporary storage preallocated)
// and Thrust, all in this one process, sizes 2^16..2^28 (PACXX_BENCH_MAX_LOG2 lowers the
// top). Times are per call, end to end: until the result (and its count, where there is
// one) is complete on the host side. Every result is checked against a host reference
// once per size before timing.
//   adjacent_difference  floats in, floats out (bytes: read n, write n)
//   unique_by_key        int keys in runs of 8, float values; out of place (CUB's
//                        DeviceSelect::UniqueByKey, Thrust's unique_by_key_copy) (bytes:
//                        read 2n, write 2 per run)
//   run_length_encode    int keys in runs of 8 (bytes: read n, write 2 per run)
//   partition_copy       floats, about half > 0 (bytes: read n, write n); CUB's
//                        DevicePartition::If writes both parts into one output
//   set_intersection     two sorted int ranges of n / 2 each, values in [0, n) (bytes:
//                        read n, write the result); Thrust only (CUB has none);
//   set_union, set_difference, set_symmetric_difference: the same inputs and bytes
//   partition_three_way  floats < -0.25 / > 0.25 / the rest (bytes: read n, write n);
//                        CUB's DevicePartition::If with two predicates
//   top_k/K              the K = 1, 100, 10000 largest floats with gpu::top_k (bytes: read
//                        n), beside sorting all n descending (gpu::sort of a device copy,
//                        CUB SortKeysDescending into a second buffer): the goal is >= 2x
//                        the whole sort. The toolkit's CUB (CUDA 13) has no DeviceTopK.
//   nth_element          the median of a device copy of the floats (bytes: read n)
//   shuffle              a random permutation of the floats in place (bytes: read n,
//                        write n), Thrust's shuffle beside it
#include <pacxx/pacxx.hpp>

#include <benchmark/benchmark.h>

#include "bench_sizes.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <numeric>
#include <vector>

#include "baselines/thrust_parity.h"

namespace {

struct xorshift {
  std::uint64_t s = 0x9E3779B97F4A7C15ull;
  std::uint64_t next() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 0x2545F4914F6CDD1Dull;
  }
  float uniform() { return static_cast<float>(next() >> 40) / 16777216.f; }
};

struct inputs {
  std::size_t n;
  std::vector<float> hf, h_diff;
  std::vector<int> hk, h_unique, ha, hb, h_inter;
  std::vector<unsigned> h_counts;
  std::size_t positives = 0;
  gpu::vector<float> f, values, out_f, out_f2;
  gpu::vector<int> keys, out_k, a, b, out_i;
  gpu::vector<unsigned> counts;

  explicit inputs(std::size_t n_) : n(n_), hf(n), h_diff(n), hk(n) {
    xorshift r;
    for (auto &x : hf)
      x = r.uniform() - 0.5f;
    std::adjacent_difference(hf.begin(), hf.end(), h_diff.begin());
    positives = static_cast<std::size_t>(
        std::count_if(hf.begin(), hf.end(), [](float v) { return v > 0.f; }));
    for (std::size_t i = 0; i < n; ++i)
      hk[i] = static_cast<int>((i / 8) % 1000003);
    for (std::size_t i = 0; i < n; i += 8) {
      h_unique.push_back(hk[i]);
      h_counts.push_back(static_cast<unsigned>(std::min<std::size_t>(8, n - i)));
    }
    ha.resize(n / 2);
    hb.resize(n - n / 2);
    for (auto &x : ha)
      x = static_cast<int>(r.next() % n);
    for (auto &x : hb)
      x = static_cast<int>(r.next() % n);
    std::sort(ha.begin(), ha.end());
    std::sort(hb.begin(), hb.end());
    std::set_intersection(ha.begin(), ha.end(), hb.begin(), hb.end(), std::back_inserter(h_inter));
    f = gpu::copy(hf);
    values = gpu::copy(hf);
    keys = gpu::copy(hk);
    a = gpu::copy(ha);
    b = gpu::copy(hb);
    out_f = gpu::vector<float>(n);
    out_f2 = gpu::vector<float>(n);
    out_k = gpu::vector<int>(n);
    out_i = gpu::vector<int>(n);
    counts = gpu::vector<unsigned>(n);
  }
};

inputs &data(std::size_t n) {
  // Never destroyed: the runtime may be gone by the time static objects are.
  static auto *all = new std::map<std::size_t, std::unique_ptr<inputs>>;
  auto &p = (*all)[n];
  if (!p) {
    p.reset(new inputs(n));
    cub_parity_prepare(n);
  }
  return *p;
}

// Sampled comparison of the first c elements of a device vector with a host one.
template <class T> bool same(const gpu::vector<T> &d, const std::vector<T> &h, std::size_t c) {
  if (c > h.size())
    return false;
  const std::vector<T> r = gpu::copy(d);
  for (std::size_t i = 0; i < c; i += 1 + c / 4096)
    if (!(r[i] == h[i]))
      return false;
  return c == 0 || r[c - 1] == h[c - 1];
}

template <class Run, class Check>
void measure(benchmark::State &state, Run run, Check ok, double bytes_of_n) {
  pacxx_bench::measure_checked(state, data(static_cast<std::size_t>(state.range(0))), run, ok,
                               bytes_of_n);
}
using pacxx_bench::n_of;

// ---- adjacent_difference
bool diff_ok(inputs &d, int) { return same(d.out_f, d.h_diff, d.n); }
void adjacent_difference_pacxx(benchmark::State &state) {
  measure(
      state,
      [](inputs &d) {
        gpu::adjacent_difference(d.f, d.out_f);
        pacxx::synchronize();
        return 0;
      },
      diff_ok, 8 * n_of(state));
}
void adjacent_difference_cub(benchmark::State &state) {
  measure(
      state,
      [](inputs &d) {
        cub_adjacent_difference(d.f.data(), d.out_f.data(), d.n);
        return 0;
      },
      diff_ok, 8 * n_of(state));
}
void adjacent_difference_thrust(benchmark::State &state) {
  measure(
      state,
      [](inputs &d) {
        thrust_adjacent_difference(d.f.data(), d.out_f.data(), d.n);
        return 0;
      },
      diff_ok, 8 * n_of(state));
}

// ---- unique_by_key (out of place)
bool ubk_ok(inputs &d, std::size_t c) {
  return c == d.h_unique.size() && same(d.out_k, d.h_unique, c);
}
double ubk_bytes(benchmark::State &s) { return 8 * n_of(s) + 8 * (n_of(s) / 8); }
void unique_by_key_pacxx(benchmark::State &state) {
  measure(
      state, [](inputs &d) { return gpu::unique_by_key_copy(d.keys, d.values, d.out_k, d.out_f); },
      ubk_ok, ubk_bytes(state));
}
void unique_by_key_cub(benchmark::State &state) {
  measure(
      state,
      [](inputs &d) {
        return cub_unique_by_key(d.keys.data(), d.values.data(), d.out_k.data(), d.out_f.data(),
                                 d.n);
      },
      ubk_ok, ubk_bytes(state));
}
void unique_by_key_thrust(benchmark::State &state) {
  measure(
      state,
      [](inputs &d) {
        return thrust_unique_by_key_copy(d.keys.data(), d.values.data(), d.out_k.data(),
                                         d.out_f.data(), d.n);
      },
      ubk_ok, ubk_bytes(state));
}

// ---- run_length_encode
bool rle_ok(inputs &d, std::size_t c) {
  return c == d.h_unique.size() && same(d.out_k, d.h_unique, c) && same(d.counts, d.h_counts, c);
}
double rle_bytes(benchmark::State &s) { return 4 * n_of(s) + 8 * (n_of(s) / 8); }
void run_length_encode_pacxx(benchmark::State &state) {
  measure(
      state, [](inputs &d) { return gpu::run_length_encode(d.keys, d.out_k, d.counts); }, rle_ok,
      rle_bytes(state));
}
void run_length_encode_cub(benchmark::State &state) {
  measure(
      state,
      [](inputs &d) {
        return cub_run_length_encode(d.keys.data(), d.out_k.data(), d.counts.data(), d.n);
      },
      rle_ok, rle_bytes(state));
}
void run_length_encode_thrust(benchmark::State &state) {
  measure(
      state,
      [](inputs &d) {
        return thrust_run_length_encode(d.keys.data(), d.out_k.data(), d.counts.data(), d.n);
      },
      rle_ok, rle_bytes(state));
}

// ---- partition_copy
bool part_ok(inputs &d, std::size_t c) { return c == d.positives; }
void partition_copy_pacxx(benchmark::State &state) {
  measure(
      state,
      [](inputs &d) {
        return gpu::partition_copy(d.f, d.out_f, d.out_f2, [](float v) { return v > 0.f; }).first;
      },
      part_ok, 8 * n_of(state));
}
void partition_copy_cub(benchmark::State &state) {
  measure(
      state, [](inputs &d) { return cub_partition_positive(d.f.data(), d.out_f.data(), d.n); },
      part_ok, 8 * n_of(state));
}
void partition_copy_thrust(benchmark::State &state) {
  measure(
      state,
      [](inputs &d) {
        return thrust_partition_copy_positive(d.f.data(), d.out_f.data(), d.out_f2.data(), d.n);
      },
      part_ok, 8 * n_of(state));
}

// ---- set_intersection
bool inter_ok(inputs &d, std::size_t c) {
  return c == d.h_inter.size() && same(d.out_i, d.h_inter, c);
}
void set_intersection_pacxx(benchmark::State &state) {
  measure(
      state, [](inputs &d) { return gpu::set_intersection(d.a, d.b, d.out_i); }, inter_ok,
      4 * n_of(state) + 4 * (data(state.range(0)).h_inter.size()));
}
void set_intersection_thrust(benchmark::State &state) {
  measure(
      state,
      [](inputs &d) {
        return thrust_set_intersection(d.a.data(), d.a.size(), d.b.data(), d.b.size(),
                                       d.out_i.data());
      },
      inter_ok, 4 * n_of(state) + 4 * (data(state.range(0)).h_inter.size()));
}

// ---- set_union, set_difference, set_symmetric_difference: their host results are
// computed for the sizes that run them only.
const std::vector<int> &set_reference(inputs &d, int op) {
  static std::map<std::pair<std::size_t, int>, std::vector<int>> refs;
  auto &r = refs[{d.n, op}];
  if (r.empty()) {
    auto o = std::back_inserter(r);
    if (op == 0)
      std::set_union(d.ha.begin(), d.ha.end(), d.hb.begin(), d.hb.end(), o);
    else if (op == 1)
      std::set_difference(d.ha.begin(), d.ha.end(), d.hb.begin(), d.hb.end(), o);
    else
      std::set_symmetric_difference(d.ha.begin(), d.ha.end(), d.hb.begin(), d.hb.end(), o);
  }
  return r;
}
template <int Op> bool set_ok(inputs &d, std::size_t c) {
  const std::vector<int> &want = set_reference(d, Op);
  return c == want.size() && same(d.out_i, want, c);
}
template <int Op> double set_bytes(benchmark::State &state) {
  return 4 * n_of(state) + 4 * double(set_reference(data(state.range(0)), Op).size());
}
std::size_t set_pacxx(inputs &d, int op) {
  return op == 0   ? gpu::set_union(d.a, d.b, d.out_i)
         : op == 1 ? gpu::set_difference(d.a, d.b, d.out_i)
                   : gpu::set_symmetric_difference(d.a, d.b, d.out_i);
}
std::size_t set_thrust(inputs &d, int op) {
  const int *a = d.a.data(), *b = d.b.data();
  int *o = d.out_i.data();
  return op == 0   ? thrust_set_union(a, d.a.size(), b, d.b.size(), o)
         : op == 1 ? thrust_set_difference(a, d.a.size(), b, d.b.size(), o)
                   : thrust_set_symmetric_difference(a, d.a.size(), b, d.b.size(), o);
}
void set_union_pacxx(benchmark::State &state) {
  measure(
      state, [](inputs &d) { return set_pacxx(d, 0); }, set_ok<0>, set_bytes<0>(state));
}
void set_union_thrust(benchmark::State &state) {
  measure(
      state, [](inputs &d) { return set_thrust(d, 0); }, set_ok<0>, set_bytes<0>(state));
}
void set_difference_pacxx(benchmark::State &state) {
  measure(
      state, [](inputs &d) { return set_pacxx(d, 1); }, set_ok<1>, set_bytes<1>(state));
}
void set_difference_thrust(benchmark::State &state) {
  measure(
      state, [](inputs &d) { return set_thrust(d, 1); }, set_ok<1>, set_bytes<1>(state));
}
void set_symmetric_difference_pacxx(benchmark::State &state) {
  measure(
      state, [](inputs &d) { return set_pacxx(d, 2); }, set_ok<2>, set_bytes<2>(state));
}
void set_symmetric_difference_thrust(benchmark::State &state) {
  measure(
      state, [](inputs &d) { return set_thrust(d, 2); }, set_ok<2>, set_bytes<2>(state));
}

// ---- partition_three_way
bool three_ok(inputs &d, std::size_t c) {
  return c == static_cast<std::size_t>(
                  std::count_if(d.hf.begin(), d.hf.end(), [](float v) { return v < -0.25f; }));
}
struct below_quarter {
  bool operator()(float v) const { return v < -0.25f; }
};
struct above_quarter {
  bool operator()(float v) const { return v > 0.25f; }
};
void partition_three_way_pacxx(benchmark::State &state) {
  measure(
      state,
      [](inputs &d) {
        return gpu::partition_copy(d.f, d.out_f, d.out_f2, d.values, below_quarter{},
                                   above_quarter{})
            .first;
      },
      three_ok, 8 * n_of(state));
}
void partition_three_way_cub(benchmark::State &state) {
  measure(
      state,
      [](inputs &d) {
        return cub_partition_three_way(d.f.data(), d.out_f.data(), d.out_f2.data(), d.values.data(),
                                       d.n);
      },
      three_ok, 8 * n_of(state));
}

// ---- top_k, nth_element and the whole sort they must beat
const std::vector<float> &descending(inputs &d) {
  static std::map<std::size_t, std::vector<float>> all;
  auto &v = all[d.n];
  if (v.empty()) {
    v = d.hf;
    std::sort(v.begin(), v.end(), std::greater<float>());
  }
  return v;
}
template <int K> void top_k_pacxx(benchmark::State &state) {
  measure(
      state,
      [](inputs &d) {
        gpu::top_k(d.f, K, d.out_f);
        return 0;
      },
      [](inputs &d, int) { return same(d.out_f, descending(d), K); }, 4 * n_of(state));
}
void sort_whole_pacxx(benchmark::State &state) {
  measure(
      state,
      [](inputs &d) {
        pacxx::detail::copy_on_device(d.out_f.data(), d.f.data(), d.n * sizeof(float));
        gpu::sort(d.out_f, std::greater<>{});
        pacxx::synchronize();
        return 0;
      },
      [](inputs &d, int) { return same(d.out_f, descending(d), d.n); }, 4 * n_of(state));
}
void sort_whole_cub(benchmark::State &state) {
  measure(
      state,
      [](inputs &d) {
        cub_sort_descending(d.f.data(), d.out_f.data(), d.n);
        return 0;
      },
      [](inputs &d, int) { return same(d.out_f, descending(d), d.n); }, 4 * n_of(state));
}
void nth_element_pacxx(benchmark::State &state) {
  measure(
      state,
      [](inputs &d) {
        pacxx::detail::copy_on_device(d.out_f.data(), d.f.data(), d.n * sizeof(float));
        gpu::nth_element(d.out_f, d.n / 2, std::greater<>{});
        return static_cast<float>(d.out_f[d.n / 2]);
      },
      [](inputs &d, float m) { return m == descending(d)[d.n / 2]; }, 4 * n_of(state));
}

// ---- shuffle
bool shuffle_ok(inputs &d, int) {
  std::vector<float> r = gpu::copy(d.out_f2), h = d.hf;
  std::sort(r.begin(), r.end());
  std::sort(h.begin(), h.end());
  return r == h;
}
void shuffle_pacxx(benchmark::State &state) {
  measure(
      state,
      [](inputs &d) {
        pacxx::detail::copy_on_device(d.out_f2.data(), d.f.data(), d.n * sizeof(float));
        gpu::random::default_random_engine g(1);
        gpu::shuffle(d.out_f2, g);
        pacxx::synchronize();
        return 0;
      },
      shuffle_ok, 8 * n_of(state));
}
void shuffle_thrust(benchmark::State &state) {
  measure(
      state,
      [](inputs &d) {
        pacxx::detail::copy_on_device(d.out_f2.data(), d.f.data(), d.n * sizeof(float));
        thrust_shuffle(d.out_f2.data(), d.n, 1);
        return 0;
      },
      shuffle_ok, 8 * n_of(state));
}

using pacxx_bench::sizes;

} // namespace

#define PACXX_BENCH(f) BENCHMARK(f)->Apply(sizes)
PACXX_BENCH(adjacent_difference_pacxx);
PACXX_BENCH(adjacent_difference_cub);
PACXX_BENCH(adjacent_difference_thrust);
PACXX_BENCH(unique_by_key_pacxx);
PACXX_BENCH(unique_by_key_cub);
PACXX_BENCH(unique_by_key_thrust);
PACXX_BENCH(run_length_encode_pacxx);
PACXX_BENCH(run_length_encode_cub);
PACXX_BENCH(run_length_encode_thrust);
PACXX_BENCH(partition_copy_pacxx);
PACXX_BENCH(partition_copy_cub);
PACXX_BENCH(partition_copy_thrust);
PACXX_BENCH(set_intersection_pacxx);
PACXX_BENCH(set_intersection_thrust);
PACXX_BENCH(set_union_pacxx);
PACXX_BENCH(set_union_thrust);
PACXX_BENCH(set_difference_pacxx);
PACXX_BENCH(set_difference_thrust);
PACXX_BENCH(set_symmetric_difference_pacxx);
PACXX_BENCH(set_symmetric_difference_thrust);
PACXX_BENCH(partition_three_way_pacxx);
PACXX_BENCH(partition_three_way_cub);
PACXX_BENCH(top_k_pacxx<1>);
PACXX_BENCH(top_k_pacxx<100>);
PACXX_BENCH(top_k_pacxx<10000>);
PACXX_BENCH(sort_whole_pacxx);
PACXX_BENCH(sort_whole_cub);
PACXX_BENCH(nth_element_pacxx);
PACXX_BENCH(shuffle_pacxx);
PACXX_BENCH(shuffle_thrust);

BENCHMARK_MAIN();
