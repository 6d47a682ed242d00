// Listing 9 of the PACXX paper: a reduction written as a pacxx::kernel whose elements
// per thread are staged: computed on the host before the launch and compiled into the
// kernel as a constant, so the loop over them is unrolled. (gpu::reduce is built the
// same way; PACXX_STAGING=0 turns staging off for comparison.)
#include <pacxx/pacxx.hpp>

#include <cstdio>
#include <numeric>
#include <vector>

using namespace pacxx;

template <class InRng, class T, class Fun> auto reduce(InRng &&in, T init, Fun &&fun) {
  // 1. preparation of kernel call
  const size_t lclSize = 256, glbSize = 64 * lclSize;
  const size_t distance = in.size();
  gpu::vector<T> out(glbSize / lclSize);
  // 2. create GPU kernel
  auto kernel = pacxx::kernel(
      [fun](auto &&in, auto &&out, int size, auto init) {
        const int glbSize = static_cast<int>(Block::get().size.x * Grid::get().size.x);
        int gid = static_cast<int>(Thread::get().global.x);
        const int lid = static_cast<int>(Thread::get().local.x);
        const int bid = static_cast<int>(Block::get().index.x);
        // 2a. stage elements per thread
        int ept = stage((size + glbSize - 1) / glbSize);
        // 2b. start reduction computation
        auto sum = init;
        for (int x = 0; x < ept; ++x) {
          if (gid < size)
            sum = fun(sum, *(in + gid));
          gid += glbSize;
        }
        // 2c. perform reduction in shared memory
        shared_memory<decltype(sum), 256> shared;
        shared[lid] = sum;
        barrier();
        for (int s = 128; s > 0; s /= 2) {
          if (lid < s)
            shared[lid] = fun(shared[lid], shared[lid + s]);
          barrier();
        }
        // 2d. write result back
        if (lid == 0)
          *(out + bid) = shared[0];
      },
      {{glbSize / lclSize}, {lclSize}});
  // 3. execute kernel
  kernel(in.begin(), out.begin(), static_cast<int>(distance), init);
  // 4. finish reduction on the CPU
  auto partial = gpu::copy(out);
  return std::accumulate(partial.begin(), partial.end(), init, fun);
}

int main() {
  const size_t n = (1 << 22) + 17;
  std::vector<int> host(n);
  for (size_t i = 0; i < n; ++i)
    host[i] = static_cast<int>(i % 1000) - 499;
  try {
    gpu::vector<int> in = gpu::copy(host);
    int sum = ::reduce(in, 0, [](int a, int b) { return a + b; });
    long long ref = std::accumulate(host.begin(), host.end(), 0LL);
    printf("staged reduction of %zu ints: %d (host: %lld): %s\n", n, sum, ref,
           sum == ref ? "correct" : "WRONG");
    return sum == ref ? 0 : 1;
  } catch (const pacxx::error &e) {
    fprintf(stderr, "reduce_staged: %s\n", e.what());
    return 1;
  }
}
