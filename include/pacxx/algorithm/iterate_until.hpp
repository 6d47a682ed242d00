// Iteration to a fixed point (issue 37): repeats a body until a test says done.
//
//   gpu::vector<int> remaining(1);               // written by the step's device work
//   std::size_t n = gpu::iterate_until(q, step, remaining,
//       gpu::iterate_options().max_iterations(10000).check_every(8));
//
// body: a pacxx::graph (replayed on q) or a callable (called with q as this thread's
// queue). done: a gpu::vector (or another contiguous device range with data() and
// size()) of integers whose first element the body's device work writes, zero meaning
// done; or a host callable returning bool, true meaning done (called with q as the
// queue, after the body's work on it). done is tested after every check_every
// iterations (the first time after check_every) and after the last allowed one, so a
// loop runs a multiple of check_every iterations, or max_iterations: the iterations
// between a test and the next one also run when the first of them reached the fixed
// point. Returns the number of iterations run. Not done after max_iterations is a
// pacxx::error that says so; the data are those of the last iteration.
//
// Cost: one small readback (or one call of the host test) per check_every iterations;
// a graph body is replayed check_every times by one call into the runtime (on CUDA one
// graph launch, pacxx::graph::launch). A graph body with a 4-byte integer done runs
// on the device on CUDA 12.3+: one graph launch holds a conditional WHILE node whose body
// is check_every replays and a test kernel that sets the node's condition
// (cudaGraphSetConditional, linked from the toolkit's libcudadevrt.a, found at run
// time in $CUDA_HOME/lib64, $CUDA_PATH/lib64 or /usr/local/cuda/lib64), so the whole
// loop costs one launch and one readback of the batch count. Where that cannot be made
// (older drivers, no libcudadevrt.a: PACXX_TRACE=1 says why, OpenCL) each test reads
// the device integer back (a copy and a queue synchronisation).
#pragma once
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

#include "pacxx/error.hpp"
#include "pacxx/graph.hpp"
#include "pacxx/queue.hpp"
#include "pacxx/runtime.hpp"
#include "pacxx/tools.hpp"

namespace gpu {

// The limits of gpu::iterate_until: the most iterations allowed and how often done is
// tested (set with the chained setters, read with the getters).
class iterate_options {
  std::size_t max_ = 1000000;
  std::size_t every_ = 1;

public:
  // At most n iterations (default 10^6).
  iterate_options &max_iterations(std::size_t n) {
    max_ = n;
    return *this;
  }
  // Tests done after every k iterations (default 1).
  iterate_options &check_every(std::size_t k) {
    every_ = k;
    return *this;
  }
  // The most iterations allowed.
  std::size_t max_iterations() const { return max_; }
  // done is tested after every check_every() iterations.
  std::size_t check_every() const { return every_; }
};

namespace detail {

// k iterations of the body on q.
inline void iterate_body(const pacxx::queue &q, const pacxx::graph &g, std::size_t k) {
  g.launch(q, k);
}
template <class F, class = decltype(std::declval<F &>()())>
void iterate_body(const pacxx::queue &q, F &body, std::size_t k) {
  pacxx::queue_scope on(q);
  for (std::size_t i = 0; i < k; ++i)
    body();
}

// Whether the test says done: a device integer (zero: done) or a host callable.
template <class D, class P = decltype(std::declval<const D &>().data())>
bool iterate_done(const pacxx::queue &q, const D &done, int) {
  using I = typename std::remove_cv<typename std::remove_pointer<P>::type>::type;
  static_assert(std::is_integral<I>::value,
                "gpu::iterate_until: done must be a device range of integers (zero: done) or a "
                "host callable returning bool");
  I v{};
  pacxx::queue_scope on(q);
  pacxx::detail::copy_to_host(&v, done.data(), sizeof(I));
  return v == 0;
}
template <class D, class = decltype(static_cast<bool>(std::declval<D &>()()))>
bool iterate_done(const pacxx::queue &q, D &done, long) {
  pacxx::queue_scope on(q);
  return static_cast<bool>(done());
}

// Batches run by the graph's device loop, or npos where that is not available (a host
// test, a callable body, done not of 4-byte integers, a device without the loop).
constexpr std::size_t no_device_loop = static_cast<std::size_t>(-1);
template <
    class D, class P = decltype(std::declval<const D &>().data()),
    class I = typename std::remove_cv<typename std::remove_pointer<P>::type>::type,
    class = typename std::enable_if<std::is_integral<I>::value && sizeof(I) == sizeof(int)>::type>
std::size_t device_batches(const pacxx::queue &q, const pacxx::graph &g, const D &done,
                           std::size_t every, std::size_t batches, int) {
  return g.iterate_on_device(q, reinterpret_cast<const int *>(done.data()), every, batches);
}
template <class B, class D>
std::size_t device_batches(const pacxx::queue &, const B &, const D &, std::size_t, std::size_t,
                           long) {
  return no_device_loop;
}

template <class D> void check_done_range(const D &done, decltype(done.size(), 0)) {
  if (done.size() == 0)
    throw pacxx::error("gpu::iterate_until: done is an empty range (it needs one integer, "
                       "written by the body; zero means done)");
}
template <class D> void check_done_range(const D &, ...) {}

} // namespace detail

// Repeats body on q until done (see above); returns the iterations run.
template <class Body, class Done>
std::size_t iterate_until(const pacxx::queue &q, Body &&body, Done &&done,
                          iterate_options options = iterate_options()) {
  pacxx::detail::algorithm_scope pacxx_algorithm("gpu::iterate_until");
  const std::size_t max = options.max_iterations(), every = options.check_every();
  if (every == 0)
    throw pacxx::error("gpu::iterate_until: check_every(0); done must be tested every k >= 1 "
                       "iterations");
  if (max == 0)
    throw pacxx::error("gpu::iterate_until: max_iterations(0) allows no iteration");
  detail::check_done_range(done, 0);
  std::size_t run = 0;
  // The whole batches with the test on the device where it can be (then the same
  // readback as below says whether they ended at the fixed point); the rest (a last
  // partial batch, or everything) with a readback per batch.
  if (const std::size_t whole = max / every) {
    const std::size_t b = detail::device_batches(q, body, done, every, whole, 0);
    if (b != detail::no_device_loop) {
      run = b * every;
      if (detail::iterate_done(q, done, 0))
        return run;
    }
  }
  while (run < max) {
    const std::size_t k = max - run < every ? max - run : every;
    detail::iterate_body(q, body, k);
    run += k;
    if (detail::iterate_done(q, done, 0))
      return run;
  }
  throw pacxx::error("gpu::iterate_until: not done after max_iterations = " + std::to_string(max) +
                     " iterations (tested every " + std::to_string(every) +
                     "); the data are those of the last iteration");
}

} // namespace gpu
