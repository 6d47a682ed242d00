// Captured work replayed at the cost of one launch (issue 37).
//
//   pacxx::queue q;
//   pacxx::graph step = pacxx::capture(q, [&] {      // records, runs nothing
//     gpu::transform(u, tmp, relax);
//     gpu::transform(tmp, u, update);
//   });
//   for (int i = 0; i < 1000; ++i)
//     step.launch(q);                                 // replays both transforms
//
// pacxx::capture(q, f) calls f once, with q as this thread's queue, and records every
// kernel launch, copy on the device, fill and copy to the device that f issues there,
// including those inside algorithms: nothing runs. Each kernel is looked up (and
// JIT-compiled if new) at capture, so a replay does no algorithm dispatch, no staged
// value evaluation and no kernel-cache lookup. On CUDA the recorded work becomes a CUDA
// graph (stream capture on a private stream, instantiated once; a replay is one
// cuGraphLaunch); on OpenCL a replay enqueues the recorded launches, whose kernels and
// argument bytes are ready.
//
// What a replay does is fixed at capture:
//   - Kernel arguments, shapes and staged values (pacxx::stage) are those of capture
//     time, and so are the sizes an algorithm chose its launches by. Data that change
//     between replays must reach the kernels through device memory: the contents of a
//     gpu::vector are read when the replay runs, its address and size were recorded.
//   - A copy to the device copies the host bytes of capture time (the graph keeps them).
//   - Memory an algorithm used inside f (temporaries, per-call scratch) belongs to the
//     graph until it is destroyed: it is not reused by other work meanwhile, so replays
//     on the capture's queue find it as the captured calls left it. Memory f's own
//     objects owned (a gpu::vector made and dropped inside f) is kept too.
//   - The vectors the recorded work reads and writes must outlive the graph's replays.
// What needs the host while f runs cannot be captured and is a pacxx::error at capture
// (naming it): a copy to the host, an algorithm returning its result on the host
// (gpu::reduce, a count, a search; gpu::reduce_to keeps it on the device), waiting for a
// queue or an event, work on another queue than q, and captures within captures. f's
// exception (or that error) leaves no graph and frees what was recorded.
// Device-resident results are capturable: gpu::reduce_to, and events and futures.
// An event recorded in f (q.record()) and the future of an asynchronous algorithm made
// in f (gpu::reduce_async, transform_reduce_async, count_if_async, gpu::async) complete
// at the end of each launch of the graph: f.get() after g.launch(q) returns what the
// latest launch computed (a future is read once; read a value after every launch with
// gpu::reduce_to into a gpu::vector). Waiting for one before the graph's first launch
// is a pacxx::error; waiting inside f is refused as above. The pinned memory a captured
// future reads is held by the graph as long as either lives; a gpu::async result
// vector is written by every launch, so keep it as long as the graph replays.
//
// g.update(q, f) records f again and changes the graph in place to replay that (same
// operations in the same order, other parameters), see graph::update.
//
// A graph may be replayed on any queue of its device (q or another: the replay is in
// that queue's order); replays on one queue run in order. Replays of one graph on two
// queues at once share its memory and must not overlap. Destroying a graph waits for the
// device's work first (its replays may still be running).
#pragma once
#include <cstddef>
#include <utility>

#include "pacxx/error.hpp"
#include "pacxx/queue.hpp"

namespace pacxx {
namespace detail {
// The runtime's graphs (libpacxx): capture_begin starts recording this thread's work
// (which must go to q), capture_end stops; keep = false drops what was recorded.
void *capture_begin(void *q);
void *capture_end(void *graph, bool keep);
void graph_launch(void *graph, void *q, std::size_t times);
// Makes `graph` replay what `recording` (capture_begin's, its work recorded) holds, which
// must be the same operations; takes `recording` over.
void graph_update(void *graph, void *recording);
// gpu::iterate_until's loop on the device: at most `batches` batches of `every` replays,
// each batch followed by the test of the int at `done` (zero: stop), without the host.
// Returns the batches run, or size_t(-1) where the device cannot (CUDA before 12.3, no
// libcudadevrt.a, OpenCL): the caller then tests with a readback per batch.
std::size_t graph_iterate(void *graph, void *q, const void *done, std::size_t every,
                          std::size_t batches);
std::size_t graph_kernels(const void *graph) noexcept;
void graph_destroy(void *graph) noexcept;
} // namespace detail

// Work recorded by pacxx::capture, replayed by launch() at the cost of one launch (a CUDA
// graph on CUDA; the recorded launches, ready to enqueue, on OpenCL). Move-only; destroying
// it frees what the recorded work used.
class graph {
  void *g_ = nullptr;

public:
  graph() = default;
  // Takes over a graph of the runtime (detail::capture_end).
  explicit graph(void *runtime_graph) noexcept : g_(runtime_graph) {}
  graph(const graph &) = delete;
  graph &operator=(const graph &) = delete;
  // Takes o's graph; o is left empty.
  graph(graph &&o) noexcept : g_(o.g_) { o.g_ = nullptr; }
  // Destroys this graph and takes o's; o is left empty.
  graph &operator=(graph &&o) noexcept {
    if (this != &o) {
      detail::graph_destroy(g_);
      g_ = o.g_;
      o.g_ = nullptr;
    }
    return *this;
  }
  // Destroys the graph and frees the memory its recorded work held.
  ~graph() { detail::graph_destroy(g_); }

  // Whether it holds a graph (not default-constructed or moved from).
  bool valid() const noexcept { return g_ != nullptr; }
  // Replays the recorded work on q, `times` times in a row. Asynchronous, as the
  // launches it replays. On CUDA, times > 1 is one launch of a CUDA graph holding the
  // work `times` times (made on the first launch with that count; at most a few counts
  // and 8192 nodes a graph, else one launch per replay).
  void launch(const queue &q, std::size_t times = 1) const {
    if (!g_)
      throw error("pacxx::graph::launch: the graph is empty (default-constructed or moved from)");
    detail::graph_launch(g_, q.get(), times);
  }
  /// Records what f() issues on q again (as pacxx::capture does) and makes the graph
  /// replay that from now on, without a new graph: the way to change what is fixed at
  /// capture (arguments, shapes, staged values, uploaded bytes, addresses and sizes)
  /// between replays. The new recording must have the same operations in the same
  /// order (each kernel launch the same kernel); otherwise the update is a
  /// pacxx::error that names the first difference and the graph is unchanged. On CUDA
  /// the executable graph is updated in place (cuGraphExecUpdate; a driver that cannot
  /// gets a new instantiation); on OpenCL the prepared launch list is replaced.
  /// Replays already launched run the old work. The old recording's memory (temporaries,
  /// scratch, uploaded bytes) is freed after the device's work has finished, so an
  /// update of a graph holding such memory waits for the device; one of kernels, copies
  /// and fills only does not wait. Not concurrently with launches of this graph.
  template <class F> void update(const queue &q, F &&f) {
    if (!g_)
      throw error("pacxx::graph::update: the graph is empty (default-constructed or moved from)");
    void *n = detail::capture_begin(q.get());
    try {
      queue_scope on(q);
      std::forward<F>(f)();
    } catch (...) {
      detail::capture_end(n, false);
      throw;
    }
    detail::graph_update(g_, n);
  }
  /// gpu::iterate_until's device loop (detail::graph_iterate): batches of `every`
  /// replays on q until the int at `done` is zero, at most `batches` of them; returns
  /// the batches run, or size_t(-1) where the device cannot test on the device.
  std::size_t iterate_on_device(const queue &q, const int *done, std::size_t every,
                                std::size_t batches) const {
    if (!g_)
      throw error("gpu::iterate_until: the graph is empty (default-constructed or moved from)");
    return detail::graph_iterate(g_, q.get(), done, every, batches);
  }
  // The kernel launches in one replay (what runtime_stats::kernel_launches grows by).
  std::size_t kernel_launches() const noexcept { return g_ ? detail::graph_kernels(g_) : 0; }
};

// Records what f() issues on q (see above) into a graph; runs nothing.
template <class F> graph capture(const queue &q, F &&f) {
  void *g = detail::capture_begin(q.get());
  try {
    queue_scope on(q);
    std::forward<F>(f)();
  } catch (...) {
    detail::capture_end(g, false);
    throw;
  }
  return graph(detail::capture_end(g, true));
}

} // namespace pacxx
