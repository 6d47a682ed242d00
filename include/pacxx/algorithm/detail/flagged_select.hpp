// Compaction of a view of flagged elements ({value, keep}): the kept values, in order,
// into a device view (the compaction pass, pacxx/algorithm/copy_if.hpp). The
// non-trivial runs of gpu::run_length_encode_non_trivial select so.
#pragma once
#include <cstddef>

#include "pacxx/algorithm/copy_if.hpp"
#include "pacxx/transform_output.hpp"

namespace gpu {
namespace detail {

template <class T> struct flagged_element {
  T value;
  bool keep;
};

// The selector over the flagged view: its flag, and its value.
struct select_flagged {
  template <class Src, class U> bool operator()(const Src &src, std::size_t i, U &v) const {
    v = src.get(i);
    return v.keep;
  }
};
// What goes to the output: the value of a flagged element.
struct flagged_value {
  template <class T> T operator()(const flagged_element<T> &f) const { return f.value; }
};

// The kept elements of a flagged view of n elements into device view out of m elements
// (an error, out unchanged, if they do not fit); returns how many.
template <class F, class Out>
std::size_t select_flagged_into(const char *name, const F &flags, std::size_t n, const Out &out,
                                std::size_t m) {
  return select_into(name, flags, n, select_flagged{},
                     gpu::views::transform_output(out, flagged_value{}), m);
}

} // namespace detail
} // namespace gpu
