// gpu::vector and pacxx::queue objects with static storage duration (issue 34, item
// 10): the program works and exits with status 0 on every backend.
//
// Static objects are destroyed in the reverse order of their construction. The runtime
// is a static object of libpacxx made at its first use, so:
//  - `made_before_runtime` (an empty vector: no runtime call) and `announce` are
//    constructed before the runtime and destroyed after it. The vector is assigned
//    device memory in main, so its free runs after the runtime was shut down: it must
//    do nothing, not touch the destroyed runtime;
//  - `filled` and `static_queue` make the runtime while they are constructed (before
//    main), so they are destroyed before it, as a local static made in main is;
//  - `announce` is constructed first, so its destructor runs last: it prints the line
//    the test looks for after everything else was torn down.
// ctest checks the exit status and the output (tests/run_expect_output.sh).
#include <pacxx/pacxx.hpp>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

struct announcer {
  ~announcer() { std::printf("static_lifetime_test: after the runtime: clean\n"); }
} announce;

gpu::vector<int> made_before_runtime;
gpu::vector<int> filled(1000, 7);
pacxx::queue static_queue;

int fail(const char *what) {
  std::printf("static_lifetime_test: FAILED: %s\n", what);
  return 1;
}

} // namespace

int main() {
  std::vector<int> h(4096);
  for (std::size_t i = 0; i < h.size(); ++i)
    h[i] = static_cast<int>(i);
  made_before_runtime = gpu::copy(h);
  gpu::transform(made_before_runtime, made_before_runtime, [](int x) { return 2 * x; });

  static gpu::vector<int> local_static = gpu::copy(h);
  static pacxx::queue local_queue;
  {
    pacxx::queue_scope on(static_queue);
    gpu::transform(filled, filled, [](int x) { return x + 1; });
  }
  static_queue.wait();
  {
    pacxx::queue_scope on(local_queue);
    gpu::transform(local_static, local_static, [](int x) { return x * x; });
  }
  local_queue.wait();

  std::vector<int> a = gpu::copy(made_before_runtime), b = gpu::copy(filled),
                   c = gpu::copy(local_static);
  for (std::size_t i = 0; i < h.size(); ++i)
    if (a[i] != 2 * h[i] || c[i] != h[i] * h[i])
      return fail("transform of a static vector");
  for (int x : b)
    if (x != 8)
      return fail("transform of a vector made before main, on a static queue");
  // Work still queued at exit: the queues' destructors wait for it.
  gpu::transform(static_queue, made_before_runtime, made_before_runtime, [](int x) { return x; });
  std::printf("static_lifetime_test: ok (%zu launches)\n", pacxx::stats().kernel_launches);
  return 0;
}
