// Reductions that do not wait, on this thread's current queue (pacxx/queue.hpp):
//   gpu::reduce_async(rng, init[, op])                  -> pacxx::future<T>
//   gpu::transform_reduce_async(rng, init, rop, top)    -> pacxx::future<T>
//   gpu::count_if_async(rng, pred)                      -> pacxx::future<std::size_t>
// gpu::reduce's kernel, then an asynchronous copy of its block partials into pinned
// host memory and an event; get() waits for the event and folds the partials on the
// host, as gpu::reduce does (the same result, bit for bit). No host thread, no wait at
// the call. Errors of the call reach get().
//
//   gpu::reduce_to(rng, out, init[, op])
// keeps the result on the device: *out (a device pointer, e.g. v.data() + i of a
// gpu::vector) is written by a second, one-block kernel that folds the partials, in
// queue order, so that a later kernel or algorithm on the same queue reads it without a
// host round trip.
#pragma once
#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

#include "pacxx/algorithm/count.hpp"
#include "pacxx/algorithm/reduce.hpp"
#include "pacxx/algorithm/transform_reduce.hpp"
#include "pacxx/queue.hpp"
#include "pacxx/tools.hpp"

namespace gpu {
namespace detail {

// n values of T in pinned host memory, given back to the runtime's pinned pool.
template <class T> class pinned_buffer {
  T *p_;

public:
  explicit pinned_buffer(std::size_t n)
      : p_(static_cast<T *>(pacxx::detail::host_allocate(n * sizeof(T)))) {}
  ~pinned_buffer() { pacxx::detail::host_free(p_); }
  pinned_buffer(const pinned_buffer &) = delete;
  pinned_buffer &operator=(const pinned_buffer &) = delete;
  T *data() const { return p_; }
};

// The fold of init and T(transform(in[i], i)) (gpu::reduce's kernel), as a future.
template <class T, class Rng, class Op, class Transform>
pacxx::future<T> transform_reduce_async(Rng &&rng, T init, Op op, Transform transform) {
  try {
    auto in = pacxx::detail::device_view(std::forward<Rng>(rng));
    const std::size_t n = pacxx::detail::device_size(in);
    if (n == 0)
      return pacxx::make_ready_future(init);
    const partials_on_device<T> p = launch_partials<T>(in, n, transform, op, op);
    const std::size_t blocks = p.blocks;
    auto host = std::make_shared<pinned_buffer<T>>(blocks);
    // In pacxx::capture the copy is the graph's, into pinned memory the graph holds too;
    // get() folds what the graph's latest launch copied.
    pacxx::detail::capture_hold(host);
    pacxx::detail::copy_to_host_async(host->data(), p.data, blocks * sizeof(T));
    return pacxx::future<T>(pacxx::record(), [host, blocks, init, op]() {
      // gpu::reduce's fold of the partials: the same result, bit for bit.
      return op(init, fold_partials(host->data(), blocks, op));
    });
  } catch (...) {
    return pacxx::future<T>::failed(std::current_exception());
  }
}

// One block folds m partials and init into *out (the threads' folds may be empty).
template <class T, class Op>
void finish_on_device(const T *partials, std::size_t m, T init, Op op, T *out) {
  using P = pacxx::policy::reduce;
  pacxx::kernel(
      [op](const T *partials, std::size_t m, T init, T *out) {
        const std::size_t t = pacxx::Thread::get().local.x;
        maybe<T> acc{T(), 0u};
        for (std::size_t i = t; i < m; i += P::block) {
          acc.value = acc.have ? op(acc.value, partials[i]) : partials[i];
          acc.have = 1u;
        }
        pacxx::block_reduce<maybe<T>, P::block> r;
        acc = r.reduce(acc, maybe_op<Op>{op});
        if (t == 0)
          *out = acc.have ? op(init, acc.value) : init;
      },
      {{1}, {P::block}})(partials, m, init, out);
}

} // namespace detail

// gpu::reduce without waiting: the kernel, an asynchronous copy of its partials to pinned
// host memory and an event on this thread's current queue; the future's get() waits and
// folds the partials (the same result as gpu::reduce, bit for bit). Errors reach get().
template <class Rng, class T, class Op = std::plus<>,
          class = typename std::enable_if<ranges::range<Rng>>::type>
pacxx::future<T> reduce_async(Rng &&rng, T init, Op op = Op{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::reduce_async", rng);
  static_assert(
      pacxx::is_device_copyable<Op>::value,
      "gpu::reduce_async: the operation must be trivially copyable (capture values only)");
  static_assert(pacxx::is_device_copyable<T>::value,
                "gpu::reduce_async: T must be device copyable");
  return detail::transform_reduce_async(std::forward<Rng>(rng), init, op, detail::element{});
}

// gpu::transform_reduce without waiting, as gpu::reduce_async.
template <class Rng, class T, class ReduceOp, class TransformOp,
          class = typename std::enable_if<ranges::range<Rng>>::type>
pacxx::future<T> transform_reduce_async(Rng &&rng, T init, ReduceOp reduce_op,
                                        TransformOp transform_op) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::transform_reduce_async", rng);
  static_assert(pacxx::is_device_copyable<ReduceOp>::value &&
                    pacxx::is_device_copyable<TransformOp>::value,
                "gpu::transform_reduce_async: the operations must be trivially copyable");
  static_assert(pacxx::is_device_copyable<T>::value,
                "gpu::transform_reduce_async: T must be device copyable");
  return detail::transform_reduce_async(std::forward<Rng>(rng), init, reduce_op,
                                        detail::ignore_index<TransformOp>{transform_op});
}

// gpu::count_if without waiting, as gpu::reduce_async.
template <class Rng, class Pred, class = typename std::enable_if<ranges::range<Rng>>::type>
pacxx::future<std::size_t> count_if_async(Rng &&rng, Pred pred) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::count_if_async", rng);
  static_assert(pacxx::is_device_copyable<Pred>::value,
                "gpu::count_if_async: the predicate must be trivially copyable");
  return detail::transform_reduce_async(std::forward<Rng>(rng), std::size_t(0), std::plus<>{},
                                        detail::count_one<Pred>{pred});
}

// *out = init op (the fold of rng), on the device (out: a device pointer).
template <class Rng, class T, class Op = std::plus<>,
          class = typename std::enable_if<ranges::range<Rng>>::type>
void reduce_to(Rng &&rng, T *out, T init, Op op = Op{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::reduce_to", rng);
  static_assert(pacxx::is_device_copyable<Op>::value,
                "gpu::reduce_to: the operation must be trivially copyable (capture values only)");
  static_assert(pacxx::is_device_copyable<T>::value, "gpu::reduce_to: T must be device copyable");
  auto in = pacxx::detail::device_view(std::forward<Rng>(rng));
  const std::size_t n = pacxx::detail::device_size(in);
  if (n == 0) {
    detail::fill_n(out, 1, init);
    return;
  }
  const detail::partials_on_device<T> p =
      detail::launch_partials<T>(in, n, detail::element{}, op, op);
  detail::finish_on_device(p.data, p.blocks, init, op, out);
}
// *out = init op (the fold of rng) on the device, out an iterator of a gpu::vector
// (v.begin() + i): the reduction kernel and a one-block kernel that folds the partials, in
// queue order, with no host round trip.
template <class Rng, class T, class Op = std::plus<>,
          class = typename std::enable_if<ranges::range<Rng>>::type>
void reduce_to(Rng &&rng, detail::vector_iterator<T> out, T init, Op op = Op{}) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::reduce_to", rng);
  gpu::reduce_to(std::forward<Rng>(rng), out.get(), init, op);
}

} // namespace gpu
