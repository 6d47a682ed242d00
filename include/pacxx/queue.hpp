// Queues, events and device futures.
//
// pacxx::queue is an in-order queue of the selected device (a CUstream, a
// cl_command_queue). Work on one queue runs in order; work on different queues may
// overlap. Without a queue everything goes to the device's default queue, as before.
// A queue is given to work in one of three ways:
//   { pacxx::queue_scope on(q); ... }   every launch, copy and algorithm of this host
//                                       thread inside the scope goes to q;
//   gpu::reduce(q, rng, init), gpu::copy(q, ...), gpu::reduce_async(q, ...), ...
//                                       (the queue as a first argument: the same scope
//                                       around one call);
//   pacxx::kernel(f, cfg).on(q)(args...) for a kernel.
// Queues may be used from several host threads; algorithms on one queue from several
// threads at once are ordered as the threads issue them.
//
// pacxx::event marks the work enqueued on a queue so far (q.record()); another queue
// waits for it without the host (q2.wait_for(e)), or the host does (e.wait()). Recorded
// inside pacxx::capture (also a future's event there), it marks the end of its graph's
// latest launch: waiting for it before the graph's first launch is a pacxx::error.
//
// pacxx::future<T> is the result of an asynchronous algorithm (gpu::reduce_async, ...,
// gpu::async): completed by a device event, no host thread per call. Movable; get()
// waits for the event and returns the value or rethrows the error (of the device, or
// of the host part of the call); a future destroyed without get() waits for its work.
#pragma once
#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <future>
#include <memory>
#include <thread>
#include <type_traits>
#include <utility>

#include "pacxx/error.hpp"
#include "pacxx/runtime.hpp"

namespace pacxx {

// A point in a queue's work (pacxx::record, queue::record): wait for it on the host or
// make another queue wait for it on the device. Copies share the native event.
class event {
  std::shared_ptr<void> e_;

public:
  event() = default;
  // Takes over an event of the runtime (detail::queue_record).
  explicit event(void *runtime_event) : e_(runtime_event, &detail::event_release) {}

  // Whether the event marks work (a default-constructed one does not).
  bool valid() const noexcept { return e_ != nullptr; }
  // Waits for the work before the event; throws the device's error if it failed.
  void wait() const {
    if (e_)
      detail::event_wait(e_.get());
  }
  // Whether the work before the event is done (without waiting).
  bool ready() const { return !e_ || detail::event_ready(e_.get()); }
  // The CUevent or cl_event (owned by this event and its copies). For an event recorded
  // in pacxx::capture: that of its graph's latest launch, null before the first.
  void *native_handle() const noexcept {
    void *e = e_.get();
    return (reinterpret_cast<std::uintptr_t>(e) & 1u) ? detail::replay_event_native(e) : e;
  }
};

// An in-order queue of device work (a CUDA stream, an OpenCL command queue). Work goes
// to this thread's current queue (queue_scope sets it; pacxx::on_queue, kernel.on()).
class queue {
  void *q_ = nullptr; // the runtime's queue object; null: the default queue
  struct no_queue {};
  explicit queue(no_queue) noexcept {}

public:
  // A new queue of the selected device.
  queue() : q_(detail::queue_create()) {}
  // A queue made outside pacxx (a CUstream of the current device's primary context, a
  // cl_command_queue of pacxx's context: pacxx::native_handles()), used but not
  // destroyed by pacxx; it must outlive this object.
  static queue adopt(void *native) {
    queue q{no_queue{}};
    q.q_ = detail::queue_adopt(native);
    return q;
  }
  // The device's default queue (where work without a queue goes).
  static queue &default_queue() {
    static queue d{no_queue{}};
    return d;
  }

  queue(const queue &) = delete;
  queue &operator=(const queue &) = delete;
  // Takes over o's queue (o is left without one).
  queue(queue &&o) noexcept : q_(o.q_) { o.q_ = nullptr; }
  // Destroys this queue (after its work) and takes over o's.
  queue &operator=(queue &&o) noexcept {
    if (this != &o) {
      detail::queue_destroy(q_);
      q_ = o.q_;
      o.q_ = nullptr;
    }
    return *this;
  }
  // Waits for the queue's work, then destroys it (an adopted native queue survives).
  ~queue() { detail::queue_destroy(q_); }

  // Waits for all work enqueued so far; throws the device's error if some failed.
  void wait() const { detail::queue_wait(q_); }
  // An event after all work enqueued on this queue so far.
  event record() const { return event(detail::queue_record(q_)); }
  // Work enqueued on this queue from now on waits for e (on the device).
  void wait_for(const event &e) const {
    if (e.valid())
      detail::queue_wait_event(q_, e.native_handle());
  }
  // The CUstream (null: the legacy default stream) or cl_command_queue.
  void *native_handle() const { return detail::queue_native(q_); }
  // The runtime's object (for queue_scope and the runtime's entry points).
  void *get() const noexcept { return q_; }
};

// Whether T is pacxx::queue (the algorithms' overloads that take a queue first use it).
template <class T> struct is_queue : std::false_type {};
// pacxx::queue is a queue.
template <> struct is_queue<queue> : std::true_type {};

// Within its lifetime every launch, copy and algorithm of this host thread goes to q.
class queue_scope {
  void *previous_;

public:
  // Makes q this thread's current queue until the scope ends (the previous one then).
  explicit queue_scope(const queue &q) noexcept : previous_(detail::set_current_queue(q.get())) {}
  // Makes the previous queue current again.
  ~queue_scope() { detail::set_current_queue(previous_); }
  queue_scope(const queue_scope &) = delete;
  queue_scope &operator=(const queue_scope &) = delete;
};

// An event after all work enqueued so far on this thread's current queue.
inline event record() { return event(detail::queue_record(detail::current_queue())); }

// A result the device is still computing (gpu::reduce_async, ...): get() waits for it and
// returns it, or throws the device's error.
template <class T> class future {
  struct state {
    event done;
    std::function<T()> result; // run by get() once done (reads pinned memory, folds, ...)
    std::exception_ptr error;
  };
  std::unique_ptr<state> s_;

  void wait_quietly() noexcept {
    if (s_ && !s_->error) {
      try {
        s_->done.wait();
      } catch (...) {
      }
    }
  }

public:
  future() = default;
  // Completed when `done` is; get() returns result().
  future(event done, std::function<T()> result)
      : s_(new state{std::move(done), std::move(result), nullptr}) {}
  // A future that rethrows e from get().
  static future failed(std::exception_ptr e) {
    future f;
    f.s_.reset(new state{event(), std::function<T()>(), e});
    return f;
  }

  // Takes over o's state.
  future(future &&) noexcept = default;
  // Waits for this future's work (its errors dropped), then takes over o's state.
  future &operator=(future &&o) noexcept {
    if (this != &o) {
      wait_quietly();
      s_ = std::move(o.s_);
    }
    return *this;
  }
  // Waits for the work (its memory may be in use until then); errors are dropped.
  ~future() { wait_quietly(); }

  // Whether the future has a state (not default-made, moved from, or got).
  bool valid() const noexcept { return s_ != nullptr; }
  // Whether get() would not wait.
  bool ready() const {
    if (!s_)
      throw error("pacxx::future::ready: the future has no state (moved from, or get() done)");
    if (s_->error)
      return true;
    try {
      return s_->done.ready();
    } catch (...) {
      return true; // the device failed: get() throws
    }
  }
  // Waits for the work; an error is kept for get().
  void wait() const {
    if (!s_)
      throw error("pacxx::future::wait: the future has no state (moved from, or get() done)");
    if (s_->error)
      return;
    try {
      s_->done.wait();
    } catch (...) {
      s_->error = std::current_exception();
    }
  }
  // As std::future::wait_for: ready, or timeout after d (polls the event).
  template <class Rep, class Period>
  std::future_status wait_for(const std::chrono::duration<Rep, Period> &d) const {
    const auto deadline = std::chrono::steady_clock::now() + d;
    while (!ready()) {
      if (std::chrono::steady_clock::now() >= deadline)
        return std::future_status::timeout;
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
    return std::future_status::ready;
  }
  // The device event that completes this future (for q.wait_for), invalid if none.
  event get_event() const { return s_ ? s_->done : event(); }
  // Waits, then returns the result or rethrows the error. Once.
  T get() {
    wait();
    std::unique_ptr<state> s = std::move(s_);
    if (s->error)
      std::rethrow_exception(s->error);
    return s->result();
  }
};

// A future holding a value already known on the host.
template <class T> future<T> make_ready_future(T value) {
  auto v = std::make_shared<T>(std::move(value));
  return future<T>(event(), [v]() { return std::move(*v); });
}

} // namespace pacxx
