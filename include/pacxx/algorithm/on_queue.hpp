// The queue as a first argument: gpu::reduce(q, rng, init), gpu::copy(q, ...),
// gpu::reduce_async(q, ...), ... are the same calls inside a pacxx::queue_scope on q
// (every launch and copy they make goes to q). Any other algorithm or action runs on a
// queue within a scope: { pacxx::queue_scope on(q); gpu::sort(v); }
#pragma once
#include <utility>

#include "pacxx/algorithm/copy.hpp"
#include "pacxx/algorithm/count.hpp"
#include "pacxx/algorithm/for_each.hpp"
#include "pacxx/algorithm/reduce.hpp"
#include "pacxx/algorithm/reduce_async.hpp"
#include "pacxx/algorithm/transform.hpp"
#include "pacxx/algorithm/transform_reduce.hpp"
#include "pacxx/pinned_vector.hpp"
#include "pacxx/queue.hpp"

// Declares gpu::name(q, args...): gpu::name(args...) inside a pacxx::queue_scope on q, so
// every launch and copy of the call goes to q (the overloads below; not meant for users'
// own functions).
#define PACXX_ON_QUEUE(name)                                                                       \
  template <class... A>                                                                            \
  auto name(const pacxx::queue &q, A &&...a)->decltype(gpu::name(std::forward<A>(a)...)) {         \
    pacxx::queue_scope on(q);                                                                      \
    return gpu::name(std::forward<A>(a)...);                                                       \
  }

namespace gpu {
PACXX_ON_QUEUE(copy)
PACXX_ON_QUEUE(copy_async)
PACXX_ON_QUEUE(materialize)
PACXX_ON_QUEUE(count_if)
PACXX_ON_QUEUE(count_if_async)
PACXX_ON_QUEUE(fill)
PACXX_ON_QUEUE(for_each)
PACXX_ON_QUEUE(reduce)
PACXX_ON_QUEUE(reduce_async)
PACXX_ON_QUEUE(reduce_to)
PACXX_ON_QUEUE(transform)
PACXX_ON_QUEUE(transform_reduce)
PACXX_ON_QUEUE(transform_reduce_async)
} // namespace gpu

#undef PACXX_ON_QUEUE
