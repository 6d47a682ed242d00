// gpu::async(f, args...) (the paper's Listing 7): host containers among args are copied
// into gpu::vectors, f runs on the host with them (on the calling thread: no thread per
// call) and the view it returns is evaluated on the device in one kernel into a new
// gpu::vector, on this thread's current queue (gpu::async(q, f, args...): on q). The
// result is a pacxx::future completed by a device event after the kernel: get() waits
// for it and returns the vector; exceptions from f or the device reach get(). The call
// costs the synchronous evaluation plus one event.
// A gpu::vector lvalue among args is used in place, not copied (as std::ref would pass
// it): it must outlive the future's get(). Rvalue gpu::vectors are moved in.
#pragma once
#include <exception>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

#include "pacxx/algorithm/copy.hpp"
#include "pacxx/queue.hpp"
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

template <class A>
using device_arg_t = typename std::decay<decltype(to_device(std::declval<A>()))>::type;

// What f returns for the device forms of Args, evaluated (a gpu::vector).
template <class F, class... Args>
using async_result_t =
    decltype(evaluate(std::declval<F &>()(unwrap(std::declval<device_arg_t<Args> &>())...)));

template <class F> struct async_call {
  F &f;
  template <class... D> auto operator()(D... device_args) const {
    return evaluate(f(unwrap(device_args)...));
  }
};

} // namespace detail

// Runs f(args...) on the host with host containers among args copied to gpu::vectors
// (gpu::vector lvalues used in place, rvalues moved in), evaluates the view f returns in
// one kernel into a new gpu::vector on this thread's current queue, and returns a
// future of that vector, completed by a device event. Exceptions from f or the device
// are rethrown by the future's get().
template <class F, class... Args,
          class = typename std::enable_if<
              !std::is_same<typename std::decay<F>::type, pacxx::queue>::value>::type>
pacxx::future<detail::async_result_t<F, Args...>> async(F f, Args &&...args) {
  using R = detail::async_result_t<F, Args...>;
  try {
    // The device forms of args live until the kernel is enqueued; freed memory is
    // reused only behind it (the queue is in order; other queues: the pool's fence).
    auto result = std::make_shared<R>(
        detail::async_call<F>{f}(detail::to_device(std::forward<Args>(args))...));
    // In pacxx::capture the graph's replays write the result: the graph holds it too.
    pacxx::detail::capture_hold(result);
    return pacxx::future<R>(pacxx::record(), [result]() { return std::move(*result); });
  } catch (...) {
    return pacxx::future<R>::failed(std::current_exception());
  }
}

// gpu::async on queue q.
template <class F, class... Args>
pacxx::future<detail::async_result_t<F, Args...>> async(const pacxx::queue &q, F f,
                                                        Args &&...args) {
  pacxx::queue_scope on(q);
  return gpu::async(f, std::forward<Args>(args)...);
}

} // namespace gpu
