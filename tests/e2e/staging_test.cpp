// Multi-staging and the in-memory kernel cache: staged values are computed on the host
// per launch, each distinct set is one compiled variant, and results are right with
// staging on and off (PACXX_STAGING=0 runs this same program).
#include <pacxx/pacxx.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

bool staging_on() {
  const char *s = std::getenv("PACXX_STAGING");
  return !(s && std::strcmp(s, "0") == 0);
}

// Sums `per` consecutive elements per thread; `per` is staged from n and the grid.
void staged_sums(const gpu::vector<float> &in, gpu::vector<float> &out, std::size_t threads) {
  pacxx::kernel(
      [](const float *x, float *o, std::size_t n) {
        const std::size_t total = pacxx::Block::get().size.x * pacxx::Grid::get().size.x;
        const std::size_t per = pacxx::stage(n / total);
        const std::size_t t = pacxx::Thread::get().global.x;
        float s = 0;
        for (std::size_t k = 0; k < per; ++k)
          s += x[t * per + k];
        o[t] = s;
      },
      {{threads / 32}, {32}})(in.data(), out.data(), in.size());
}

void check_sums(std::size_t n, std::size_t threads) {
  std::vector<float> host = pacxx_test::random_vector<float>(n, n, -4, 4);
  gpu::vector<float> in = gpu::copy(host), out(threads);
  staged_sums(in, out, threads);
  std::vector<float> r = gpu::copy(out);
  const std::size_t per = n / threads;
  for (std::size_t t = 0; t < threads; ++t) {
    float ref = 0;
    for (std::size_t k = 0; k < per; ++k)
      ref += host[t * per + k];
    ASSERT_NEAR(r[t], ref, 1e-3f) << "thread " << t << " n " << n;
  }
}

TEST(Staging, AlternatingSizesCompileTwoVariants) {
  check_sums(64 * 8, 64); // warm: the vector constructor's fill kernel and this one
  pacxx::reset_stats();
  for (int round = 0; round < 3; ++round) {
    check_sums(64 * 8, 64);  // 8 per thread
    check_sums(64 * 12, 64); // 12 per thread
  }
  pacxx::runtime_stats s = pacxx::stats();
  // Staging on: one new variant (12 per thread); off: the same kernel for both.
  EXPECT_EQ(s.jit_compilations, staging_on() ? 1u : 0u);
  EXPECT_EQ(s.kernel_launches, 6u);
  EXPECT_EQ(s.memory_cache_hits, 6u - s.jit_compilations);
}

TEST(Staging, ValuesFromCapturesArgumentsAndLaunchShape) {
  int scale = 3; // not const: a constant would not be captured at all
  gpu::vector<long long> out(4);
  for (double f : {0.5, 2.25}) {
    pacxx::kernel(
        [scale](long long *o, double factor, int k) {
          if (pacxx::Thread::get().global.x != 0)
            return;
          o[0] = pacxx::stage(scale * k); // capture, argument
          o[1] = pacxx::stage(static_cast<long long>(pacxx::Grid::get().size.x *
                                                     pacxx::Block::get().size.x)); // shape
          o[2] = static_cast<long long>(pacxx::stage(factor * 4));                 // double
          o[3] = pacxx::stage(k > 5);                                              // bool
        },
        {{2}, {16}})(out.data(), f, 7);
    std::vector<long long> r = gpu::copy(out);
    EXPECT_EQ(r[0], 21);
    EXPECT_EQ(r[1], 32);
    EXPECT_EQ(r[2], static_cast<long long>(f * 4));
    EXPECT_EQ(r[3], 1);
  }
}

TEST(Staging, ReduceUsesStagedElementsPerThread) {
  for (std::size_t n :
       {std::size_t(1), std::size_t(1009), std::size_t(1) << 20, (std::size_t(1) << 20) + 3}) {
    std::vector<int> host(n);
    long long ref = 0;
    for (std::size_t i = 0; i < n; ++i)
      ref += host[i] = static_cast<int>(i % 13) - 6;
    EXPECT_EQ(gpu::reduce(gpu::copy(host), 0LL), ref) << n;
  }
}

// The dumped SPIR (OpenCL) or PTX (CUDA) of the 8-per-thread variant has its loop
// unrolled: eight loads of x and no branch back.
TEST(Staging, StagedLoopIsUnrolledInDumpedCode) {
  const char *dir = std::getenv("PACXX_DUMP_DIR");
  if (!dir || !staging_on())
    GTEST_SKIP() << "runs with PACXX_DUMP_DIR set and staging on";
  check_sums(64 * 8, 64);
  DIR *d = opendir(dir);
  ASSERT_NE(d, nullptr);
  int checked = 0;
  while (dirent *e = readdir(d)) {
    std::string name = e->d_name;
    bool spir = name.find(".spir.ll") != std::string::npos;
    bool ptx = name.size() > 4 && name.compare(name.size() - 4, 4, ".ptx") == 0;
    if (name.find("staging_test_cpp") == std::string::npos || !(spir || ptx))
      continue;
    std::ifstream f(std::string(dir) + "/" + name);
    std::stringstream ss;
    ss << f.rdbuf();
    std::string code = ss.str();
    auto count = [&](const std::string &what) {
      int c = 0;
      for (std::size_t at = code.find(what); at != std::string::npos; at = code.find(what, at + 1))
        ++c;
      return c;
    };
    if (spir) {
      if (count("load float") != 8)
        continue; // another variant
      EXPECT_EQ(count(" br "), 0) << name;
    } else {
      if (count("ld.global.f32") + count("ld.global.nc.f32") != 8)
        continue;
      EXPECT_EQ(count("bra"), 0) << name;
    }
    ++checked;
  }
  closedir(d);
  EXPECT_GE(checked, 1) << "no dumped variant with eight unrolled loads in " << dir;
}

} // namespace
