// The set operations on sorted ranges (set_intersection, set_difference, set_union,
// set_symmetric_difference) as compactions, with std's multiset semantics: of the
// elements equivalent to some v, a holding m and b holding n, element r (counted from
// 0) of a's is in the intersection where r < n, in a - b where r >= n, and so on. So
// whether an element of one range is in the result depends on its rank among its
// equivalents and on how many equivalents the other range holds: two binary searches,
// without looking at any other output. Elements are selected in order (the compaction
// pass, pacxx/agent/select.hpp), and where both ranges contribute (union, symmetric
// difference) the selections are merged (pacxx/algorithm/merge.hpp, a's elements first
// on ties, as std's).
//
// This is not yet the single merge-path pass of Thrust's set operations: each element
// pays O(log n) dependent loads, and union and symmetric difference go through scratch
// and a merge. The indices of the selection view are 32-bit (range-v3's 64-bit iota
// counts with a type that the device cannot use), so each input has fewer than 2^32
// elements.
#pragma once
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include <range/v3/range/access.hpp>
#include <range/v3/range/traits.hpp>
#include <range/v3/view/iota.hpp>
#include <range/v3/view/transform.hpp>

#include "pacxx/algorithm/copy_if.hpp"
#include "pacxx/algorithm/detail/search_one.hpp"
#include "pacxx/algorithm/merge.hpp"
#include "pacxx/device_range.hpp"
#include "pacxx/error.hpp"
#include "pacxx/transform_output.hpp"

namespace gpu {
namespace detail {

template <class T> struct set_element {
  T value;
  bool keep;
};

// i -> {mine[i], whether it is kept}: kept where its rank among its equivalents in mine
// is below (Below) or not below the number of its equivalents in other.
template <class M, class O, class Comp, bool Below> struct set_flag {
  mutable M mine;
  mutable O other;
  std::size_t no;
  Comp comp;
  using T = ranges::range_value_t<M>;
  set_element<T> operator()(std::uint32_t i) const {
    auto fm = ranges::begin(mine);
    const T v = *(fm + static_cast<ranges::range_difference_t<M>>(i));
    const std::size_t rank =
        i - partition_point_at(fm, i, [&](const auto &e) { return bool(comp(e, v)); });
    auto fo = ranges::begin(other);
    const std::size_t lo =
        partition_point_at(fo, no, [&](const auto &e) { return bool(comp(e, v)); });
    // Only whether rank < count matters: the equivalents of other from lo on, up to
    // rank + 1 of them.
    const std::size_t span = no - lo < rank + 1 ? no - lo : rank + 1;
    const std::size_t count = partition_point_at(
        fo + static_cast<ranges::range_difference_t<O>>(lo), span,
        [&](const auto &e) { return !bool(comp(v, e)); });
    return {v, Below ? rank < count : rank >= count};
  }
};

// The selector over the flagged view: its flag, and its value.
struct select_flagged {
  template <class Src, class U> bool operator()(const Src &src, std::size_t i, U &v) const {
    v = src.get(i);
    return v.keep;
  }
};
// What goes to the output: the value of a flagged element.
struct set_element_value {
  template <class T> T operator()(const set_element<T> &f) const { return f.value; }
};

// The flagged view of mine against other.
template <bool Below, class M, class O, class Comp>
auto flag_view(const char *name, const M &mine, std::size_t nm, const O &other, std::size_t no,
               Comp comp) {
  if (nm > std::numeric_limits<std::uint32_t>::max() ||
      no > std::numeric_limits<std::uint32_t>::max())
    throw pacxx::error(std::string(name) + ": inputs of " + std::to_string(nm) + " and " +
                       std::to_string(no) + " elements; each must have fewer than 2^32");
  return ranges::views::iota(std::uint32_t(0), static_cast<std::uint32_t>(nm)) |
         ranges::views::transform(set_flag<M, O, Comp, Below>{mine, other, no, comp});
}

// The selected elements of a flagged view of n elements into device view out of m
// elements (an error, out unchanged, if they do not fit); returns how many.
template <class F, class Out>
std::size_t select_flagged_into(const char *name, const F &flags, std::size_t n, const Out &out,
                                std::size_t m) {
  return select_into(name, flags, n, select_flagged{},
                     gpu::views::transform_output(out, set_element_value{}), m);
}

} // namespace detail
} // namespace gpu

namespace pacxx {
template <class M, class O, class Comp, bool Below>
struct is_device_copyable<gpu::detail::set_flag<M, O, Comp, Below>>
    : std::integral_constant<bool, is_device_copyable<M>::value && is_device_copyable<O>::value &&
                                       is_device_copyable<Comp>::value> {};
} // namespace pacxx
