// Callbacks for tools (profilers, tracers, counters), as Kokkos Tools has: the runtime
// tells a tool where each GPU STL algorithm begins and ends, and around it every kernel
// launch, copy and device allocation. Set them from the program (pacxx::tools::set_callbacks)
// or name a shared library in PACXX_TOOLS_LIBRARY: the runtime opens it when it starts
// and calls its `extern "C" void pacxx_tools_init(pacxx::tools::callbacks *)`, which
// fills in the callbacks it wants (and `pacxx_tools_finalize()`, if the library has
// one, when the runtime shuts down). docs/performance.md shows a tool.
//
// The same events make the ranges of PACXX_TRACE=timeline:FILE and, on CUDA, NVTX
// ranges (Nsight Systems and Nsight Compute show the algorithms' names) when a profiler
// injects NVTX (NVTX_INJECTION64_PATH).
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <range/v3/range/concepts.hpp>
#include <range/v3/range/primitives.hpp>

namespace pacxx {
namespace tools {

/// What a range is about.
enum class event : int {
  algorithm = 0,  ///< a GPU STL algorithm (gpu::reduce, gpu::sort, ...), around the rest
  launch = 1,     ///< one kernel launch (its issue on the host: launches are asynchronous)
  copy = 2,       ///< a copy between host and device or on the device
  allocation = 3, ///< a device allocation (from the pool or the driver)
};

/// The size of an algorithm over a range whose size is not known without running it.
constexpr std::size_t unknown_size = ~std::size_t(0);

/// One range a tool is told of, at its begin and again at its end.
struct range_info {
  event kind;       ///< what the range is about
  const char *name; ///< "gpu::reduce", the kernel's name, "copy to device", "allocate"...
  /// algorithm: elements of its input (or unknown_size); launch: threads in the grid;
  /// copy, allocation: bytes.
  std::size_t size;
  void *queue;      ///< the native queue (CUstream, cl_command_queue); null: the default
  std::uint64_t id; ///< unique in the process, the same at the range's begin and end
};

/// The callbacks of a tool; a null one is not called. They run on the thread that does
/// the work, inside the runtime: they must not call pacxx (launch, copy, allocate).
struct callbacks {
  void *data = nullptr; ///< handed to every callback as it is
  /// Called when a range begins.
  void (*begin)(void *data, const range_info &range) = nullptr;
  /// Called when a range ends (ranges of one thread end in the reverse order of their begins).
  void (*end)(void *data, const range_info &range) = nullptr;
};

/// Installs the callbacks (replacing those before; a callbacks{} with no function
/// turns them off). Set them between algorithms, not while another thread runs one.
void set_callbacks(const callbacks &c);

/// The callbacks installed now (by set_callbacks or by PACXX_TOOLS_LIBRARY).
callbacks get_callbacks();

} // namespace tools

namespace detail {

/// Nonzero while a tool, a timeline or NVTX wants the algorithms' ranges, or while the
/// runtime has not started yet (it decides then). Read on every algorithm: a relaxed
/// load and a branch is all an algorithm pays when nothing listens.
extern std::atomic<int> tools_listening;

/// Opens an algorithm's range (runtime side); 0: nobody listens, nothing to close.
std::uint64_t algorithm_begin(const char *name, std::size_t size) noexcept;
/// Closes the range algorithm_begin opened.
void algorithm_end(std::uint64_t id) noexcept;

/// The number of elements of rng when it is sized, else tools::unknown_size.
template <class Rng> std::size_t tools_size(const Rng &rng, std::true_type) {
  return static_cast<std::size_t>(ranges::size(rng));
}
template <class Rng> std::size_t tools_size(const Rng &, std::false_type) {
  return tools::unknown_size;
}

/// An algorithm's range for tools, the timeline and NVTX, from its construction to its
/// destruction (an exception closes it too). One in each algorithm's entry point.
class algorithm_scope {
public:
  /// A range named `name` (its size unknown).
  explicit algorithm_scope(const char *name) {
    if (tools_listening.load(std::memory_order_relaxed))
      id_ = algorithm_begin(name, tools::unknown_size);
  }
  /// A range named `name` over x's elements (x's size is read only when somebody
  /// listens, and only when x is a sized range; else the size is unknown).
  template <class X> algorithm_scope(const char *name, const X &x) {
    if (tools_listening.load(std::memory_order_relaxed))
      id_ = algorithm_begin(
          name, tools_size(x, std::integral_constant<bool, ranges::sized_range<const X>>{}));
  }
  ~algorithm_scope() {
    if (id_)
      algorithm_end(id_);
  }
  algorithm_scope(const algorithm_scope &) = delete;
  algorithm_scope &operator=(const algorithm_scope &) = delete;

private:
  std::uint64_t id_ = 0;
};

} // namespace detail
} // namespace pacxx
