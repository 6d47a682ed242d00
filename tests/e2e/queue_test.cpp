// Queues, events and device futures (issue 12), against host references: work on
// several queues ordered by events, futures (reduce_async, count_if_async,
// transform_reduce_async, copy_async, gpu::async) and their errors, results kept on the
// device (reduce_to), pinned memory, 8 threads x 8 queues, kernels on a queue.
#include <pacxx/pacxx.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <numeric>
#include <stdexcept>
#include <thread>
#include <vector>

#include "test_support.hpp"

namespace view = ranges::views;

namespace {

std::vector<int> iota_ints(std::size_t n, int first) {
  std::vector<int> v(n);
  std::iota(v.begin(), v.end(), first);
  return v;
}

long long host_sum(const std::vector<int> &v) { return std::accumulate(v.begin(), v.end(), 0ll); }

// x[i] = x[i] * f + a on queue q (a kernel of its own, launched with .on(q)).
void scale_on(const pacxx::queue &q, gpu::vector<int> &x, int f, int a) {
  const std::size_t n = x.size();
  pacxx::kernel(
      [f, a](int *x, std::size_t n) {
        auto i = pacxx::Thread::get().global.x;
        if (i < n)
          x[i] = x[i] * f + a;
      },
      {{(n + 127) / 128}, {128}})
      .on(q)(x.data(), n);
}

TEST(Queue, DefaultCallsStillWork) {
  std::vector<int> h = iota_ints(10007, -5000);
  gpu::vector<int> d = gpu::copy(h);
  EXPECT_EQ(gpu::reduce(d, 0ll), host_sum(h));
  EXPECT_EQ(gpu::copy(d), h);
}

TEST(Queue, KernelsAndCopiesOnAQueue) {
  pacxx::queue q;
  std::vector<int> h = iota_ints(100003, 1);
  gpu::vector<int> d = gpu::copy(q, h);
  scale_on(q, d, 3, 1);
  scale_on(q, d, 2, -1);
  std::vector<int> r = gpu::copy(q, d); // waits for q's work
  for (std::size_t i = 0; i < h.size(); ++i)
    ASSERT_EQ(r[i], (h[i] * 3 + 1) * 2 - 1) << i;
  EXPECT_EQ(gpu::reduce(q, d, 0ll), std::accumulate(r.begin(), r.end(), 0ll));
}

TEST(Queue, EventsOrderWorkAcrossQueues) {
  pacxx::queue producer, consumer;
  const std::size_t n = 1 << 18;
  std::vector<int> h = iota_ints(n, 0);
  gpu::vector<int> a = gpu::copy(h), b(n);
  for (int round = 0; round < 4; ++round) {
    // producer: a = a * 2 + round; consumer, after it: b = a + 1, then sums b.
    scale_on(producer, a, 2, round);
    consumer.wait_for(producer.record());
    gpu::transform(consumer, a, b, [](int x) { return x + 1; });
    pacxx::future<long long> s = gpu::reduce_async(consumer, b, 0ll);
    long long expect = 0;
    for (auto &x : h) {
      x = x * 2 + round;
      expect += x + 1;
    }
    EXPECT_EQ(s.get(), expect) << "round " << round;
    producer.wait_for(consumer.record()); // the next round's writes to a wait for the reads
  }
  EXPECT_EQ(gpu::copy(a), h);
}

TEST(Queue, AnEventWaitsOnTheHost) {
  pacxx::queue q;
  gpu::vector<int> d(1000, 7);
  scale_on(q, d, 5, 0);
  pacxx::event e = q.record();
  e.wait();
  EXPECT_TRUE(e.ready());
  EXPECT_EQ(gpu::reduce(d, 0), 35000);
}

TEST(Future, ReduceAsyncEqualsReduce) {
  for (std::size_t n :
       {std::size_t(0), std::size_t(1), std::size_t(1009), std::size_t(1 << 20) + 3}) {
    std::vector<float> h = pacxx_test::random_floats(n, 7, -1.f, 1.f);
    gpu::vector<float> d = gpu::copy(h);
    pacxx::future<float> f = gpu::reduce_async(d, 0.5f);
    // The same kernel and the same host fold: bit for bit gpu::reduce's result.
    EXPECT_EQ(f.get(), gpu::reduce(d, 0.5f)) << n;
  }
}

TEST(Future, ManyOutstandingAndMoved) {
  std::vector<int> h = iota_ints(50000, -100);
  gpu::vector<int> d = gpu::copy(h);
  std::vector<pacxx::future<long long>> futures;
  for (int i = 0; i < 32; ++i)
    futures.push_back(gpu::reduce_async(d | view::transform([i](int x) { return x * i; }), 0ll));
  pacxx::future<std::size_t> c = gpu::count_if_async(d, [](int x) { return x % 3 == 0; });
  pacxx::future<long long> t =
      gpu::transform_reduce_async(d, 1ll, std::plus<>{}, [](int x) { return (long long)x * x; });
  pacxx::future<std::vector<int>> back = gpu::copy_async(d);
  pacxx::future<std::size_t> moved = std::move(c);
  EXPECT_FALSE(c.valid());
  for (int i = 0; i < 32; ++i)
    EXPECT_EQ(futures[i].get(), host_sum(h) * i) << i;
  std::size_t thirds = 0;
  long long squares = 1;
  for (int x : h) {
    thirds += x % 3 == 0;
    squares += (long long)x * x;
  }
  EXPECT_EQ(moved.get(), thirds);
  EXPECT_EQ(t.get(), squares);
  EXPECT_EQ(back.get(), h);
}

TEST(Future, ErrorsReachGet) {
  // An error of the host part (f throws) and of the launch (a block beyond every
  // device's limit) both come out of get(), not out of the call.
  gpu::vector<int> d(100, 1);
  auto f =
      gpu::async([](const auto &) -> gpu::vector<int> { throw std::runtime_error("in f"); }, d);
  EXPECT_THROW(f.get(), std::runtime_error);
  EXPECT_FALSE(f.valid());
  auto g = gpu::async(
      [](const auto &x) {
        pacxx::kernel([](int *p) { p[0] = 1; }, {{1}, {1u << 30}})(const_cast<int *>(x.data()));
        return gpu::vector<int>(1, 0);
      },
      d);
  EXPECT_THROW(g.get(), pacxx::error);
  EXPECT_EQ(gpu::reduce(d, 0), 100) << "the runtime keeps working";
}

TEST(Future, AsyncListing7) {
  const std::size_t n = 100003;
  std::vector<float> x = pacxx_test::random_floats(n, 1, -1.f, 1.f),
                     y = pacxx_test::random_floats(n, 2, -1.f, 1.f);
  auto mult = [](auto p) { return std::get<0>(p) * std::get<1>(p); };
  auto plus = [](auto p) { return std::get<0>(p) + std::get<1>(p); };
  pacxx::queue q;
  for (int on_queue = 0; on_queue < 2; ++on_queue) {
    auto saxpy = [=](float a, const auto &x, const auto &y) {
      auto ax = view::zip(view::repeat(a), x) | view::transform(mult);
      return view::zip(ax, y) | view::transform(plus);
    };
    pacxx::future<gpu::vector<float>> f =
        on_queue ? gpu::async(q, saxpy, 2.5f, x, y) : gpu::async(saxpy, 2.5f, x, y);
    std::vector<float> r = gpu::copy(f.get());
    ASSERT_EQ(r.size(), n);
    for (std::size_t i = 0; i < n; ++i)
      ASSERT_EQ(r[i], 2.5f * x[i] + y[i]) << i;
  }
}

TEST(Device, ReductionsStayOnTheDevice) {
  // x -= mean(x), ten times over a chain of reductions and transforms on one queue;
  // the sums are read by the next kernel from device memory, never by the host.
  pacxx::queue q;
  std::vector<double> h(4099);
  for (std::size_t i = 0; i < h.size(); ++i)
    h[i] = static_cast<double>(i % 17) * 0.25 + 1.0;
  gpu::vector<double> x = gpu::copy(h), sums(10);
  pacxx::reset_stats();
  const std::size_t n = h.size();
  for (int k = 0; k < 10; ++k) {
    double *s = sums.data() + k;
    gpu::reduce_to(q, x, s, 0.0);
    gpu::transform(q, x, x, [s, n, k](double v) { return (v - *s / double(n)) * 2.0 + k; });
  }
  EXPECT_EQ(pacxx::stats().bytes_to_host, 0u) << "no host round trip";
  std::vector<double> expect_sums;
  for (int k = 0; k < 10; ++k) {
    double s = 0;
    for (double v : h)
      s += v;
    expect_sums.push_back(s);
    for (double &v : h)
      v = (v - s / double(n)) * 2.0 + k;
  }
  std::vector<double> got = gpu::copy(q, sums), gx = gpu::copy(q, x);
  for (int k = 0; k < 10; ++k)
    EXPECT_NEAR(got[k], expect_sums[k], 1e-6 * (1 + std::abs(expect_sums[k]))) << k;
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_NEAR(gx[i], h[i], 1e-6) << i;
}

TEST(Pinned, CopiesThroughPinnedMemory) {
  pacxx::reset_stats();
  const std::size_t n = 1 << 16;
  gpu::pinned_vector<float> up(n), down(n);
  EXPECT_EQ(pacxx::stats().pinned_allocations, 2u);
  EXPECT_EQ(pacxx::stats().pinned_bytes, 2 * n * sizeof(float));
  for (std::size_t i = 0; i < n; ++i)
    up[i] = static_cast<float>(i) * 0.5f;
  pacxx::queue q;
  gpu::vector<float> d = gpu::copy(q, up);
  gpu::transform(q, d, d, [](float v) { return v + 1.f; });
  gpu::copy(q, d, down);
  q.wait();
  // Into an existing vector (non-const pinned lvalue), on the default queue.
  gpu::vector<float> again(n);
  gpu::copy(up, again);
  pacxx::synchronize();
  EXPECT_EQ(gpu::copy(again), std::vector<float>(up.begin(), up.end()));
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_EQ(down[i], static_cast<float>(i) * 0.5f + 1.f) << i;
  float sum = 0;
  for (float v : down)
    sum += v;
  EXPECT_GT(sum, 0.f);
}

TEST(Threads, EightThreadsEightQueues) {
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      std::vector<pacxx::queue> queues(8);
      std::vector<gpu::vector<int>> data;
      std::vector<std::vector<int>> host;
      for (int k = 0; k < 8; ++k) {
        host.push_back(iota_ints(20000 + 97 * k + t, t - k));
        data.push_back(gpu::copy(queues[k], host.back()));
      }
      std::vector<pacxx::future<long long>> sums;
      for (int k = 0; k < 8; ++k) {
        scale_on(queues[k], data[k], k + 1, t);
        sums.push_back(gpu::reduce_async(queues[k], data[k], 0ll));
      }
      for (int k = 0; k < 8; ++k) {
        long long expect = 0;
        for (int v : host[k])
          expect += (long long)v * (k + 1) + t;
        if (sums[k].get() != expect)
          wrong++;
      }
    });
  for (auto &t : threads)
    t.join();
  EXPECT_EQ(wrong, 0);
}

TEST(Queue, AFreedBlockIsNotReusedUnderRunningWork) {
  // Vectors freed while other queues' work may read them: the pool hands their memory
  // out again only behind that work (its fence), so results stay right.
  pacxx::queue q1, q2;
  std::vector<int> h = iota_ints(1 << 16, 3);
  std::vector<pacxx::future<long long>> sums;
  for (int i = 0; i < 16; ++i) {
    gpu::vector<int> tmp = gpu::copy(q1, h);
    sums.push_back(gpu::reduce_async(q1, tmp, 0ll));
    // tmp is freed here; q2 allocates and writes the same size at once.
    gpu::vector<int> other(h.size());
    gpu::fill(q2, other, -1);
  }
  for (auto &s : sums)
    EXPECT_EQ(s.get(), host_sum(h));
}

} // namespace
