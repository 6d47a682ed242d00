// Distributed algorithms over gpu::dist::vector (issue 39). Each works on every rank's
// owned block with the ordinary gpu:: algorithm (views fused into its one kernel) and
// exchanges only what must cross ranks: a per-rank partial for the reductions and
// scans (MPI_Allgather of a few bytes, folded on every rank in rank order, so every
// rank returns the same value), counts for copy_if, and the data for sort. Collective:
// every rank calls them in the same order; a rank that calls another collective, or
// with another distribution, gets a pacxx::error, as do the others (the call's name
// and its distribution travel with the partial and are compared on every rank).
//
// Inputs are distributed ranges: a gpu::dist::vector, gpu::dist::zip(a, b, ...) of
// vectors with the same distribution, or gpu::dist::map(r, f) (f applied element-wise,
// fused into the local kernel). Element-wise algorithms (for_each, transform) need no
// communication and check alignment locally (every rank knows every distribution).
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <range/v3/view/transform.hpp>
#include <range/v3/view/zip.hpp>

#include "pacxx/algorithm/binary_search.hpp"
#include "pacxx/algorithm/copy_if.hpp"
#include "pacxx/algorithm/count.hpp"
#include "pacxx/algorithm/for_each.hpp"
#include "pacxx/algorithm/max_element.hpp"
#include "pacxx/algorithm/merge.hpp"
#include "pacxx/algorithm/min_element.hpp"
#include "pacxx/algorithm/reduce.hpp"
#include "pacxx/algorithm/scan.hpp"
#include "pacxx/algorithm/sort.hpp"
#include "pacxx/algorithm/transform.hpp"
#include "pacxx/algorithm/transform_reduce.hpp"
#include "pacxx/dist/vector.hpp"

namespace gpu {
namespace dist {

namespace detail {

// The distributed-range protocol: local() gives the rank's part as a device view,
// dist() the distribution.
template <class T> struct vector_range {
  gpu::dist::vector<T> *v;
  gpu::device_span<T> local() const { return v->owned(); }
  const distribution &dist() const { return v->get_distribution(); }
};
template <class T> struct const_vector_range {
  const gpu::dist::vector<T> *v;
  gpu::device_span<const T> local() const { return v->owned(); }
  const distribution &dist() const { return v->get_distribution(); }
};
template <class T> vector_range<T> as_range(gpu::dist::vector<T> &v) { return {&v}; }
template <class T> const_vector_range<T> as_range(const gpu::dist::vector<T> &v) { return {&v}; }
template <class R, class = decltype(std::declval<const R &>().local())>
const R &as_range(const R &r) {
  return r;
}

// Every rank's payload, with the call's name and signature compared on every rank
// (pacxx::dist::detail::checked_allgather).
template <class P>
std::vector<P> checked_allgather(const char *name, std::uint64_t signature, const P &payload) {
  static_assert(std::is_trivially_copyable<P>::value, "sent as bytes");
  std::vector<P> out(static_cast<std::size_t>(pacxx::dist::size()));
  pacxx::dist::detail::checked_allgather(name, signature, &payload, sizeof(P), out.data());
  return out;
}

template <class T> using maybe = gpu::detail::maybe<T>;
template <class T, class F> struct to_maybe {
  F f;
  template <class X> maybe<T> operator()(const X &x) const { return maybe<T>{T(f(x)), 1u}; }
};
struct identity {
  template <class X> X operator()(const X &x) const { return x; }
};
// The rank's fold of f over its part, none if it holds nothing: no identity needed.
template <class T, class L, class Op, class F> maybe<T> local_fold(const L &local, Op op, F f) {
  if (ranges::size(local) == 0)
    return maybe<T>{T(), 0u};
  return gpu::transform_reduce(local, maybe<T>{T(), 0u}, gpu::detail::maybe_op<Op>{op},
                               to_maybe<T, F>{f});
}
template <class T, class Op> T fold_in_order(T init, const std::vector<maybe<T>> &parts, Op op) {
  for (const maybe<T> &m : parts)
    if (m.have)
      init = op(init, m.value);
  return init;
}
template <class T> T read_one(const T *device) {
  T v;
  pacxx::detail::copy_to_host(&v, device, sizeof(T));
  return v;
}
inline void check_aligned(const char *name, const distribution &a, const distribution &b) {
  if (a != b)
    throw pacxx::error(std::string(name) + ": the distributed ranges are not aligned (" +
                       std::to_string(a.size()) + " and " + std::to_string(b.size()) +
                       " elements, or other blocks per rank)");
}
template <class T, class Op> struct apply_prefix {
  T prefix;
  Op op;
  T operator()(const T &x) const { return op(prefix, x); }
};
template <class T> struct multiply_pair {
  template <class P> T operator()(const P &p) const {
    return T(std::get<0>(p)) * T(std::get<1>(p));
  }
};
template <class T> struct fetch {
  const T *data;
  T operator()(std::size_t i) const { return data[i]; }
};
} // namespace detail

/// Element-wise zip of distributed vectors with the same distribution; its local part
/// is ranges::views::zip of the vectors' owned parts.
template <class... Vs> struct zip_range {
  /// The zipped vectors.
  std::tuple<Vs *...> vs;
  /// The zip of the owned parts (a device view).
  auto local() const { return local_of(std::index_sequence_for<Vs...>{}); }
  /// The common distribution.
  const distribution &dist() const { return std::get<0>(vs)->get_distribution(); }

private:
  template <std::size_t... I> auto local_of(std::index_sequence<I...>) const {
    return ranges::views::zip(std::get<I>(vs)->owned()...);
  }
};
/// gpu::dist::zip(a, b, ...): the vectors element by element (a pacxx::error if their
/// distributions differ).
template <class V, class... Vs> zip_range<V, Vs...> zip(V &v, Vs &...vs) {
  const distribution &d = v.get_distribution();
  bool aligned[] = {true, (vs.get_distribution() == d)...};
  for (bool a : aligned)
    if (!a)
      throw pacxx::error("gpu::dist::zip: the vectors have different distributions");
  return zip_range<V, Vs...>{std::tuple<V *, Vs *...>(&v, &vs...)};
}

/// f applied to every element of a distributed range, lazily (fused into the kernel
/// of the algorithm that consumes it).
template <class R, class F> struct map_range {
  /// The underlying distributed range.
  R r;
  /// The function applied to each element.
  F f;
  /// The transformed local part.
  auto local() const { return r.local() | ranges::views::transform(f); }
  /// The distribution of the underlying range.
  const distribution &dist() const { return r.dist(); }
};
/// gpu::dist::map(r, f): r's elements through f (a view, like view::transform).
template <class R, class F> auto map(R &r, F f) {
  auto base = detail::as_range(r);
  return map_range<decltype(base), F>{base, f};
}

/// f(x) for every element (local, no communication).
template <class R, class F> void for_each(R &&r, F f) {
  gpu::for_each(detail::as_range(r).local(), f);
}

/// out[i] = f(in[i]); in and out aligned (local, no communication).
template <class R, class U, class F> void transform(R &&in, vector<U> &out, F f) {
  auto src = detail::as_range(in);
  detail::check_aligned("gpu::dist::transform", src.dist(), out.get_distribution());
  if (out.local_size())
    gpu::transform(src.local(), out.owned(), f);
}

/// init op x0 op x1 ... over every element of every rank; the same value on every rank
/// (op must be associative; the ranks' partials are folded in rank order).
template <class R, class T, class Op = std::plus<>> T reduce(R &&r, T init, Op op = Op{}) {
  auto src = detail::as_range(r);
  const auto parts =
      detail::checked_allgather("gpu::dist::reduce", src.dist().hash(),
                                detail::local_fold<T>(src.local(), op, detail::identity{}));
  return detail::fold_in_order(init, parts, op);
}

/// reduce of f(x) over every element: f fused into the local kernel.
template <class R, class T, class Op, class F> T transform_reduce(R &&r, T init, Op op, F f) {
  auto src = detail::as_range(r);
  const auto parts = detail::checked_allgather("gpu::dist::transform_reduce", src.dist().hash(),
                                               detail::local_fold<T>(src.local(), op, f));
  return detail::fold_in_order(init, parts, op);
}

/// The sum over i of a[i] * b[i] (a and b aligned), from init.
template <class T, class U, class V> T dot(vector<U> &a, vector<V> &b, T init) {
  detail::check_aligned("gpu::dist::dot", a.get_distribution(), b.get_distribution());
  return transform_reduce(zip(a, b), init, std::plus<>{}, detail::multiply_pair<T>{});
}

/// The number of elements for which pred is true, on every rank.
template <class R, class Pred> std::size_t count_if(R &&r, Pred pred) {
  auto src = detail::as_range(r);
  const std::size_t mine = ranges::size(src.local()) ? gpu::count_if(src.local(), pred) : 0;
  const auto parts = detail::checked_allgather("gpu::dist::count_if", src.dist().hash(),
                                               static_cast<unsigned long long>(mine));
  std::size_t n = 0;
  for (unsigned long long c : parts)
    n += static_cast<std::size_t>(c);
  return n;
}

namespace detail {
template <class T> struct indexed {
  T value;
  unsigned long long index;
  unsigned have;
};
template <bool Max, class T, class Comp>
std::size_t extreme_element(const char *name, const vector<T> &v, Comp comp) {
  indexed<T> mine{T(), 0, 0u};
  if (v.local_size()) {
    const std::size_t i =
        Max ? gpu::max_element(v.owned(), comp) : gpu::min_element(v.owned(), comp);
    mine = {read_one(v.owned().data() + i), static_cast<unsigned long long>(v.offset() + i), 1u};
  }
  const auto parts = checked_allgather(name, v.get_distribution().hash(), mine);
  const indexed<T> *best = nullptr;
  for (const indexed<T> &x : parts) // rank order: the first of equals wins
    if (x.have && (!best || (Max ? comp(best->value, x.value) : comp(x.value, best->value))))
      best = &x;
  return best ? static_cast<std::size_t>(best->index) : v.size();
}
} // namespace detail

/// The global index of the first smallest element (size() if empty), on every rank.
template <class T, class Comp = std::less<>>
std::size_t min_element(const vector<T> &v, Comp comp = Comp{}) {
  return detail::extreme_element<false>("gpu::dist::min_element", v, comp);
}
/// The global index of the first largest element (size() if empty), on every rank.
template <class T, class Comp = std::less<>>
std::size_t max_element(const vector<T> &v, Comp comp = Comp{}) {
  return detail::extreme_element<true>("gpu::dist::max_element", v, comp);
}

/// out[i] = in[0] op ... op in[i] over the global order: each rank scans its block,
/// the ranks' totals are exchanged, and each adds its predecessors' (one more kernel).
template <class R, class T, class Op = std::plus<>>
void inclusive_scan(R &&in, vector<T> &out, Op op = Op{}) {
  auto src = detail::as_range(in);
  detail::check_aligned("gpu::dist::inclusive_scan", src.dist(), out.get_distribution());
  const std::size_t n = out.local_size();
  detail::maybe<T> total{T(), 0u};
  if (n) {
    gpu::inclusive_scan(src.local(), out.owned(), op);
    total = {detail::read_one(out.owned().data() + n - 1), 1u};
  }
  const auto parts =
      detail::checked_allgather("gpu::dist::inclusive_scan", src.dist().hash(), total);
  detail::maybe<T> prefix{T(), 0u};
  for (int r = 0; r < pacxx::dist::rank(); ++r)
    prefix = gpu::detail::maybe_op<Op>{op}(prefix, parts[static_cast<std::size_t>(r)]);
  if (n && prefix.have)
    gpu::transform(out.owned(), out.owned(), detail::apply_prefix<T, Op>{prefix.value, op});
}

/// out[i] = init op in[0] op ... op in[i-1] over the global order (a local reduction,
/// the exchange of the totals, then the local scan from the rank's prefix).
template <class R, class T, class Op = std::plus<>>
void exclusive_scan(R &&in, vector<T> &out, T init, Op op = Op{}) {
  auto src = detail::as_range(in);
  detail::check_aligned("gpu::dist::exclusive_scan", src.dist(), out.get_distribution());
  const auto parts =
      detail::checked_allgather("gpu::dist::exclusive_scan", src.dist().hash(),
                                detail::local_fold<T>(src.local(), op, detail::identity{}));
  T prefix = init;
  for (int r = 0; r < pacxx::dist::rank(); ++r)
    if (parts[static_cast<std::size_t>(r)].have)
      prefix = op(prefix, parts[static_cast<std::size_t>(r)].value);
  if (out.local_size())
    gpu::exclusive_scan(src.local(), out.owned(), prefix, op);
}

/// The elements for which pred is true, in order, as a new distributed vector: each
/// rank keeps its own selected elements (no data moves), so the result's blocks are
/// uneven; result.get_distribution().counts() reports every rank's count.
template <class T, class Pred> vector<T> copy_if(const vector<T> &in, Pred pred) {
  gpu::vector<T> mine = in.local_size() ? gpu::copy_if(in.owned(), pred) : gpu::vector<T>();
  const auto counts = detail::checked_allgather("gpu::dist::copy_if", in.get_distribution().hash(),
                                                static_cast<unsigned long long>(mine.size()));
  std::vector<std::size_t> c(counts.begin(), counts.end());
  vector<T> out(distribution::from_counts(c));
  out.with_halo() = std::move(mine);
  return out;
}

namespace detail {
// Moves `count` elements per rank (in global order across ranks) into the block
// layout of `target`: rank r's elements occupy global positions [start_r, start_r + m_r).
template <class T>
gpu::vector<T> redistribute(const gpu::vector<T> &data, const std::vector<std::size_t> &have,
                            const distribution &target) {
  const int p = pacxx::dist::size(), me = pacxx::dist::rank();
  std::vector<std::size_t> start(static_cast<std::size_t>(p) + 1, 0);
  for (int r = 0; r < p; ++r)
    start[r + 1] = start[r] + have[r];
  auto overlap = [](std::size_t a0, std::size_t a1, std::size_t b0, std::size_t b1) {
    const std::size_t lo = std::max(a0, b0), hi = std::min(a1, b1);
    return hi > lo ? hi - lo : 0;
  };
  std::vector<std::size_t> send(p), recv(p);
  for (int r = 0; r < p; ++r) {
    send[r] = sizeof(T) * overlap(start[me], start[me + 1], target.offset(r),
                                  target.offset(r) + target.count(r));
    recv[r] = sizeof(T) * overlap(start[r], start[r + 1], target.offset(me),
                                  target.offset(me) + target.count(me));
  }
  gpu::vector<T> out(target.count(me));
  pacxx::dist::detail::alltoallv_device(data.data(), send.data(), out.data(), recv.data());
  return out;
}

template <class K, class V> void local_sort(gpu::vector<K> &k, gpu::vector<V> *v) {
  if (k.size() && v)
    gpu::sort_by_key(k, *v);
  else if (k.size())
    gpu::sort(k);
}

// What arrives from the all-to-all is one sorted run per sender, in rank order
// (run r: `lengths[r]` elements after those of runs 0..r-1). Merges them pairwise,
// ceil(log2 p) passes over the data ping-ponging between k and a scratch vector, instead
// of sorting all of it again: a merge pass moves each key once, a radix sort of u32 keys
// several times (the lead's H200 run: weak/sort 115.6 ms for the local sort alone on 1
// GPU, 276 ms on 4 with the second full sort). Integral keys only: for floating-point
// keys the radix sort's order of NaNs and signed zeros is not std::less's, which the
// merge needs, so those are sorted again as before.
template <class K> void merge_runs(gpu::vector<K> &k, std::vector<std::size_t> lengths) {
  gpu::vector<K> other(k.size());
  std::size_t runs = 0;
  for (std::size_t len : lengths)
    if (len)
      lengths[runs++] = len; // empty runs need no merging
  lengths.resize(runs);
  while (lengths.size() > 1) {
    std::vector<std::size_t> merged;
    std::size_t at = 0;
    for (std::size_t j = 0; j < lengths.size(); j += 2) {
      if (j + 1 < lengths.size()) {
        const std::size_t a = lengths[j], b = lengths[j + 1];
        gpu::merge(gpu::device_span<const K>(k.data() + at, a),
                   gpu::device_span<const K>(k.data() + at + a, b),
                   gpu::device_span<K>(other.data() + at, a + b));
        merged.push_back(a + b);
        at += a + b;
      } else { // the odd run out moves to the other buffer unchanged
        pacxx::detail::copy_on_device(other.data() + at, k.data() + at, lengths[j] * sizeof(K));
        merged.push_back(lengths[j]);
        at += lengths[j];
      }
    }
    std::swap(k, other);
    lengths.swap(merged);
  }
}

// Sample sort: local sort; regular samples gathered everywhere; p-1 splitters; each
// block split by the splitters (lower_bound on the device) and sent to its bucket's
// rank (all-to-all: NCCL or host-staged MPI); what arrived merged (merge_runs) or
// sorted again; then the
// sorted sequence is moved back into the vector's original blocks.
// v: the values moved with the keys, or null.
template <class K, class V> void sample_sort(const char *name, vector<K> &keys, gpu::vector<V> *v) {
  static_assert(std::is_arithmetic<K>::value, "gpu::dist::sort: arithmetic keys only");
  pacxx::dist::detail::check_collective(name, keys.get_distribution().hash());
  const int p = pacxx::dist::size(), me = pacxx::dist::rank();
  const distribution target = keys.get_distribution();
  gpu::vector<K> &k = keys.local();
  local_sort(k, v);
  if (p == 1 || keys.size() == 0)
    return;
  const std::size_t n = k.size();
  // Oversampling: 32 samples a rank keeps buckets within a few per cent of even for
  // random keys (PSRS); duplicates of one splitter value all go to one rank.
  const std::size_t samples = std::min<std::size_t>(n, 32 * static_cast<std::size_t>(p));
  std::vector<K> mine(samples);
  if (samples) {
    std::vector<std::size_t> at(samples);
    for (std::size_t j = 0; j < samples; ++j)
      at[j] = (2 * j + 1) * n / (2 * samples);
    gpu::vector<std::size_t> at_d(at);
    gpu::vector<K> picked(samples);
    gpu::transform(at_d, picked, fetch<K>{k.data()});
    pacxx::detail::copy_to_host(mine.data(), picked.data(), samples * sizeof(K));
  }
  std::vector<K> all(32 * static_cast<std::size_t>(p) * static_cast<std::size_t>(p));
  std::vector<std::size_t> offsets(static_cast<std::size_t>(p) + 1);
  pacxx::dist::detail::allgatherv(mine.data(), samples * sizeof(K), all.data(), offsets.data(),
                                  all.size() * sizeof(K));
  all.resize(offsets[p] / sizeof(K));
  std::sort(all.begin(), all.end());
  std::vector<K> splitters(static_cast<std::size_t>(p) - 1);
  for (std::size_t j = 0; j + 1 < static_cast<std::size_t>(p); ++j)
    splitters[j] = all[(j + 1) * all.size() / static_cast<std::size_t>(p)];
  std::vector<std::size_t> bounds(static_cast<std::size_t>(p) + 1, 0);
  bounds[p] = n;
  if (n) {
    gpu::vector<K> split_d(splitters);
    gpu::vector<std::size_t> pos(splitters.size());
    gpu::lower_bound(k, split_d, pos);
    pacxx::detail::copy_to_host(bounds.data() + 1, pos.data(),
                                splitters.size() * sizeof(std::size_t));
  }
  std::vector<unsigned long long> counts(p);
  for (int r = 0; r < p; ++r)
    counts[r] = bounds[r + 1] - bounds[r];
  std::vector<unsigned long long> matrix(static_cast<std::size_t>(p) * p);
  pacxx::dist::detail::allgather(counts.data(), p * sizeof(unsigned long long), matrix.data());
  std::vector<std::size_t> send(p), recv(p), have(p, 0);
  std::size_t arriving = 0;
  for (int r = 0; r < p; ++r) {
    send[r] = counts[r];
    recv[r] = matrix[static_cast<std::size_t>(r) * p + me];
    arriving += recv[r];
    for (int s = 0; s < p; ++s)
      have[r] += matrix[static_cast<std::size_t>(s) * p + r];
  }
  auto move_all = [&](auto &data, auto *zero) {
    using E = typename std::remove_pointer<decltype(zero)>::type;
    std::vector<std::size_t> sb(p), rb(p);
    for (int r = 0; r < p; ++r) {
      sb[r] = send[r] * sizeof(E);
      rb[r] = recv[r] * sizeof(E);
    }
    gpu::vector<E> got(arriving);
    pacxx::dist::detail::alltoallv_device(data.data(), sb.data(), got.data(), rb.data());
    return got;
  };
  gpu::vector<K> kb = move_all(k, static_cast<K *>(nullptr));
  gpu::vector<V> vb;
  if (v)
    vb = move_all(*v, static_cast<V *>(nullptr));
  if (!v && std::is_integral<K>::value)
    merge_runs(kb, recv);
  else
    local_sort(kb, v ? &vb : nullptr);
  k = redistribute(kb, have, target);
  if (v)
    *v = redistribute(vb, have, target);
}
} // namespace detail

/// Sorts the distributed vector (ascending; arithmetic keys) across all ranks; the
/// distribution stays as it was. Sample sort; the data crosses ranks once, then is
/// moved back into the original blocks.
template <class K> void sort(vector<K> &keys) {
  detail::sample_sort("gpu::dist::sort", keys, static_cast<gpu::vector<K> *>(nullptr));
}
/// Sorts keys ascending and moves values with them (keys and values aligned).
template <class K, class V> void sort_by_key(vector<K> &keys, vector<V> &values) {
  detail::check_aligned("gpu::dist::sort_by_key", keys.get_distribution(),
                        values.get_distribution());
  detail::sample_sort("gpu::dist::sort_by_key", keys, &values.local());
}

} // namespace dist
} // namespace gpu
