// Several host threads at once: the same new kernel is compiled once, and launches
// from 8 threads give correct results.
#include <pacxx/pacxx.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace {

void scale_into(const gpu::vector<int> &in, gpu::vector<int> &out, int factor) {
  const std::size_t n = in.size();
  pacxx::kernel(
      [](const int *x, int *o, std::size_t n, int f) {
        auto i = pacxx::Thread::get().global.x;
        if (i < n)
          o[i] = x[i] * f;
      },
      {{(n + 127) / 128}, {128}})(in.data(), out.data(), n, factor);
}

TEST(Threads, EightThreadsLaunchTheSameNewKernel) {
  pacxx::reset_stats();
  std::atomic<int> go{0}, wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      std::vector<int> host(10007 + t);
      for (std::size_t i = 0; i < host.size(); ++i)
        host[i] = static_cast<int>(i) - 5000;
      gpu::vector<int> in = gpu::copy(host), out(host.size());
      go++;
      while (go < 8) // start the first launches together
        std::this_thread::yield();
      for (int round = 0; round < 5; ++round) {
        scale_into(in, out, t + round);
        std::vector<int> r = gpu::copy(out);
        for (std::size_t i = 0; i < r.size(); ++i)
          if (r[i] != host[i] * (t + round))
            wrong++;
      }
    });
  for (auto &t : threads)
    t.join();
  EXPECT_EQ(wrong, 0);
  pacxx::runtime_stats s = pacxx::stats();
  EXPECT_EQ(s.jit_compilations, 1u) << "the kernel must be compiled once for all threads";
  EXPECT_EQ(s.kernel_launches, 40u);
}

TEST(Threads, ReductionsOnSeveralThreads) {
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      std::vector<float> host(50000 + 1000 * t, 1.0f);
      for (int round = 0; round < 3; ++round)
        if (gpu::reduce(gpu::copy(host), 0.0f) != static_cast<float>(host.size()))
          wrong++;
    });
  for (auto &t : threads)
    t.join();
  EXPECT_EQ(wrong, 0);
}

} // namespace
