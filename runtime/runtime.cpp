// The public entry of the runtime: the one runtime singleton and what pacxx's API and
// tools call on it (pacxx::synchronize, stats, detail::device_allocate and the copies,
// launch, scratch). The work is done by its units: devices.hpp (discovery, selection,
// memory pool), kernel_cache.hpp (memory -> disk -> JIT), launch.hpp (staged values,
// limit checks, backend launch), trace.hpp (PACXX_TRACE, PACXX_DUMP_DIR),
// support/build_id.hpp; config.hpp reads the environment.
#include "runtime.hpp"

#include "config.hpp"
#include "devices.hpp"
#include "kernel_cache.hpp"
#include "launch.hpp"
#include "memory/pool.hpp"
#include "stats.hpp"
#include "timeline.hpp"
#include "tools.hpp"

#include "pacxx/error.hpp"
#include "pacxx/runtime.hpp"
#include "pacxx/tools.hpp"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace pacxx {
namespace rt {
namespace {

// The environment, read once. A malformed value is kept as the error, which
// device_selection::current() raises on first use of a device, before any setting is used.
struct loaded_configuration {
  configuration c;
  std::string error;
};
loaded_configuration load_configuration() {
  loaded_configuration l;
  try {
    l.c = read_configuration();
  } catch (const error &e) {
    l.error = e.what();
  }
  return l;
}

// The tools (pacxx/tools.hpp, tools.hpp) for as long as the runtime lives.
struct tools_session {
  tools_session(const std::string &library, bool timeline_on) { start_tools(library, timeline_on); }
  ~tools_session() { stop_tools(); }
  tools_session(const tools_session &) = delete;
  tools_session &operator=(const tools_session &) = delete;
};

// Scratch memory, grown when needed and freed with its owner: device memory (tile
// states, partials where they are copied back), pinned host memory that kernels
// write (host_scratch: results the host reads without a copy), or device memory that
// starts as all-one bytes (ones_scratch: state carried from call to call).
enum class scratch_kind { device, host, ones };
struct scratch_buffer {
  const scratch_kind kind;
  void *data = nullptr;
  std::size_t bytes = 0;
  explicit scratch_buffer(scratch_kind k) : kind(k) {}
  scratch_buffer(const scratch_buffer &) = delete;
  scratch_buffer &operator=(const scratch_buffer &) = delete;
  ~scratch_buffer() { release(); }
  void release() {
    if (kind == scratch_kind::host)
      pacxx::detail::host_free(data);
    else
      pacxx::detail::device_free(data);
    data = nullptr;
    bytes = 0;
  }
  void *get(std::size_t want) {
    if (want > bytes) {
      release();
      std::size_t grown = want < 4096 ? 4096 : want; // small reductions share one size
      data = kind == scratch_kind::host ? pacxx::detail::host_allocate(grown)
                                        : pacxx::detail::device_allocate(grown);
      bytes = grown;
      // On the queue of the kernels that use it, so before the first of them.
      if (kind == scratch_kind::ones)
        pacxx::detail::fill_on_device(data, 0xff, grown);
    }
    return data;
  }
};

// A pacxx::queue: its native handle, whether pacxx made it, and one scratch buffer per
// host thread that issues algorithms on it (in queue order, so they never overlap).
struct queue_object {
  void *native = nullptr;
  bool owned = false;
  std::mutex scratch_mutex;
  std::unordered_map<std::thread::id, std::unique_ptr<scratch_buffer>> scratch[3]; // by kind
  std::atomic<std::uint64_t> seen_default{0}; // the default queue's work it is behind
};

// The queue every launch, copy and algorithm of this host thread goes to (null: the
// device's default queue); set by pacxx::queue_scope.
// Initial-exec: libpacxx is loaded with the program, and the general-dynamic model
// called __tls_get_addr on every access, about a sixth of the runtime's host time for a
// launch of a loaded kernel (perf on the build machine).
__attribute__((tls_model("initial-exec"))) thread_local queue_object *current_queue_object =
    nullptr;

// A pacxx::graph: what pacxx::capture recorded, the memory that work uses, and the
// driver's graph where the backend has one.
//
// Memory. While a capture records, device (and pinned) memory freed by this thread is
// not given back to the pool but kept here until the graph is destroyed: a captured
// algorithm's temporaries (a sort's buffers) are freed when the call returns, and the
// graph's replays still use them. Scratch memory (detail::scratch, ones_scratch,
// host_scratch) comes from the graph's own buffers, not the thread's or the queue's,
// so that later direct calls (which may grow and so reallocate those) never move memory
// a replay uses, and two graphs never share it.
// An event recorded while a graph was captured (pacxx::record() in pacxx::capture, the
// future of gpu::reduce_async or gpu::async there): it marks the end of the graph's
// latest launch (the end of all its replays, never earlier than the work recorded
// before it). Shared by the graph and the pacxx::event handles; their void * is a
// std::shared_ptr<replay_signal> * with the low bit set (native events are aligned
// pointers), so the event functions tell the two apart.
struct replay_signal {
  std::mutex mutex;
  void *event = nullptr;      // the native event of the latest launch; null: none yet
  std::uint64_t launches = 0; // launches of the graph since the capture
  void signal(void *native_event) {
    void *old;
    {
      std::lock_guard<std::mutex> lock(mutex);
      old = event;
      event = native_event;
      ++launches;
    }
    release(old);
  }
  static void release(void *native_event) noexcept;
  ~replay_signal() { release(event); }
};

struct graph_object {
  queue_object *queue; // the capture's queue
  std::vector<graph_command> commands;
  std::size_t kernels = 0; // kernel launches among the commands (counted per replay)
  std::vector<void *> device_blocks, host_blocks;
  std::unique_ptr<scratch_buffer> scratch[3]; // by kind, made when first asked for
  std::unique_ptr<native_graph> native;       // null: replays issue the commands
  // Driver graphs of several replays in a row (g.launch(q, n), iterate_until's batches of
  // check_every), made on first use: n replays are then one driver launch.
  std::mutex repeated_mutex;
  std::map<std::size_t, std::unique_ptr<native_graph>> repeated;
  std::string refused; // the first error of refuse_in_capture, raised by capture_end
  // Kernels that earlier recordings launched (pacxx::graph::update replaced them): held
  // until the graph goes, as replays still running may use them.
  std::vector<std::shared_ptr<kernel_cache::cached_kernel>> retired;
  // gpu::iterate_until's loop on the device (build_loop), for one (check_every, done,
  // batches); its batch counter. `no_loop`: the device cannot (tried once).
  std::mutex loop_mutex;
  std::unique_ptr<native_graph> loop;
  std::size_t loop_every = 0, loop_batches = 0;
  const void *loop_done = nullptr;
  void *loop_counter = nullptr;
  bool no_loop = false;

  // Events recorded in the capture (q.record(), the futures of gpu::reduce_async and
  // gpu::async): each is signalled after every replay. And what those futures read
  // after a replay (their pinned results), held as long as the graph replays into it.
  std::vector<std::shared_ptr<replay_signal>> signals;
  std::vector<std::shared_ptr<void>> held;

  explicit graph_object(queue_object *q) : queue(q) {}
  // After a launch of replays on `native`: every event of the capture marks its end.
  void signal(device &dev, void *native) {
    for (const std::shared_ptr<replay_signal> &s : signals)
      s->signal(dev.record_event(native));
  }
  // A copy, fill or upload.
  void record(graph_command::kind_t kind, void *dst, const void *src, std::size_t bytes,
              unsigned char byte = 0) {
    graph_command c;
    c.kind = kind;
    c.dst = dst;
    c.src = src;
    c.bytes = bytes;
    c.byte = byte;
    commands.push_back(std::move(c));
  }
  graph_object(const graph_object &) = delete;
  graph_object &operator=(const graph_object &) = delete;
  ~graph_object() {
    loop.reset();
    if (loop_counter)
      pacxx::detail::device_free(loop_counter);
    repeated.clear();
    native.reset();
    for (auto &b : scratch)
      b.reset();
    for (void *p : device_blocks)
      pacxx::detail::device_free(p);
    for (void *p : host_blocks)
      pacxx::detail::host_free(p);
  }
};

// Bounds on the driver graphs of repeated replays a graph keeps: nodes in one, and how
// many counts (a program uses one or two: its batch size and a remainder).
constexpr std::size_t max_repeated_nodes = 8192, max_repeated_graphs = 8;

// The graph this host thread is recording into (pacxx::capture), null if none.
__attribute__((tls_model("initial-exec"))) thread_local graph_object *capturing = nullptr;

// The graph that work issued now is recorded into, or null when not capturing. `what`
// names the work for the error when it goes to another queue than the capture's.
[[noreturn]] void fail_capture(graph_object &g, const std::string &msg);
graph_object *recording(const char *what) {
  graph_object *g = capturing;
  if (g && g->queue != current_queue_object)
    fail_capture(*g, std::string("pacxx::capture: ") + what +
                         " on another queue than the one being captured; a graph records the "
                         "work of one queue (its other work would not be in the graph)");
  return g;
}

// Work that needs the host to see the device's results cannot be part of a graph: a
// replay has no host to hand them to, and at capture time nothing has run yet.
// The error is also kept by the graph and raised again when the capture ends: an
// algorithm may catch it (gpu::reduce_async hands it to its future), and a graph
// without the refused part would silently do less than f did.
void fail_capture(graph_object &g, const std::string &msg) {
  if (g.refused.empty())
    g.refused = msg;
  throw error(msg);
}
void refuse_in_capture(const char *what) {
  if (capturing)
    fail_capture(*capturing,
                 std::string("pacxx::capture: ") + what +
                     " cannot be captured: nothing runs while a graph is recorded, and its "
                     "replays run without the host. Keep results on the device "
                     "(gpu::reduce_to, a gpu::vector that a kernel writes) and read them after "
                     "g.launch(q)");
}

// The runtime singleton's state. Shut down: destroyed at the program's exit. A
// gpu::vector or pacxx::queue with static storage duration that was constructed before
// the runtime (an empty vector at namespace scope, assigned in main) is destroyed after
// it; its free then finds this state instead of a destroyed object and does nothing
// (the end of the process frees everything). Forked: this process is a child made by
// fork() after the devices were initialised in its parent. Neither backend survives
// fork(): the CUDA driver does not support a context in a forked child, and an OpenCL
// implementation's threads (PoCL's) are not copied into it, so a call there never
// returned. In the child every call is a pacxx::error saying so, and nothing is torn
// down at its exit (the parent's driver state is not the child's to release).
// Constant-initialised and trivially destructible: valid through every static
// destructor.
enum runtime_state_t : int { alive, shut_down, forked };
std::atomic<int> runtime_state{alive};

void in_forked_child() {
  if (drivers_initialised.load())
    runtime_state = forked;
}

const char *state_error(int s) {
  return s == forked
             ? "pacxx: this process was forked (fork()) after its parent had initialised the "
               "devices; their driver state (a CUDA context, an OpenCL implementation's threads) "
               "does not survive fork(), so pacxx cannot be used in the child. Use the devices in "
               "the parent, fork before the first use of pacxx, or run a new program in the "
               "child (exec)"
             : "pacxx: used after the runtime was shut down at the program's exit (by the "
               "destructor of an object with static storage duration?); releasing memory or "
               "queues then is allowed and does nothing, other calls are errors";
}

class runtime {
public:
  static runtime &get() {
    // The runtime lives in static storage and is destroyed only where it was made:
    // not in a forked child.
    struct holder {
      alignas(runtime) unsigned char storage[sizeof(runtime)];
      runtime *r;
      holder() : r(new(storage) runtime) { pthread_atfork(nullptr, nullptr, in_forked_child); }
      ~holder() {
        if (runtime_state.load() == forked)
          return;
        runtime_state = shut_down;
        r->~runtime();
      }
    };
    static holder h;
    if (int s = runtime_state.load(std::memory_order_relaxed); s != alive)
      throw error(state_error(s));
    return *h.r;
  }

  // Members in dependency order: the kernel cache (loaded kernels) is destroyed before
  // the device selection (pool, then devices).
  const loaded_configuration config = load_configuration();
  counters stats;
  // Written when it is destroyed, after everything that records into it.
  timeline events{config.c.timeline};
  // After the timeline: a tool's finalize runs before the file is written.
  tools_session tools{config.c.tools_library, events.on()};
  device_selection devices{config.c, config.error};
  kernel_cache kernels{config.c, stats};
  launcher launches{devices, kernels, stats, events, config.c};
  // The timeline's device times are read while the devices still exist.
  ~runtime() { events.resolve(); }

  device &current() { return devices.current(); }
  memory_pool &pool() {
    memory_pool &p = devices.pool();
    std::call_once(fence_once_, [this, &p] { p.set_fence([this] { return fence(); }); });
    return p;
  }
  // Pinned host memory, kept for reuse as device memory is (same bound).
  memory_pool &host_pool() {
    pool();
    std::call_once(host_pool_once_, [this] {
      host_pool_ = std::make_unique<memory_pool>(current(), pool_bound(), true);
      // The host writes pinned memory without any queue's order: a freed block waits
      // for the work enqueued before its free even with the default queue alone.
      host_pool_->set_fence([this] { return fence(true); });
    });
    return *host_pool_;
  }

  // The queues of the program (the default queue is not among them).
  void add_queue(queue_object *q) {
    std::lock_guard<std::mutex> lock(queues_mutex_);
    queues_.push_back(q);
  }
  void remove_queue(queue_object *q) {
    std::lock_guard<std::mutex> lock(queues_mutex_);
    queues_.erase(std::remove(queues_.begin(), queues_.end(), q), queues_.end());
  }
  // The default queue is ordered with every queue, as CUDA's legacy default stream is
  // with blocking streams: work on a queue starts after the default queue's earlier work,
  // and default-queue work after the earlier work of every queue. CUDA does it itself;
  // elsewhere (OpenCL) a marker and a barrier are enqueued where the other side has
  // enqueued work since the last time. Returns the native queue to enqueue on.
  void *order(queue_object *q) {
    device &dev = current();
    if (dev.default_queue_orders_all())
      return q ? q->native : nullptr;
    if (q) {
      const std::uint64_t e = default_epoch_.load();
      if (q->seen_default.load() != e) {
        void *ev = dev.record_event(nullptr);
        try {
          dev.queue_wait_event(q->native, ev);
        } catch (...) {
          dev.release_event(ev);
          throw;
        }
        dev.release_event(ev);
        q->seen_default = e;
      }
      queue_epoch_++;
      return q->native;
    }
    default_epoch_++;
    const std::uint64_t u = queue_epoch_.load();
    if (default_seen_queues_.load() != u) {
      std::lock_guard<std::mutex> lock(queues_mutex_);
      for (queue_object *other : queues_) {
        void *ev = dev.record_event(other->native);
        try {
          dev.queue_wait_event(nullptr, ev);
        } catch (...) {
          dev.release_event(ev);
          throw;
        }
        dev.release_event(ev);
      }
      default_seen_queues_ = u;
    }
    return nullptr;
  }

  std::vector<void *> queue_natives() {
    std::lock_guard<std::mutex> lock(queues_mutex_);
    std::vector<void *> natives;
    for (queue_object *q : queues_)
      natives.push_back(q->native);
    return natives;
  }
  // While the program has queues, freed memory may still be in use on any of them:
  // one event per queue (and the default queue) marks the work that may use it.
  std::vector<void *> fence(bool always = false) {
    std::vector<void *> events;
    std::lock_guard<std::mutex> lock(queues_mutex_);
    if (queues_.empty() && !always)
      return events;
    device &dev = current();
    try {
      events.push_back(dev.record_event(nullptr));
      for (queue_object *q : queues_)
        events.push_back(dev.record_event(q->native));
    } catch (...) {
      for (void *e : events)
        dev.release_event(e);
      throw;
    }
    return events;
  }

  std::string describe_configuration() const {
    if (!config.error.empty())
      throw error(config.error);
    const configuration &c = config.c;
    std::string s = "device: " + (c.device.empty() ? std::string("default") : c.device) + "\n";
    s += std::string("trace: ") + (c.trace ? "on" : "off") +
         (c.timeline.empty() ? "" : ", timeline: " + c.timeline) +
         ", staging: " + (c.staging ? "on" : "off") + (c.unroll ? "" : ", loop unrolling: off") +
         "\n";
    s += "dump directory: " + (c.dump_dir.empty() ? std::string("none") : c.dump_dir) + "\n";
    s += "memory pool: " +
         (c.pool_mb ? "at most " + std::to_string(*c.pool_mb) + " MB"
                    : std::string("at most a quarter of the device's memory")) +
         "\n";
    s +=
        "kernel variants in memory: at most " + std::to_string(c.kernel_variants) + " per kernel\n";
    return s + kernels.describe_disk() + "\n";
  }

private:
  std::once_flag fence_once_, host_pool_once_;
  std::unique_ptr<memory_pool> host_pool_;
  std::mutex queues_mutex_;
  std::vector<queue_object *> queues_;
  // Work enqueued on the default queue / on any other queue, and what the default
  // queue has been ordered behind (order()).
  std::atomic<std::uint64_t> default_epoch_{1}, queue_epoch_{0}, default_seen_queues_{0};

  std::size_t pool_bound() {
    std::size_t max_cached = current().memory_bytes() / 4;
    if (config.c.pool_mb)
      max_cached = *config.c.pool_mb << 20;
    return max_cached;
  }
};

// The native queue for work of this host thread, ordered with the default queue.
void *enqueue_target() { return runtime::get().order(current_queue_object); }

} // namespace

std::vector<device_description> describe_devices(std::vector<std::string> &notes) {
  return runtime::get().devices.describe(notes);
}

std::string selected_device_id() {
  device_selection &d = runtime::get().devices;
  d.current();
  return d.current_id();
}

std::string describe_configuration() { return runtime::get().describe_configuration(); }

const configuration &current_configuration() {
  runtime &r = runtime::get();
  if (!r.config.error.empty())
    throw error(r.config.error);
  return r.config.c;
}

device &current_device() { return runtime::get().current(); }

} // namespace rt

void synchronize() {
  rt::refuse_in_capture("pacxx::synchronize()");
  rt::runtime &r = rt::runtime::get();
  r.current().synchronize();
  for (void *q : r.queue_natives()) // CUDA's context synchronize covers them; OpenCL's not
    r.current().wait_queue(q);
}

native_handles_t native_handles() {
  rt::device &d = rt::runtime::get().current();
  native_handles_t h;
  h.backend = d.backend_name();
  d.native_handles(&h.device, &h.context, &h.default_queue);
  return h;
}

std::size_t prefetch(std::size_t threads) {
  rt::runtime &r = rt::runtime::get();
  const rt::kernel_cache::prefetch_report rep = r.kernels.prefetch(r.current(), threads);
  return rep.kernels - rep.failed;
}

runtime_stats stats() {
  rt::runtime &r = rt::runtime::get();
  rt::counters &c = r.stats;
  runtime_stats s;
  s.kernel_launches = c.launches;
  s.jit_compilations = c.compilations;
  s.memory_cache_hits = c.cache_hits;
  s.disk_cache_hits = c.disk_hits;
  s.device_allocations = c.allocations;
  s.pool_hits = c.pool_hits;
  s.bytes_to_device = c.to_device;
  s.bytes_to_host = c.to_host;
  s.pinned_allocations = c.pinned_allocations;
  s.pinned_bytes = c.pinned_bytes;
  s.memory_cache_evictions = c.evictions;
  s.kernel_variants_loaded = c.variants_loaded;
  if (rt::memory_pool *pool = r.devices.pool_if_selected()) { // else nothing allocated yet
    rt::memory_pool::usage u = pool->current_usage();
    s.pool_cached_bytes = u.cached;
    s.device_bytes_in_use = u.live;
  }
  return s;
}

void reset_stats() {
  rt::counters &c = rt::runtime::get().stats;
  c.launches = c.compilations = c.cache_hits = c.disk_hits = c.allocations = c.pool_hits =
      c.to_device = c.to_host = c.pinned_allocations = c.pinned_bytes = c.evictions = 0;
}

void release_cached_memory() { rt::runtime::get().pool().release(); }

namespace detail {

void *device_allocate(std::size_t bytes) {
  rt::runtime &r = rt::runtime::get();
  bool reused = false;
  const bool timed = r.events.on(); // the clock only with a timeline
  rt::timeline::clock::time_point t0;
  if (timed)
    t0 = rt::timeline::clock::now();
  // Tools and NVTX: one relaxed load when none listens.
  tools::range_info ti{tools::event::allocation, "allocate", bytes,
                       rt::current_queue_object ? rt::current_queue_object->native : nullptr, 0};
  const bool tooled = rt::tools_on() && bytes;
  if (tooled)
    rt::tool_begin(ti);
  void *p;
  try {
    p = r.pool().allocate(bytes, reused);
  } catch (...) {
    if (tooled)
      rt::tool_end(ti);
    throw;
  }
  if (tooled)
    rt::tool_end(ti);
  if (bytes) {
    r.stats.allocations++;
    if (reused)
      r.stats.pool_hits++;
    if (timed)
      // On the track of this thread's queue (allocations are not enqueued).
      r.events.range("allocation", reused ? "allocate (pool)" : "allocate",
                     rt::current_queue_object ? rt::current_queue_object->native : nullptr, t0,
                     rt::timeline::clock::now(), "\"bytes\": " + std::to_string(bytes));
  }
  return p;
}

namespace {
// Device memory or pinned host memory back to its pool.
void give_back(void *p, bool host) noexcept {
  if (!p)
    return;
  try {
    rt::runtime &r = rt::runtime::get();
    (host ? r.host_pool() : r.pool()).deallocate(p);
  } catch (...) { // no device: p cannot be ours
  }
}
} // namespace

// Memory freed while this thread captures stays with the graph (graph_object).
bool kept_by_capture(void *p, bool host) noexcept {
  rt::graph_object *g = rt::capturing;
  if (!g || !p)
    return false;
  try {
    (host ? g->host_blocks : g->device_blocks).push_back(p);
  } catch (...) { // out of host memory: leaked rather than reused under the graph
  }
  return true;
}

void device_free(void *p) noexcept {
  if (!kept_by_capture(p, false))
    give_back(p, false);
}

namespace {
// op(device, queue) on this thread's current queue, recorded in the timeline as a copy
// of `bytes` named `what`.
// The clock is read only with a timeline (no clock reads on the hot path otherwise).
template <class Op> void enqueue_copy(const char *what, std::size_t bytes, Op op) {
  rt::runtime &r = rt::runtime::get();
  const bool timed = r.events.on();
  rt::timeline::clock::time_point t0;
  if (timed)
    t0 = rt::timeline::clock::now();
  void *q = rt::enqueue_target();
  tools::range_info ti{tools::event::copy, what, bytes, q, 0};
  const bool tooled = rt::tools_on(); // one relaxed load when no tool listens
  if (tooled)
    rt::tool_begin(ti);
  try {
    op(r.current(), q);
  } catch (...) {
    if (tooled)
      rt::tool_end(ti);
    throw;
  }
  if (tooled)
    rt::tool_end(ti);
  if (timed)
    r.events.range("copy", what, q, t0, rt::timeline::clock::now(),
                   "\"bytes\": " + std::to_string(bytes));
}

// Host <-> device, counted.
void transfer(void *dst, const void *src, std::size_t bytes, bool to_host, bool async) {
  rt::runtime &r = rt::runtime::get();
  if (to_host && async) {
    // Into pinned memory that a future reads after the graph's replay (reduce_async):
    // a memcpy node of the graph.
    if (rt::graph_object *g = rt::recording("a copy to the host")) {
      if (bytes)
        g->record(rt::graph_command::download, dst, src, bytes);
      return;
    }
  } else if (to_host)
    rt::refuse_in_capture("a copy to the host (reading a gpu::vector, a result returned on the "
                          "host, e.g. gpu::reduce or copy_if's count)");
  else if (rt::graph_object *g = rt::recording("a copy to the device")) {
    // The bytes of capture time, kept by the graph in pinned memory (a copy from pinned
    // memory is what a CUDA stream capture records).
    if (bytes == 0)
      return;
    void *held = host_allocate(bytes);
    try {
      g->host_blocks.push_back(held);
    } catch (...) {
      host_free(held);
      throw;
    }
    std::memcpy(held, src, bytes);
    g->record(rt::graph_command::upload, dst, held, bytes);
    return;
  }
  const char *what = to_host ? (async ? "copy to host (async)" : "copy to host")
                             : (async ? "copy to device (async)" : "copy to device");
  enqueue_copy(what, bytes, [&](rt::device &d, void *q) {
    if (to_host)
      d.copy_to_host(dst, src, bytes, q, async);
    else
      d.copy_to_device(dst, src, bytes, q, async);
  });
  (to_host ? r.stats.to_host : r.stats.to_device) += bytes;
}
} // namespace

void copy_to_device(void *dst, const void *src, std::size_t bytes) {
  transfer(dst, src, bytes, false, false);
}
void copy_to_host(void *dst, const void *src, std::size_t bytes) {
  transfer(dst, src, bytes, true, false);
}
void copy_to_device_async(void *dst, const void *src, std::size_t bytes) {
  transfer(dst, src, bytes, false, true);
}
void copy_to_host_async(void *dst, const void *src, std::size_t bytes) {
  transfer(dst, src, bytes, true, true);
}

void copy_on_device(void *dst, const void *src, std::size_t bytes) {
  if (rt::graph_object *g = rt::recording("a copy on the device")) {
    if (bytes == 0)
      return;
    g->record(rt::graph_command::copy, dst, src, bytes);
    return;
  }
  enqueue_copy("copy on device", bytes,
               [&](rt::device &d, void *q) { d.copy_on_device(dst, src, bytes, q); });
}

void fill_on_device(void *dst, unsigned char byte, std::size_t bytes) {
  if (rt::graph_object *g = rt::recording("a fill of device memory")) {
    if (bytes == 0)
      return;
    g->record(rt::graph_command::fill, dst, nullptr, bytes, byte);
    return;
  }
  enqueue_copy("fill on device", bytes,
               [&](rt::device &d, void *q) { d.fill_on_device(dst, byte, bytes, q); });
}

void *host_allocate(std::size_t bytes) {
  rt::runtime &r = rt::runtime::get();
  bool reused = false;
  void *p = r.host_pool().allocate(bytes, reused);
  if (bytes) {
    r.stats.pinned_allocations++;
    r.stats.pinned_bytes += bytes;
  }
  return p;
}

void host_free(void *p) noexcept {
  if (!kept_by_capture(p, true))
    give_back(p, true);
}

namespace {
// The algorithms open on this thread (algorithm_begin), innermost last.
struct open_algorithm {
  tools::range_info info;
  rt::timeline::clock::time_point t0;
};
thread_local std::vector<open_algorithm> open_algorithms;
} // namespace

std::uint64_t algorithm_begin(const char *name, std::size_t size) noexcept {
  try {
    rt::runtime &r = rt::runtime::get(); // its start decides whether anybody listens
    if (!tools_listening.load(std::memory_order_relaxed))
      return 0;
    open_algorithm a{{tools::event::algorithm, name, size,
                      rt::current_queue_object ? rt::current_queue_object->native : nullptr, 0},
                     {}};
    if (r.events.on())
      a.t0 = rt::timeline::clock::now();
    open_algorithms.push_back(a);
    rt::tool_begin(open_algorithms.back().info); // sets the id
    return open_algorithms.back().info.id;
  } catch (...) { // no runtime (shut down), or no memory: no range
    return 0;
  }
}

void algorithm_end(std::uint64_t id) noexcept {
  auto found = std::find_if(open_algorithms.rbegin(), open_algorithms.rend(),
                            [id](const open_algorithm &a) { return a.info.id == id; });
  if (found == open_algorithms.rend())
    return;
  const open_algorithm a = *found;
  open_algorithms.erase(std::next(found).base(), open_algorithms.end());
  rt::tool_end(a.info);
  try {
    rt::runtime &r = rt::runtime::get();
    if (r.events.on())
      r.events.range("algorithm", a.info.name, a.info.queue, a.t0, rt::timeline::clock::now(),
                     a.info.size == tools::unknown_size
                         ? std::string()
                         : "\"size\": " + std::to_string(a.info.size));
  } catch (...) { // shut down, or no memory: the range is lost, the program goes on
  }
}

void launch(const void *entry, const void *args, std::size_t size, std::size_t align,
            const launch_config &config) {
  rt::runtime &r = rt::runtime::get();
  if (rt::graph_object *g = rt::recording("a kernel launch")) {
    const std::size_t before = g->commands.size();
    r.launches.launch(entry, args, size, align, config, nullptr, &g->commands);
    g->kernels += g->commands.size() - before;
    return;
  }
  r.launches.launch(entry, args, size, align, config, rt::enqueue_target());
}

namespace {
// One buffer per host thread (and queue): algorithms on several threads never share it.
void *scratch_of(rt::scratch_kind kind, std::size_t bytes) {
  if (rt::graph_object *g = rt::recording("an algorithm")) {
    std::unique_ptr<rt::scratch_buffer> &b = g->scratch[static_cast<int>(kind)];
    if (!b)
      b = std::make_unique<rt::scratch_buffer>(kind);
    return b->get(bytes);
  }
  rt::queue_object *q = rt::current_queue_object;
  if (!q) {
    thread_local rt::scratch_buffer buffers[3] = {rt::scratch_buffer(rt::scratch_kind::device),
                                                  rt::scratch_buffer(rt::scratch_kind::host),
                                                  rt::scratch_buffer(rt::scratch_kind::ones)};
    return buffers[static_cast<int>(kind)].get(bytes);
  }
  std::unique_ptr<rt::scratch_buffer> *slot;
  {
    std::lock_guard<std::mutex> lock(q->scratch_mutex);
    slot = &q->scratch[static_cast<int>(kind)][std::this_thread::get_id()];
    if (!*slot)
      *slot = std::make_unique<rt::scratch_buffer>(kind);
  }
  return (*slot)->get(bytes);
}
} // namespace

void *scratch(std::size_t bytes) { return scratch_of(rt::scratch_kind::device, bytes); }

void *host_scratch(std::size_t bytes) {
  if (!rt::runtime::get().current().kernels_write_pinned_memory())
    return nullptr;
  return scratch_of(rt::scratch_kind::host, bytes);
}

void *ones_scratch(std::size_t bytes) { return scratch_of(rt::scratch_kind::ones, bytes); }

void wait_host_scratch(std::size_t bytes) {
  rt::refuse_in_capture("a result returned on the host (gpu::reduce, a search, a count)");
  rt::runtime &r = rt::runtime::get();
  // The kernel wrote its result into pinned memory (CUDA): the wait is this copy to the
  // host, so tools and the timeline see it as one (its bytes are counted as one).
  enqueue_copy("copy to host (written by the kernel)", bytes,
               [](rt::device &d, void *q) { d.wait_queue(q); });
  r.stats.to_host += bytes;
}

// ---- Queues and events -------------------------------------------------------------

void *queue_create() {
  rt::runtime &r = rt::runtime::get();
  r.pool(); // the fence is in place before any queue exists
  auto q = std::make_unique<rt::queue_object>();
  q->native = r.current().create_queue();
  q->owned = true;
  r.add_queue(q.get());
  return q.release();
}

void *queue_adopt(void *native) {
  rt::runtime &r = rt::runtime::get();
  r.pool();
  r.current().adopt_queue(native);
  auto q = std::make_unique<rt::queue_object>();
  q->native = native;
  q->owned = false;
  r.add_queue(q.get());
  return q.release();
}

void queue_destroy(void *qp) noexcept {
  auto *q = static_cast<rt::queue_object *>(qp);
  if (!q)
    return;
  try {
    rt::runtime &r = rt::runtime::get();
    r.remove_queue(q);
    r.current().release_queue(q->native, q->owned); // waits for its work
  } catch (...) {
  }
  if (rt::current_queue_object == q)
    rt::current_queue_object = nullptr;
  delete q; // frees its scratch buffers
}

void queue_wait(void *q) {
  rt::refuse_in_capture("waiting for a queue (q.wait())");
  rt::runtime::get().current().wait_queue(q ? static_cast<rt::queue_object *>(q)->native : nullptr);
}

void *queue_native(void *q) {
  if (q)
    return static_cast<rt::queue_object *>(q)->native;
  void *device = nullptr, *context = nullptr, *queue = nullptr;
  rt::runtime::get().current().native_handles(&device, &context, &queue);
  return queue;
}

} // namespace detail

namespace rt {
void replay_signal::release(void *native_event) noexcept {
  if (!native_event)
    return;
  try {
    runtime::get().current().release_event(native_event);
  } catch (...) {
  }
}
} // namespace rt

namespace detail {

namespace {
// Events of a capture (rt::replay_signal): tagged pointers.
bool is_replay_event(void *event) noexcept {
  return (reinterpret_cast<std::uintptr_t>(event) & 1u) != 0;
}
rt::replay_signal &replay_of(void *event) noexcept {
  return **reinterpret_cast<std::shared_ptr<rt::replay_signal> *>(
      reinterpret_cast<std::uintptr_t>(event) & ~std::uintptr_t(1));
}
// The native event of the graph's latest launch (locked: a launch may replace it).
// Throws where the graph has not been launched since the event was recorded.
template <class F> auto with_replay_event(void *event, F f) {
  rt::replay_signal &s = replay_of(event);
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.event)
    throw error("pacxx::event: recorded in pacxx::capture (an event or the future of an "
                "asynchronous algorithm there), it marks the end of its graph's launches, and "
                "the graph has not been launched yet: call g.launch(q) first");
  return f(s.event);
}
} // namespace

void *queue_record(void *q) {
  if (rt::graph_object *g = rt::recording("an event (q.record(), a future)")) {
    auto s = std::make_shared<rt::replay_signal>();
    g->signals.push_back(s);
    auto *handle = new std::shared_ptr<rt::replay_signal>(std::move(s));
    return reinterpret_cast<void *>(reinterpret_cast<std::uintptr_t>(handle) | 1u);
  }
  rt::runtime &r = rt::runtime::get();
  return r.current().record_event(r.order(static_cast<rt::queue_object *>(q)));
}

void queue_wait_event(void *q, void *event) {
  rt::refuse_in_capture("waiting for an event (q.wait_for(e))");
  rt::runtime &r = rt::runtime::get();
  void *native = r.order(static_cast<rt::queue_object *>(q));
  if (is_replay_event(event))
    with_replay_event(event, [&](void *e) {
      r.current().queue_wait_event(native, e);
      return 0;
    });
  else
    r.current().queue_wait_event(native, event);
}

void event_wait(void *event) {
  if (is_replay_event(event)) {
    // Not yet launched: an error, not a refusal of the capture (a future made and
    // dropped inside the capture waits for its event quietly, and must not fail it).
    with_replay_event(event, [](void *) { return 0; });
    rt::refuse_in_capture("waiting for an event (e.wait(), future::get())");
    with_replay_event(event, [](void *e) {
      rt::runtime::get().current().wait_event(e);
      return 0;
    });
    return;
  }
  rt::refuse_in_capture("waiting for an event (e.wait(), future::get())");
  rt::runtime::get().current().wait_event(event);
}

bool event_ready(void *event) {
  if (is_replay_event(event))
    return with_replay_event(event,
                             [](void *e) { return rt::runtime::get().current().event_done(e); });
  return rt::runtime::get().current().event_done(event);
}

void event_release(void *event) noexcept {
  if (!event)
    return;
  if (is_replay_event(event)) {
    delete reinterpret_cast<std::shared_ptr<rt::replay_signal> *>(
        reinterpret_cast<std::uintptr_t>(event) & ~std::uintptr_t(1));
    return;
  }
  try {
    rt::runtime::get().current().release_event(event);
  } catch (...) {
  }
}

void *replay_event_native(void *event) noexcept {
  if (!is_replay_event(event))
    return event;
  rt::replay_signal &s = replay_of(event);
  std::lock_guard<std::mutex> lock(s.mutex);
  return s.event;
}

bool capturing() noexcept { return rt::capturing != nullptr; }

void capture_hold(std::shared_ptr<void> p) {
  if (rt::graph_object *g = rt::capturing)
    g->held.push_back(std::move(p));
}

// ---- Graphs (pacxx/graph.hpp) -------------------------------------------------------

void *capture_begin(void *q) {
  if (rt::capturing)
    throw error("pacxx::capture: this thread is already capturing a graph (captures do not "
                "nest; call a captured graph's parts inside the one capture)");
  rt::runtime::get().pool(); // the device is chosen before anything is recorded
  rt::capturing = new rt::graph_object(static_cast<rt::queue_object *>(q));
  return rt::capturing;
}

void *capture_end(void *gp, bool keep) {
  std::unique_ptr<rt::graph_object> g(static_cast<rt::graph_object *>(gp));
  rt::capturing = nullptr;
  if (!keep)
    return nullptr; // nothing of it ran: its memory goes back at once
  if (!g->refused.empty())
    throw error(g->refused);
  rt::device &dev = rt::runtime::get().current();
  const std::vector<rt::graph_command> &commands = g->commands;
  if (!commands.empty())
    g->native = dev.build_graph([&](void *queue) {
      for (const rt::graph_command &c : commands)
        c.issue(dev, queue);
    });
  return g.release();
}

void graph_launch(void *gp, void *q, std::size_t times) {
  if (rt::capturing)
    throw error("pacxx::graph::launch: inside pacxx::capture (a graph cannot be recorded into "
                "another; capture its work again instead)");
  auto *g = static_cast<rt::graph_object *>(gp);
  rt::runtime &r = rt::runtime::get();
  rt::device &dev = r.current();
  void *native = r.order(static_cast<rt::queue_object *>(q));
  // The timeline: the replays as one range on the queue's track (host: their issue) and,
  // where the backend times them, on its device track.
  const bool timed = r.events.on();
  rt::timeline::clock::time_point t0;
  void *m0 = nullptr;
  if (timed) {
    t0 = rt::timeline::clock::now();
    m0 = dev.timing_marker(native);
  }
  struct timeline_range {
    bool on;
    rt::runtime &r;
    rt::device &dev;
    void *native, *m0;
    rt::timeline::clock::time_point t0;
    std::size_t times, kernels;
    ~timeline_range() {
      if (!on)
        return;
      const std::string args = "\"replays\": " + std::to_string(times) +
                               ", \"kernels\": " + std::to_string(kernels * times);
      r.events.range("graph", "pacxx::graph::launch", native, t0, rt::timeline::clock::now(), args);
      void *m1 = nullptr;
      try {
        m1 = dev.timing_marker(native);
      } catch (...) {
      }
      r.events.device_range("graph", "pacxx::graph::launch", native, dev, m0, m1, args);
    }
  } range{timed, r, dev, native, m0, t0, times, g->kernels};
  if (g->native && times > 1 && times * g->commands.size() <= rt::max_repeated_nodes) {
    rt::native_graph *batch = nullptr;
    {
      std::lock_guard<std::mutex> lock(g->repeated_mutex);
      auto found = g->repeated.find(times);
      if (found == g->repeated.end() && g->repeated.size() < rt::max_repeated_graphs)
        found = g->repeated
                    .emplace(times, dev.build_graph([&](void *queue) {
                      for (std::size_t i = 0; i < times; ++i)
                        for (const rt::graph_command &c : g->commands)
                          c.issue(dev, queue);
                    }))
                    .first;
      if (found != g->repeated.end())
        batch = found->second.get();
    }
    if (batch) {
      batch->launch(native);
      r.stats.launches += g->kernels * times;
      g->signal(dev, native);
      return;
    }
  }
  for (std::size_t i = 0; i < times; ++i) {
    if (g->native)
      g->native->launch(native);
    else
      for (const rt::graph_command &c : g->commands)
        c.issue(dev, native);
    r.stats.launches += g->kernels;
  }
  g->signal(dev, native);
}

namespace {
// The device is idle: replays of a graph on any queue have finished.
void wait_for_replays(rt::runtime &r) {
  r.current().synchronize();
  for (void *q : r.queue_natives())
    r.current().wait_queue(q);
}
} // namespace

void graph_update(void *gp, void *np) {
  std::unique_ptr<rt::graph_object> n(static_cast<rt::graph_object *>(np));
  rt::capturing = nullptr;
  if (!n->refused.empty())
    throw error(n->refused);
  auto *g = static_cast<rt::graph_object *>(gp);
  // The same operations in the same order, each kernel the same kernel: what a CUDA
  // executable graph can take without being instantiated again (cuGraphExecUpdate), and
  // what makes the update the same work with other parameters rather than other work.
  const std::vector<rt::graph_command> &was = g->commands, &now = n->commands;
  auto fail = [](const std::string &why) {
    throw error("pacxx::graph::update: " + why +
                "; an update may change arguments, shapes, staged values, addresses and "
                "sizes, not the operations (capture a new graph for other work)");
  };
  if (was.size() != now.size())
    fail("the new recording has " + std::to_string(now.size()) + " operations, the graph " +
         std::to_string(was.size()));
  for (std::size_t i = 0; i < was.size(); ++i) {
    if (was[i].kind != now[i].kind)
      fail("operation " + std::to_string(i) + " is " + now[i].what() + ", in the graph " +
           was[i].what());
    if (was[i].kind == rt::graph_command::kernel &&
        was[i].variant->info.entry != now[i].variant->info.entry)
      fail("operation " + std::to_string(i) + " launches kernel '" + now[i].variant->info.display +
           "', the graph '" + was[i].variant->info.display + "'");
  }
  rt::runtime &r = rt::runtime::get();
  rt::device &dev = r.current();
  auto issue_times = [&](std::size_t times) {
    return [&dev, &now, times](void *queue) {
      for (std::size_t t = 0; t < times; ++t)
        for (const rt::graph_command &c : now)
          c.issue(dev, queue);
    };
  };
  if (g->native && !dev.update_graph(*g->native, issue_times(1)))
    g->native = dev.build_graph(issue_times(1)); // the driver refused: instantiated anew
  {
    std::lock_guard<std::mutex> lock(g->repeated_mutex);
    for (auto it = g->repeated.begin(); it != g->repeated.end();)
      if (dev.update_graph(*it->second, issue_times(it->first)))
        ++it;
      else
        it = g->repeated.erase(it); // made again by the next launch with that count
  }
  {
    std::lock_guard<std::mutex> lock(g->loop_mutex);
    g->loop.reset(); // made again from the new commands by the next iterate_until
  }
  // The new recording's commands and memory become the graph's; the old ones go with n.
  std::swap(g->commands, n->commands);
  std::swap(g->device_blocks, n->device_blocks);
  std::swap(g->host_blocks, n->host_blocks);
  for (int k = 0; k < 3; ++k)
    std::swap(g->scratch[k], n->scratch[k]);
  // The events and futures of both recordings are signalled by later launches (the old
  // ones mark them too: never earlier than their work).
  g->signals.insert(g->signals.end(), n->signals.begin(), n->signals.end());
  g->held.insert(g->held.end(), n->held.begin(), n->held.end());
  for (const rt::graph_command &c : n->commands)
    if (c.variant && std::find(g->retired.begin(), g->retired.end(), c.variant) == g->retired.end())
      g->retired.push_back(c.variant);
  // Memory of the old recording (temporaries, scratch, uploaded bytes) is freed when
  // replays that may still run have finished; a graph of kernels only has none and
  // does not wait.
  bool holds = !n->device_blocks.empty() || !n->host_blocks.empty();
  for (const auto &b : n->scratch)
    holds = holds || b;
  if (holds)
    wait_for_replays(r);
}

std::size_t graph_iterate(void *gp, void *q, const void *done, std::size_t every,
                          std::size_t batches) {
  constexpr std::size_t none = static_cast<std::size_t>(-1);
  if (rt::capturing)
    throw error("gpu::iterate_until: inside pacxx::capture (a loop cannot be recorded into "
                "a graph)");
  auto *g = static_cast<rt::graph_object *>(gp);
  if (!g->native || every * g->commands.size() > rt::max_repeated_nodes)
    return none;
  rt::runtime &r = rt::runtime::get();
  rt::device &dev = r.current();
  std::lock_guard<std::mutex> lock(g->loop_mutex);
  if (g->no_loop)
    return none;
  if (!g->loop || g->loop_every != every || g->loop_done != done || g->loop_batches != batches) {
    g->loop.reset();
    try {
      if (!g->loop_counter)
        g->loop_counter = pacxx::detail::device_allocate(sizeof(unsigned));
      const std::vector<rt::graph_command> &commands = g->commands;
      g->loop = dev.build_loop(
          [&](void *queue) {
            for (const rt::graph_command &c : commands)
              c.issue(dev, queue);
          },
          every, done, g->loop_counter, batches);
    } catch (const error &e) {
      // The portable loop (a readback per check) does the same work.
      if (r.config.c.trace)
        std::fprintf(stderr, "pacxx: gpu::iterate_until tests done with a readback per check: %s\n",
                     e.what());
    }
    if (!g->loop) {
      g->no_loop = true;
      return none;
    }
    g->loop_every = every;
    g->loop_done = done;
    g->loop_batches = batches;
  }
  void *native = r.order(static_cast<rt::queue_object *>(q));
  const bool timed = r.events.on();
  rt::timeline::clock::time_point t0;
  if (timed)
    t0 = rt::timeline::clock::now();
  void *m0 = timed ? dev.timing_marker(native) : nullptr;
  dev.fill_on_device(g->loop_counter, 0, sizeof(unsigned), native);
  g->loop->launch(native);
  g->signal(dev, native);
  void *m1 = m0 ? dev.timing_marker(native) : nullptr;
  unsigned ran = 0;
  dev.copy_to_host(&ran, g->loop_counter, sizeof ran, native, false);
  if (timed) {
    // The loop on the device as one range (its batches are not seen by the host).
    const std::string args = "\"replays\": " + std::to_string(every * ran) +
                             ", \"kernels\": " + std::to_string(g->kernels * every * ran);
    r.events.range("graph", "gpu::iterate_until (device loop)", native, t0,
                   rt::timeline::clock::now(), args);
    r.events.device_range("graph", "gpu::iterate_until (device loop)", native, dev, m0, m1, args);
  }
  r.stats.to_host += sizeof ran;
  r.stats.launches += g->kernels * every * ran;
  return ran;
}

std::size_t graph_kernels(const void *g) noexcept {
  return static_cast<const rt::graph_object *>(g)->kernels;
}

void graph_destroy(void *gp) noexcept {
  auto *g = static_cast<rt::graph_object *>(gp);
  if (!g)
    return;
  // Replays may still be running on any queue; the graph's memory and kernels must
  // outlive them.
  try {
    wait_for_replays(rt::runtime::get());
  } catch (...) {
  }
  delete g;
}

void *current_queue() noexcept { return rt::current_queue_object; }

void *set_current_queue(void *q) noexcept {
  void *previous = rt::current_queue_object;
  rt::current_queue_object = static_cast<rt::queue_object *>(q);
  return previous;
}

} // namespace detail
} // namespace pacxx
