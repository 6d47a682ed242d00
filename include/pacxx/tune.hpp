// Run-time tuning (issue 36): a kernel's policy declared as a space of candidate
// policies, each a type whose constants (threads, items per thread, tile sizes,
// unrolling) enter the kernel at compile time or through pacxx::stage, and a choice
// among them made on the device the program runs on.
//
//   PACXX_TUNE=0        the built-in policy (a space's first candidate) everywhere
//   PACXX_TUNE=1        the stored choice where one exists, else the built-in (default)
//   PACXX_TUNE=explore  also explores what is not stored yet: the first call for a
//                       (family, device, size class) times the candidates on the
//                       running device within PACXX_TUNE_BUDGET_MS and stores the
//                       fastest next to the kernel cache, for every later call and run
//
// A candidate the device refuses (more threads than the kernel may have with its
// registers, more shared memory than a block may use: the runtime checks every launch
// against the loaded kernel's limits) throws pacxx::error in its trial and is pruned.
// The records are sealed, checksummed files keyed by everything they depend on (pacxx
// version, family, the space's candidates, device, size class); one that is corrupt,
// foreign or stale is ignored and replaced, never trusted. docs/tuning.md shows how a
// user kernel becomes tunable; pacxx-tune PROGRAM [ARGS] explores and prints the records.
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>

#include "pacxx/error.hpp"

namespace pacxx {
namespace detail {
// The runtime's side (runtime/tune/tune.cpp).
// 0: built-in policies, 1: stored results, 2: explore (PACXX_TUNE).
int tune_mode();
// The stored choice (index into the space) for this key, or -1: built-in mode, nothing
// stored, or a record that was corrupt, foreign or stale (ignored).
long tune_lookup(const std::string &family, const std::string &space, std::uint64_t size_class,
                 std::size_t count);
// Times candidates 0 .. count-1 (trial(ctx, i) runs candidate i once; it may throw
// pacxx::error to be pruned) within the time budget, stores and returns the fastest.
std::size_t tune_explore(const std::string &family, const std::string &space,
                         std::uint64_t size_class, std::size_t count, const std::string *names,
                         void (*trial)(void *ctx, std::size_t i), void *ctx);
// The lanes of a warp of the current device (pacxx::warp::size() in its kernels): 32 on
// CUDA, 1 on OpenCL.
unsigned device_warp_size();
} // namespace detail

namespace tune {

/// A space of candidate policies. The first one is the built-in policy, used with
/// PACXX_TUNE=0 and wherever nothing is stored; every candidate must compute the same
/// results (bitwise where the arithmetic is exact). A candidate is a default-constructible
/// type; `static std::string describe()` names it in records (else its position does).
template <class... Policies> struct space {
  /// The number of candidates.
  static constexpr std::size_t size = sizeof...(Policies);
};

/// A list of values of one parameter, for tune::product.
template <std::size_t... Values> struct values {};

namespace detail {
template <class S, class P> struct prepend;
template <class... Ps, class P> struct prepend<space<Ps...>, P> {
  using type = space<P, Ps...>;
};
template <class A, class B> struct concat;
template <class... A, class... B> struct concat<space<A...>, space<B...>> {
  using type = space<A..., B...>;
};

// The points of Point<Fixed..., v, ...> for v in the first list, then the rest.
template <template <std::size_t...> class Point, class Fixed, class... Lists> struct product_impl;
template <template <std::size_t...> class Point, std::size_t... Fixed>
struct product_impl<Point, values<Fixed...>> {
  using type = space<Point<Fixed...>>;
};
template <template <std::size_t...> class Point, std::size_t... Fixed, class... Rest>
struct product_impl<Point, values<Fixed...>, values<>, Rest...> {
  using type = space<>;
};
template <template <std::size_t...> class Point, std::size_t... Fixed, std::size_t V,
          std::size_t... Vs, class... Rest>
struct product_impl<Point, values<Fixed...>, values<V, Vs...>, Rest...> {
  using type = typename concat<
      typename product_impl<Point, values<Fixed..., V>, Rest...>::type,
      typename product_impl<Point, values<Fixed...>, values<Vs...>, Rest...>::type>::type;
};

template <class P, class S> struct remove_one;
template <class P> struct remove_one<P, space<>> {
  using type = space<>;
};
template <class P, class Q, class... Qs> struct remove_one<P, space<Q, Qs...>> {
  using rest = typename remove_one<P, space<Qs...>>::type;
  using type = typename std::conditional<std::is_same<P, Q>::value, rest,
                                         typename prepend<rest, Q>::type>::type;
};

template <class S, std::size_t I> struct invoke_at;
template <class P, std::size_t I> struct invoke_at<space<P>, I> {
  template <class F> static decltype(auto) call(std::size_t, F &f) { return f(P{}); }
};
template <class P, class Q, class... Ps, std::size_t I> struct invoke_at<space<P, Q, Ps...>, I> {
  template <class F> static decltype(auto) call(std::size_t i, F &f) {
    if (i == I)
      return f(P{});
    return invoke_at<space<Q, Ps...>, I + 1>::call(i, f);
  }
};

template <class P> auto describe(int) -> decltype(P::describe()) { return P::describe(); }
template <class P> std::string describe(long) { return std::string(); }

template <class S> struct names;
template <class... Ps> struct names<space<Ps...>> {
  static const std::string *get() {
    static const std::string n[sizeof...(Ps)] = {std::string(describe<Ps>(0))...};
    return n;
  }
};
// Candidates that declare `one_lane_only` true are made for devices whose warp is one
// lane (PoCL's work-items, run one after the other: contiguous runs a work-item); on a
// GPU they would run a few threads through the whole input, so exploration prunes them
// there instead of timing them.
template <class P, class = void> struct one_lane_only : std::false_type {};
template <class P>
struct one_lane_only<P, decltype(void(P::one_lane_only))>
    : std::integral_constant<bool, P::one_lane_only> {};
template <class P> void check_fits(const P &) {
  if (one_lane_only<P>::value && pacxx::detail::device_warp_size() > 1)
    throw pacxx::error("made for devices whose warp is one lane");
}

// "count;name0;name1;...": what a record's choice is an index into.
template <class Space> const std::string &signature() {
  static const std::string s = [] {
    const std::string *names = detail::names<Space>::get();
    std::string s = std::to_string(Space::size);
    for (std::size_t i = 0; i < Space::size; ++i)
      s += ";" + (names[i].empty() ? "#" + std::to_string(i) : names[i]);
    return s;
  }();
  return s;
}
} // namespace detail

/// The space of every Point<a, b, ...> with a from the first values list, b from the
/// second, ...: tune::product<reduce_point, values<128, 256>, values<4, 8, 16>>.
template <template <std::size_t...> class Point, class... Lists>
using product = typename detail::product_impl<Point, values<>, Lists...>::type;

/// Space with Default first and, after it, Space's candidates other than Default.
template <class Default, class Space>
using with_default =
    typename detail::prepend<typename detail::remove_one<Default, Space>::type, Default>::type;

/// "block=256 items=8" for describe(): names separated by spaces, one value each.
inline std::string describe_values(const char *names, std::initializer_list<std::size_t> values) {
  std::string s, name;
  auto v = values.begin();
  for (const char *c = names;; ++c) {
    if (*c == ' ' || *c == '\0') {
      if (!name.empty() && v != values.end())
        s += (s.empty() ? "" : " ") + name + "=" + std::to_string(*v++);
      name.clear();
      if (*c == '\0')
        break;
    } else {
      name += *c;
    }
  }
  return s;
}

/// The size class of a problem of n elements: n's bit width (0 for 0), so that the
/// choice made at 2^20 serves 2^20 .. 2^21 - 1.
inline std::uint64_t size_class(std::uint64_t n) {
  std::uint64_t c = 0;
  while (n) {
    ++c;
    n >>= 1;
  }
  return c;
}
/// The size class of a shape: each extent's class, 8 bits each.
inline std::uint64_t size_class(std::uint64_t a, std::uint64_t b, std::uint64_t c = 0) {
  return size_class(a) << 16 | size_class(b) << 8 | size_class(c);
}

/// The tuning mode of this process: 0 (built-in policies), 1 (stored results) or 2
/// (explore), from PACXX_TUNE.
inline int mode() { return pacxx::detail::tune_mode(); }

/// Calls f(P{}) for the space's candidate number i (0 when i is out of range).
template <class Space, class F> decltype(auto) invoke(std::size_t i, F &&f) {
  static_assert(Space::size > 0, "pacxx::tune: an empty space");
  return detail::invoke_at<Space, 0>::call(i < Space::size ? i : 0, f);
}

/// The candidate of Space to use for `family` (a name of the kernel and what changes its
/// code: "gpu::reduce/4") at `size_class`: the built-in one (0) with PACXX_TUNE=0, the
/// stored choice with 1, and with explore, where nothing is stored, the fastest of the
/// candidates that trial(P{}) runs (one complete, repeatable run of the work under policy
/// P; it must not change what the caller sees, e.g. write to a scratch copy), or the
/// built-in one where the fastest is less than 3 % faster than it (timing noise).
template <class Space, class Trial>
std::size_t choose(const std::string &family, std::uint64_t size_class, Trial &&trial) {
  if (Space::size == 1 || mode() == 0)
    return 0;
  const long stored =
      pacxx::detail::tune_lookup(family, detail::signature<Space>(), size_class, Space::size);
  if (stored >= 0)
    return static_cast<std::size_t>(stored);
  if (mode() != 2)
    return 0;
  using T = typename std::remove_reference<Trial>::type;
  return pacxx::detail::tune_explore(
      family, detail::signature<Space>(), size_class, Space::size, detail::names<Space>::get(),
      [](void *ctx, std::size_t i) {
        invoke<Space>(i, [ctx](auto policy) {
          detail::check_fits(policy);
          (*static_cast<T *>(ctx))(policy);
        });
      },
      &trial);
}

/// The stored choice for `family` at `size_class` (as choose, but never exploring): for
/// calls that cannot run a trial (one whose result depends on what it overwrites).
template <class Space> std::size_t stored(const std::string &family, std::uint64_t size_class) {
  if (Space::size == 1 || mode() == 0)
    return 0;
  const long stored =
      pacxx::detail::tune_lookup(family, detail::signature<Space>(), size_class, Space::size);
  return stored >= 0 ? static_cast<std::size_t>(stored) : 0;
}

/// Runs run(P{}) under the chosen candidate P (tune::choose) and returns its result.
/// trial: as in choose; run itself when it is repeatable and changes nothing the caller
/// would see twice (a reduction into a result it returns).
template <class Space, class Run, class Trial>
decltype(auto) run(const std::string &family, std::uint64_t size_class, Run &&run, Trial &&trial) {
  return invoke<Space>(choose<Space>(family, size_class, trial), run);
}
/// run(family, size_class, run, run): for a run that is its own trial.
template <class Space, class Run>
decltype(auto) run(const std::string &family, std::uint64_t size_class, Run &&run) {
  return invoke<Space>(choose<Space>(family, size_class, run), run);
}

} // namespace tune
} // namespace pacxx
