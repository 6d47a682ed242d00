// Compaction (issue 9): gpu::copy_if(in, out, pred), gpu::copy_if(in, pred),
// gpu::stable_partition(v, pred), and the passes that action::remove_if, action::unique
// and the filtered gpu::copy stand on. One pass over the data selects (CUB's
// DeviceSelect::If design, pacxx/agent/select.hpp): each tile counts its selected items,
// a block scan with the decoupled look-back gives each tile its output offset, and the
// selected items are staged through shared memory and stored coalesced.
//
// Launches. A compaction is at most two launches:
//   - out known to be large enough (out.size() >= the input's size, in place included):
//     the tiny tile-state clear and the pass; the count is read back from the last
//     tile's published inclusive prefix (one small copy to the host).
//   - out smaller than the input (copy_if(in, out, pred)) or an exactly sized result
//     (copy_if(in, pred), gpu::copy of a filtered view into a gpu::vector): a count
//     kernel first, which also clears the tile state (so it replaces the clear launch),
//     then the pass. The count decides before anything is written: an output too small
//     is a pacxx::error with out unchanged, and an exact result is allocated at its
//     size. (Passing into an n-element scratch and copying back would read the input
//     once, but needs n elements of scratch and cannot write an output view that is
//     not contiguous without a third launch.)
// The input may be any device range or a filtered pipeline (pacxx/detail/filtered.hpp:
// x | view::filter(p) | view::transform(f)), whose filters are evaluated in the loads.
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <range/v3/range/access.hpp>
#include <range/v3/range/traits.hpp>

#include "pacxx/agent/select.hpp"
#include "pacxx/algorithm/detail/clear_tiles.hpp"
#include "pacxx/algorithm/detail/readback.hpp"
#include "pacxx/algorithm/policy.hpp"
#include "pacxx/block/block_reduce.hpp"
#include "pacxx/detail/filtered.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/error.hpp"
#include "pacxx/kernel.hpp"
#include "pacxx/tools.hpp"
#include "pacxx/vector.hpp"

namespace pacxx {
namespace detail {

// The view an algorithm that evaluates filters predicated sends to the device: a
// filtered pipeline as it is, anything else as device_view does.
template <class R> auto source_view(R &&r, std::true_type /*filtered*/) {
  static_assert(is_device_copyable<typename std::decay<R>::type>::value,
                "pacxx: a filtered pipeline on a device must be made of device-copyable parts "
                "(views over gpu::vectors or generators, trivially copyable predicates and "
                "functions)");
  return ranges::views::all(std::forward<R>(r));
}
template <class R> auto source_view(R &&r, std::false_type) {
  return device_view(std::forward<R>(r));
}
template <class R> auto source_view(R &&r) {
  return source_view(std::forward<R>(r), is_filtered<typename std::decay<R>::type>{});
}
// The number of indices a source runs over: its base's size where it is filtered.
template <class V> std::size_t source_size(V &v, std::true_type) {
  return device_size(filter_access<V>::base(v));
}
template <class V> std::size_t source_size(V &v, std::false_type) { return device_size(v); }
template <class V> std::size_t source_size(V &v) { return source_size(v, is_filtered<V>{}); }

} // namespace detail
} // namespace pacxx

namespace gpu {
namespace detail {

// The type of a compaction's counts and output offsets: 32 bits where the input has
// fewer than 2^32 elements (a tile's count then travels with its status in one 64-bit
// word; with 64-bit counts the look-back took 3.1x as long at 2^28, see
// benchmarks/results/2026-11-23-h100-stl), else 64 bits. select_with calls f with the
// one n needs.
template <class F> auto select_with(std::size_t n, F &&f) {
  return n <= 0xffffffffu ? f(0u) : f(0ull);
}

// Selectors: sel(src, i, v) says whether element i of source src is selected and sets v
// to its value (always, where the element survives the source's own filters).
struct select_kept {
  template <class Src, class U> bool operator()(const Src &src, std::size_t i, U &v) const {
    if (!src.keep(i))
      return false;
    v = src.get(i);
    return true;
  }
};
template <class Pred, bool Negate = false> struct select_if {
  Pred pred;
  template <class Src, class U> bool operator()(const Src &src, std::size_t i, U &v) const {
    if (!src.keep(i))
      return false;
    v = src.get(i);
    return test(static_cast<const U &>(v));
  }
  template <class U> bool test(const U &v) const { return bool(pred(v)) != Negate; }
};
// Selectors that decide on an element's value alone (select_if): over a source that is
// not filtered, the pass loads the values first (agent::select_tile_values).
template <class Sel> struct tests_values : std::false_type {};
template <class Pred, bool Negate> struct tests_values<select_if<Pred, Negate>> : std::true_type {};
// The first element of each run of eq-equal neighbours (std::unique keeps the first).
template <class Eq> struct select_unique {
  Eq eq;
  template <class Src, class U> bool operator()(const Src &src, std::size_t i, U &v) const {
    v = src.get(i);
    if (i == 0)
      return true;
    const U prev = src.get(i - 1);
    return !bool(eq(prev, static_cast<const U &>(v)));
  }
};

// Device memory of one compaction: the tiles' state, the count kernel's partials
// (64-bit: their sum on the host may exceed 32 bits only where C is 64 bits, but one
// type keeps one count kernel per selector) and the pass's count of selected elements,
// where the results cannot go to pinned host memory (detail/readback.hpp).
template <class C> struct select_memory {
  pacxx::tile_state<C> state;
  std::size_t tiles;
  unsigned long long *partials;
  C *selected;
  pacxx::launch_config count_grid;
};
template <class P, class C> select_memory<C> select_setup(const char *name, std::size_t n) {
  constexpr std::size_t tile = P::block * P::items;
  const std::size_t tiles = pacxx::detail::ceil_div(n, tile);
  if (tiles > 0xffffffffu)
    throw pacxx::error(std::string(name) + ": " + std::to_string(n) +
                       " elements are more tiles than a compaction counts");
  using R = pacxx::policy::reduce;
  pacxx::launch_config cfg =
      pacxx::detail::grid_for(pacxx::detail::ceil_div(n, R::items), R::block, R::max_blocks);
  const std::size_t state_bytes = (pacxx::tile_state<C>::bytes(tiles) + 15) / 16 * 16;
  const std::size_t partials_bytes = cfg.grid.x * sizeof(unsigned long long);
  char *mem = static_cast<char *>(
      pacxx::detail::scratch(state_bytes + partials_bytes + sizeof(unsigned long long)));
  return {pacxx::tile_state<C>::at(mem, tiles), tiles,
          reinterpret_cast<unsigned long long *>(mem + state_bytes),
          reinterpret_cast<C *>(mem + state_bytes + partials_bytes), cfg};
}

// The tiny kernel that clears the tiles' state (detail/clear_tiles.hpp).
template <class C> void clear_tiles(const select_memory<C> &m) {
  gpu::detail::clear_tiles(m.state, m.tiles);
}

// The number of selected elements (one kernel, which also clears the tiles' state; the
// blocks' counts read on the host).
template <class V, class Sel, class C>
unsigned long long count_selected(const V &view, std::size_t n, Sel sel,
                                  const select_memory<C> &m) {
  using Q = unsigned long long;
  using P = pacxx::policy::reduce;
  const readback_memory<Q> partials(m.count_grid.grid.x, m.partials);
  pacxx::kernel(
      [sel](const auto &view, std::size_t n, const pacxx::tile_state<C> &s, std::size_t clear,
            Q *partials) {
        auto v = view;
        const auto src = pacxx::detail::make_source(v);
        using U = ranges::range_value_t<decltype(v)>;
        const std::size_t stride = pacxx::Grid::get().size.x * P::block;
        for (std::size_t i = pacxx::Thread::get().global.x; i < clear; i += stride)
          s.clear(i, clear - 1);
        Q c = 0;
        pacxx::detail::for_each_index<P>(n, [&](std::size_t i) {
          U x;
          c += sel(src, i, x) ? 1 : 0;
        });
        pacxx::block_reduce<Q, P::block> r;
        c = r.reduce(c, std::plus<Q>{});
        if (pacxx::Thread::get().local.x == 0)
          partials[pacxx::Block::get().index.x] = c;
      },
      m.count_grid)(view, n, m.state, m.tiles + 1, partials.kernel);
  Q total = 0;
  for (Q c : readback<Q>(partials))
    total += c;
  return total;
}

// The pass's tile: values first where the selector tests values alone and the source
// is not filtered (a filtered source's elements are evaluated only where kept), else
// each element's selection and value together.
template <class P, class U, bool Partition, class Src, class Sel, class Store, class Rej, class C>
__attribute__((always_inline)) inline void
select_tile_of(const Src &src, const Sel &sel, Store &store, Rej &reject, std::size_t n,
               const pacxx::tile_state<C> &s, C *total, std::true_type) {
  pacxx::agent::select_tile_values<P, U, Partition>([&](std::size_t i) -> U { return src.get(i); },
                                                    [&](const U &x) -> bool { return sel.test(x); },
                                                    store, reject, n, s, total);
}
template <class P, class U, bool Partition, class Src, class Sel, class Store, class Rej, class C>
__attribute__((always_inline)) inline void
select_tile_of(const Src &src, const Sel &sel, Store &store, Rej &reject, std::size_t n,
               const pacxx::tile_state<C> &s, C *total, std::false_type) {
  pacxx::agent::select_tile<P, U, Partition>(
      [&](std::size_t i, U &x) -> bool { return sel(src, i, x); }, store, reject, n, s, total);
}

// The pass (the tile state must be clear): selected elements to out in order, and with
// Partition the rejected ones to rejected in order. Returns the number selected.
// The pass's launch alone: the number selected is written to *total (device or pinned
// memory).
template <class P, bool Partition, class V, class Sel, class Out, class Rej, class C>
void select_pass_to(const V &view, std::size_t n, Sel sel, const Out &out, const Rej &rej,
                    const select_memory<C> &m, C *total) {
  pacxx::kernel(
      [sel](const auto &in_view, const auto &out_view, const auto &rej_view, std::size_t n,
            const pacxx::tile_state<C> &s, C *total) {
        auto v = in_view;
        auto out = out_view;
        auto rej = rej_view;
        const auto src = pacxx::detail::make_source(v);
        using U = ranges::range_value_t<decltype(v)>;
        auto result = ranges::begin(out);
        auto rejected = ranges::begin(rej);
        using DO = ranges::range_difference_t<decltype(out)>;
        using DR = ranges::range_difference_t<decltype(rej)>;
        auto store = [&](std::size_t j, const U &x) { *(result + static_cast<DO>(j)) = x; };
        auto reject = [&](std::size_t j, const U &x) { *(rejected + static_cast<DR>(j)) = x; };
        using values_first =
            std::integral_constant<bool, (tests_values<Sel>::value &&
                                          !pacxx::detail::is_filtered<decltype(v)>::value)>;
        select_tile_of<P, U, Partition>(src, sel, store, reject, n, s, total, values_first{});
      },
      pacxx::launch_config{{m.tiles}, {P::block}})(view, out, rej, n, m.state, total);
}
template <class P, bool Partition, class V, class Sel, class Out, class Rej, class C>
C select_pass(const V &view, std::size_t n, Sel sel, const Out &out, const Rej &rej,
              const select_memory<C> &m) {
  const readback_memory<C> total(1, m.selected);
  select_pass_to<P, Partition>(view, n, sel, out, rej, m, total.kernel);
  return readback<C>(total)[0];
}

// Runs a compaction of source view `in` (n indices) into the device view out of m
// elements: clear and pass where out is large enough for every index, else count
// first. Returns the number written.
template <class V, class Sel, class Out>
std::size_t select_into(const char *name, const V &in, std::size_t n, Sel sel, const Out &out,
                        std::size_t m) {
  using U = ranges::range_value_t<V>;
  using P = pacxx::policy::select_for<U>;
  if (n == 0)
    return 0;
  return select_with(n, [&](auto c_type) -> std::size_t {
    using C = decltype(c_type);
    const select_memory<C> mem = select_setup<P, C>(name, n);
    if (m < n) {
      const unsigned long long c = count_selected(in, n, sel, mem);
      if (c > m)
        throw pacxx::error(std::string(name) + ": the output has " + std::to_string(m) +
                           " elements, " + std::to_string(c) + " are selected");
      if (c == 0)
        return 0;
    } else {
      clear_tiles(mem);
    }
    return select_pass<P, false>(in, n, sel, out, out, mem);
  });
}

// A new gpu::vector<T> (T: the source's value type unless given) of exactly the
// selected elements: count, then the pass.
template <class T = void, class V, class Sel>
auto select_exact(const char *name, const V &in, Sel sel) {
  using U = ranges::range_value_t<V>;
  using E = typename std::conditional<std::is_void<T>::value, U, T>::type;
  using P = pacxx::policy::select_for<U>;
  auto v = in;
  const std::size_t n = pacxx::detail::source_size(v);
  if (n == 0)
    return vector<E>();
  return select_with(n, [&](auto c_type) {
    using C = decltype(c_type);
    const select_memory<C> mem = select_setup<P, C>(name, n);
    vector<E> out(count_selected(in, n, sel, mem));
    if (out.size() != 0)
      select_pass<P, false>(in, n, sel, ranges::views::all(out), ranges::views::all(out), mem);
    return out;
  });
}

} // namespace detail

// Copies the elements of in for which pred is true to out, in order; returns how many.
// in: any device range or filtered pipeline; out: a gpu::vector or a writable view over
// one. An out smaller than the number of selected elements is a pacxx::error, and out
// is left unchanged.
template <class In, class Out, class Pred,
          class = typename std::enable_if<ranges::range<Out>>::type>
std::size_t copy_if(In &&in, Out &&out, Pred pred) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::copy_if", in);
  static_assert(pacxx::is_device_copyable<Pred>::value,
                "gpu::copy_if: the predicate must be trivially copyable (capture values only)");
  auto src = pacxx::detail::source_view(std::forward<In>(in));
  auto dst = pacxx::detail::device_view(std::forward<Out>(out));
  const std::size_t n = pacxx::detail::source_size(src), m = pacxx::detail::device_size(dst);
  return detail::select_into("gpu::copy_if", src, n, detail::select_if<Pred>{pred}, dst, m);
}

// The same with the count kept on the device: *count (a device pointer, e.g. v.data() of
// a gpu::vector<int>) is written in queue order and nothing is read back, so the call
// can be captured in a pacxx::graph. out must have room for every element of in (the
// count that would decide a smaller one is not known on the host).
template <class In, class Out, class Pred, class I,
          class = typename std::enable_if<ranges::range<Out> && std::is_integral<I>::value>::type>
void copy_if(In &&in, Out &&out, Pred pred, I *count) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::copy_if", in);
  static_assert(pacxx::is_device_copyable<Pred>::value,
                "gpu::copy_if: the predicate must be trivially copyable (capture values only)");
  auto src = pacxx::detail::source_view(std::forward<In>(in));
  auto dst = pacxx::detail::device_view(std::forward<Out>(out));
  const std::size_t n = pacxx::detail::source_size(src), m = pacxx::detail::device_size(dst);
  if (m < n)
    throw pacxx::error("gpu::copy_if (count on the device): the output has " + std::to_string(m) +
                       " elements, fewer than the input's " + std::to_string(n) +
                       "; the count that would decide whether they suffice stays on the device");
  if (n == 0) {
    gpu::detail::fill_n(count, 1, I(0));
    return;
  }
  using U = ranges::range_value_t<decltype(src)>;
  using P = pacxx::policy::select_for<U>;
  detail::select_with(n, [&](auto c_type) {
    using C = decltype(c_type);
    const detail::select_memory<C> mem = detail::select_setup<P, C>("gpu::copy_if", n);
    detail::clear_tiles(mem);
    detail::select_pass_to<P, false>(src, n, detail::select_if<Pred>{pred}, dst, dst, mem,
                                     mem.selected);
    pacxx::kernel([](const C *total, I *out) { *out = static_cast<I>(*total); },
                  pacxx::launch_config{{1}, {1}})(static_cast<const C *>(mem.selected), count);
    return 0;
  });
}

// A new gpu::vector holding exactly the elements of in for which pred is true.
template <class In, class Pred> auto copy_if(In &&in, Pred pred) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::copy_if", in);
  static_assert(pacxx::is_device_copyable<Pred>::value,
                "gpu::copy_if: the predicate must be trivially copyable (capture values only)");
  return detail::select_exact("gpu::copy_if", pacxx::detail::source_view(std::forward<In>(in)),
                              detail::select_if<Pred>{pred});
}

// Reorders v so that the elements for which pred is true come first, both parts in
// their original order; returns the number of true elements. One pass (and the tile
// clear): the true elements are written in place (safe, as in remove_if), the false
// ones to pooled scratch, copied behind them afterwards (a device copy, not a launch).
template <class T, class Pred> std::size_t stable_partition(vector<T> &v, Pred pred) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::stable_partition", v);
  static_assert(pacxx::is_device_copyable<Pred>::value,
                "gpu::stable_partition: the predicate must be trivially copyable (capture "
                "values only)");
  using P = pacxx::policy::select_for<T>;
  const std::size_t n = v.size();
  if (n == 0)
    return 0;
  vector<T> rejected(n);
  auto view = pacxx::detail::device_view(v);
  const std::size_t t = detail::select_with(n, [&](auto c_type) -> std::size_t {
    using C = decltype(c_type);
    const detail::select_memory<C> mem = detail::select_setup<P, C>("gpu::stable_partition", n);
    detail::clear_tiles(mem);
    return detail::select_pass<P, true>(view, n, detail::select_if<Pred>{pred}, view,
                                        pacxx::detail::device_view(rejected), mem);
  });
  pacxx::detail::copy_on_device(v.data() + t, rejected.data(), (n - t) * sizeof(T));
  return t;
}

} // namespace gpu
