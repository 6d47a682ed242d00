// Small function objects the eager algorithms build from their arguments, and the pipe
// forms (rng | gpu::count_if(pred)): a closure holds the algorithm's other arguments and
// calls it with the range.
#pragma once
#include <utility>

namespace gpu {
namespace detail {

template <class F> struct pipe_closure {
  F f;
  template <class Rng>
  friend auto operator|(Rng &&rng, pipe_closure c)
      -> decltype(std::declval<F &>()(std::forward<Rng>(rng))) {
    return c.f(std::forward<Rng>(rng));
  }
};
template <class F> pipe_closure<F> make_pipe(F f) { return {f}; }

// x == value
template <class T> struct equal_to_value {
  T value;
  template <class X> bool operator()(const X &x) const { return bool(x == value); }
};
// !pred(x)
template <class Pred> struct negate {
  Pred pred;
  template <class X> bool operator()(X &&x) const { return !bool(pred(std::forward<X>(x))); }
};
// comp(b, a)
template <class Comp> struct flip {
  Comp comp;
  template <class A, class B> bool operator()(const A &a, const B &b) const {
    return bool(comp(b, a));
  }
};

} // namespace detail
} // namespace gpu
