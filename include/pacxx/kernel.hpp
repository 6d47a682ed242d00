// pacxx::kernel(f, config): a C++ callable becomes a launchable GPU kernel.
//
// On a launch the closure and the arguments are packed into one trivially copyable
// payload; the offline compiler has extracted kernel_entry<Payload> (and all it calls)
// into device IR, and the runtime JIT-compiles and launches it with the payload bytes.
#pragma once
#include <cstddef>
#include <type_traits>
#include <utility>

#include "pacxx/queue.hpp"
#include "pacxx/runtime.hpp"

namespace pacxx {

// Whether the bytes of a T can be sent to a device and used there. Here: types whose
// copy is a byte copy (numbers, device pointers, plain structs, std::pair/tuple/array
// of them, lambdas capturing such). pacxx/device_range.hpp adds range-v3 views made
// of device-copyable parts.
template <class T, class = void>
struct is_device_copyable
    : std::integral_constant<bool, std::is_trivially_copyable<T>::value ||
                                       (std::is_trivially_copy_constructible<T>::value &&
                                        std::is_trivially_destructible<T>::value)> {};

namespace detail {

template <class... Ts> struct all_device_copyable : std::true_type {};
template <class T, class... Ts>
struct all_device_copyable<T, Ts...>
    : std::integral_constant<bool,
                             is_device_copyable<T>::value && all_device_copyable<Ts...>::value> {};

// An aggregate holding the arguments (std::tuple is not trivially copyable in
// libstdc++, so it cannot be the payload).
template <class... Ts> struct arg_pack {};
template <class T, class... Ts> struct arg_pack<T, Ts...> {
  T head;
  arg_pack<Ts...> tail;
};

// Built level by level, so that every member is initialised explicitly (brace elision
// over the nested packs would leave the innermost `tail` implicit: -Wmissing-braces and
// -Wmissing-field-initializers in users' -Wall -Wextra builds).
inline arg_pack<> make_arg_pack() { return {}; }
template <class T, class... Ts> arg_pack<T, Ts...> make_arg_pack(const T &head, const Ts &...tail) {
  return {head, make_arg_pack(tail...)};
}

template <std::size_t I> struct pack_get {
  template <class T, class... Ts> static auto &get(const arg_pack<T, Ts...> &p) {
    return pack_get<I - 1>::get(p.tail);
  }
};
template <> struct pack_get<0> {
  template <class T, class... Ts> static const T &get(const arg_pack<T, Ts...> &p) {
    return p.head;
  }
};

template <class F, class... Args> struct payload {
  F f;
  arg_pack<Args...> args;

  template <std::size_t... I> void call(std::index_sequence<I...>) const {
    f(pack_get<I>::get(args)...);
  }
  void operator()() const { call(std::index_sequence_for<Args...>{}); }
};

// The kernel. The offline compiler finds every instantiation by this name, so its
// body runs on the device only.
template <class P> void kernel_entry(const P &p) { p(); }

} // namespace detail

// What pacxx::kernel(f, config) returns: calling it with arguments launches f on the
// device with them (asynchronously, on this thread's current queue or the one given by on()).
template <class F> class kernel_launcher {
  F f_;
  launch_config config_;
  const queue *queue_ = nullptr; // null: this thread's current queue

public:
  // f launched with config (pacxx::kernel makes these).
  kernel_launcher(F f, launch_config config) : f_(f), config_(config) {}

  // The grid, block and dynamic shared memory of the launches.
  const launch_config &config() const { return config_; }
  // The same kernel, launched on q (which must outlive the launcher).
  kernel_launcher on(const queue &q) const {
    kernel_launcher k = *this;
    k.queue_ = &q;
    return k;
  }

  // Launches the kernel with args (device copyable: device pointers, numbers, plain
  // structs, views over gpu::vectors); returns at once.
  template <class... Args> void operator()(Args... args) const {
    static_assert(is_device_copyable<F>::value,
                  "pacxx::kernel: the kernel's closure must be trivially copyable (capture "
                  "values and device pointers, never containers or references; pass views "
                  "as kernel arguments)");
    static_assert(detail::all_device_copyable<typename std::decay<Args>::type...>::value,
                  "pacxx::kernel: kernel arguments must be device copyable (device pointers, "
                  "numbers, plain structs, views over gpu::vectors), never host containers "
                  "or views over them");
    using P = detail::payload<F, typename std::decay<Args>::type...>;
    const P p{f_, detail::make_arg_pack(args...)};
    if (queue_) {
      queue_scope on(*queue_);
      detail::launch(reinterpret_cast<const void *>(&detail::kernel_entry<P>), &p, sizeof(P),
                     alignof(P), config_);
      return;
    }
    detail::launch(reinterpret_cast<const void *>(&detail::kernel_entry<P>), &p, sizeof(P),
                   alignof(P), config_);
  }
};

// Makes a launchable kernel of f: kernel(f, {{blocks...}, {threads...}[, shared bytes]}).
template <class F> kernel_launcher<F> kernel(F f, launch_config config) {
  return kernel_launcher<F>(f, config);
}

} // namespace pacxx
