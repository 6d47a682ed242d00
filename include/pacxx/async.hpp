// gpu::async(f, args...) (the paper's Listing 7): host containers among args are copied
// into gpu::vectors, then, on another thread, f runs on the host with them and the view
// it returns is evaluated on the device in one kernel into a new gpu::vector. The
// result is a std::future: get() and wait(); exceptions from f or the device reach get().
// A gpu::vector lvalue among args is used in place, not copied (as std::ref would pass
// it): it must outlive the future's get(). Rvalue gpu::vectors are moved in.
#pragma once
#include <functional>
#include <future>
#include <type_traits>
#include <utility>

#include "pacxx/algorithm/copy.hpp"
#include "pacxx/vector.hpp"

namespace gpu {
namespace detail {

// Host containers go to the device; everything else (numbers, gpu::vectors) as is.
template <class A> auto to_device(A &&a, std::true_type /*host container*/) { return gpu::copy(a); }
template <class A> decltype(auto) to_device(A &&a, std::false_type) { return std::forward<A>(a); }
template <class T> std::reference_wrapper<vector<T>> to_device(vector<T> &v, std::false_type) {
  return std::ref(v);
}
template <class T>
std::reference_wrapper<const vector<T>> to_device(const vector<T> &v, std::false_type) {
  return std::cref(v);
}
template <class A> decltype(auto) to_device(A &&a) {
  return to_device(std::forward<A>(a), is_host_range<typename std::decay<A>::type>{});
}

template <class A> A &unwrap(A &a) { return a; }
template <class T> T &unwrap(std::reference_wrapper<T> r) { return r.get(); }

template <class T> vector<T> evaluate(vector<T> &&v) { return std::move(v); }
template <class T> vector<T> evaluate(vector<T> &v) { return v; }
template <class View> auto evaluate(View &&view) { return materialize(std::forward<View>(view)); }

} // namespace detail

template <class F, class... Args> auto async(F f, Args &&...args) {
  return std::async(
      std::launch::async,
      [f](auto... device_args) { return detail::evaluate(f(detail::unwrap(device_args)...)); },
      detail::to_device(std::forward<Args>(args))...);
}

} // namespace gpu
