// gpu::deterministic: an execution tag, the first argument of the algorithms that offer a
// deterministic variant (as a pacxx::queue is the first argument of the calls that take
// one):
//
//   gpu::inclusive_scan(gpu::deterministic, in, out[, op])
//   gpu::exclusive_scan(gpu::deterministic, in, out, init[, op])
//   gpu::inclusive_scan_by_key(gpu::deterministic, keys, values, out[, eq, op])
//   gpu::exclusive_scan_by_key(gpu::deterministic, keys, values, out, init[, eq, op])
//
// Without it a scan's look-back combines the tiles' partial results in an order that
// depends on timing, so a floating-point scan may differ in its last bits from run to
// run (integers are exact either way). With it every result is computed in one fixed
// order: the same input gives the same bits on every run on the device (docs/
// RELIABILITY.md, "Determinism", says what holds for every algorithm).
#pragma once
#include <type_traits>

namespace gpu {

// The type of gpu::deterministic (an explicit default constructor, so {} does not convert
// to it).
struct deterministic_t {
  explicit constexpr deterministic_t() = default;
};
// The tag that selects an algorithm's deterministic variant: the same input gives the same
// bits on every run (gpu::inclusive_scan(gpu::deterministic, in, out), ...).
constexpr deterministic_t deterministic{};

namespace detail {
// Whether X is the tag (to keep the overloads without it from taking it as a range).
template <class X>
using is_deterministic_tag = std::is_same<typename std::decay<X>::type, deterministic_t>;
} // namespace detail

} // namespace gpu
