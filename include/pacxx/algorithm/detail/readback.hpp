// Small results that a kernel writes for the host to read once it is done: reduction
// partials, a search's index, the number of runs or selected elements. Where kernels
// can write pinned host memory (CUDA, through unified addressing) the kernel writes them
// straight into the per-thread host_scratch, and the host only waits for the kernel;
// elsewhere (OpenCL) the kernel writes device memory that the caller provides, and the
// host copies it back.
//
// Why: the copy after the kernel was most of a small call's time. Measured on the H100
// (2026-11-25, benchmarks/reductions, medians of 3, two interleaved runs): gpu::reduce of
// 2^16..2^23 floats took 16-25 us with the partials copied back (cuMemcpyDtoH) and
// 10.5-16.4 us written to pinned memory; CUB's DeviceReduce, 19-30 us. At 2^28 the copy
// still cost 6-8 us (369.7 against 362.8 us).
#pragma once
#include <cstddef>
#include <cstring>
#include <type_traits>
#include <vector>

#include "pacxx/algorithm/policy.hpp"
#include "pacxx/runtime.hpp"

namespace gpu {
namespace detail {

// Device code: stores v at p with one access where T is 8 or 16 bytes (p aligned to its
// size, as every result slot of a scratch buffer is), so that a block's partial in
// pinned host memory is one PCIe write and not one per member.
typedef unsigned long long result_word __attribute__((may_alias));
typedef unsigned long long result_pair __attribute__((vector_size(16), may_alias));
template <class T> inline void store_result(T *p, const T &v, std::integral_constant<int, 0>) {
  *p = v;
}
template <class T> inline void store_result(T *p, const T &v, std::integral_constant<int, 8>) {
  result_word w;
  std::memcpy(&w, &v, 8);
  *reinterpret_cast<result_word *>(p) = w;
}
template <class T> inline void store_result(T *p, const T &v, std::integral_constant<int, 16>) {
  unsigned long long w[2]; // words, not the vector: a memcpy into it went through the stack
  std::memcpy(w, &v, 16);
  *reinterpret_cast<result_pair *>(p) = result_pair{w[0], w[1]};
}
// The width of store_result's one access: 8 or 16 bytes, else 0 (a plain assignment).
template <class T>
struct result_access
    : std::integral_constant<int, sizeof(T) == 8 || sizeof(T) == 16 ? int(sizeof(T)) : 0> {};
template <class T> inline void store_result(T *p, const T &v) {
  store_result(p, v, result_access<T>{});
}

// Where a kernel writes `count` values of T for the host: `kernel`, pinned host memory
// (on_host) or `fallback`, device memory for count values that the caller provides.
template <class T> struct readback_memory {
  T *kernel;
  bool on_host;
  std::size_t count;
  readback_memory(std::size_t n, void *fallback)
      : kernel(static_cast<T *>(pacxx::detail::host_scratch(n * sizeof(T)))),
        on_host(kernel != nullptr), count(n) {
    if (!on_host)
      kernel = static_cast<T *>(fallback);
  }
};

// The values on the host once the kernel that writes them is done (waits for it).
template <class T> class readback {
  std::vector<T> copied_; // where they were in device memory
  const T *pinned_;       // or where the kernel wrote them
  std::size_t size_;

public:
  explicit readback(const readback_memory<T> &m)
      : copied_(m.on_host ? 0 : m.count), pinned_(m.on_host ? m.kernel : nullptr), size_(m.count) {
    if (m.on_host)
      pacxx::detail::wait_host_scratch(size_ * sizeof(T));
    else
      pacxx::detail::copy_to_host(copied_.data(), m.kernel, size_ * sizeof(T));
  }
  std::size_t size() const { return size_; }
  const T *begin() const { return pinned_ ? pinned_ : copied_.data(); }
  const T *end() const { return begin() + size_; }
  const T &operator[](std::size_t i) const { return begin()[i]; }
};

// The fold of n > 0 values under an associative, commutative op, on the
// host: eight interleaved chains, because a single chain waits out each op's latency.
// Folding 528 partials on the build machine (AMD EPYC, clang -O2): (value, index) pairs
// under min_element's op 1203 ns in one chain, 396 ns in eight; floats under + 221 and
// 24 ns.
template <class T, class Op> T fold_partials(const T *p, std::size_t n, Op op) {
  constexpr std::size_t C = 8;
  if (n < 2 * C) {
    T r = p[0];
    for (std::size_t k = 1; k < n; ++k)
      r = op(r, p[k]);
    return r;
  }
  T c[C] = {p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]};
  std::size_t k = C;
  for (; k + C <= n; k += C)
    for (std::size_t j = 0; j < C; ++j)
      c[j] = op(c[j], p[k + j]);
  for (; k < n; ++k)
    c[0] = op(c[0], p[k]);
  for (std::size_t w = C / 2; w > 0; w /= 2)
    for (std::size_t j = 0; j < w; ++j)
      c[j] = op(c[j], c[j + w]);
  return c[0];
}
template <class T, class Op> T fold_partials(const readback<T> &parts, Op op) {
  return fold_partials(parts.begin(), parts.size(), op);
}

} // namespace detail
} // namespace gpu
