// The host cost of a launch that runs nothing (an empty grid): the registry lookup, the
// stage stubs, the kernel-cache lookup and the checks, but no driver call. Run with
// PACXX_STAGING=1 and =0 to see what a staged launch adds on the host. Not part of the
// build: README.md of this folder says how it was built and run.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <pacxx/pacxx.hpp>
#include <vector>
int main() {
  gpu::vector<int> v(1);
  int *p = v.data();
  auto k = pacxx::kernel(
      [](int *p, long n) {
        const long m = pacxx::stage(n / 3);
        if (static_cast<long>(pacxx::Thread::get().global.x) < m)
          p[0] = 1;
      },
      {{0}, {64}});
  k(p, 3000L); // compiles
  std::vector<double> per;
  for (int rep = 0; rep < 7; ++rep) {
    const int N = 200000;
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < N; ++i)
      k(p, 3000L);
    auto t1 = std::chrono::steady_clock::now();
    per.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / N);
  }
  std::sort(per.begin(), per.end());
  std::printf("%.1f ns per empty launch (median of 7)\n", per[3]);
}
