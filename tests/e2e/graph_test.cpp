// Captured work replayed (pacxx::capture, pacxx::graph) and iteration to a fixed point
// (gpu::iterate_until), issue 37, against host references: replays equal direct runs of
// transforms, scans, sorts and copy_if with its count on the device; nothing runs at
// capture; host readbacks are errors at capture; temporaries and scratch stay the
// graph's while other work runs; iterate_until stops at the right iteration and at
// its maximum. On CUDA (the _cuda test, label gpu) the graphs are CUDA graphs.
#include <pacxx/pacxx.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "test_support.hpp"

using namespace pacxx_test;

namespace {

// x[i] = x[i] * f + a, a kernel of its own.
void scale(gpu::vector<int> &x, int f, int a) {
  const std::size_t n = x.size();
  pacxx::kernel(
      [f, a](int *x, std::size_t n) {
        auto i = pacxx::Thread::get().global.x;
        if (i < n)
          x[i] = x[i] * f + a;
      },
      cover(n))(x.data(), n);
}

// The message of the pacxx::error that f throws ("" if none).
template <class F> std::string error_of(F f) {
  try {
    f();
  } catch (const pacxx::error &e) {
    return e.what();
  }
  return "";
}

TEST(Graph, CaptureRunsNothingAndReplaysTransforms) {
  pacxx::queue q;
  const std::vector<int> h = ints(10007, 1, -100, 100);
  gpu::vector<int> u = gpu::copy(h), tmp(h.size());
  pacxx::graph g = pacxx::capture(q, [&] {
    gpu::transform(u, tmp, [](int x) { return 3 * x + 1; });
    gpu::transform(tmp, u, [](int x) { return x - 2; });
    scale(u, 2, 0);
  });
  EXPECT_EQ(g.kernel_launches(), 3u);
  EXPECT_EQ(gpu::copy(q, u), h) << "capture ran the work";

  const pacxx::runtime_stats before = counts();
  std::vector<int> ref = h;
  for (int r = 0; r < 3; ++r) {
    g.launch(q);
    for (int &x : ref)
      x = (3 * x + 1 - 2) * 2;
  }
  EXPECT_EQ(gpu::copy(q, u), ref);
  const pacxx::runtime_stats after = counts();
  EXPECT_EQ(after.kernel_launches - before.kernel_launches, 9u);
  EXPECT_EQ(after.jit_compilations, before.jit_compilations);

  // The same work issued directly gives the same result.
  gpu::vector<int> d = gpu::copy(h), dtmp(h.size());
  for (int r = 0; r < 3; ++r) {
    gpu::transform(d, dtmp, [](int x) { return 3 * x + 1; });
    gpu::transform(dtmp, d, [](int x) { return x - 2; });
    scale(d, 2, 0);
  }
  EXPECT_EQ(gpu::copy(d), ref);
}

TEST(Graph, ReplaysReadTheCurrentContentsOfVectors) {
  pacxx::queue q;
  gpu::vector<int> in(5000), out(5000);
  pacxx::graph g = pacxx::capture(q, [&] { gpu::inclusive_scan(in, out); });
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const std::vector<int> h = ints(in.size(), seed, -50, 50);
    pacxx::detail::copy_to_device(in.data(), h.data(), h.size() * sizeof(int));
    g.launch(q);
    std::vector<int> ref(h.size());
    std::partial_sum(h.begin(), h.end(), ref.begin());
    EXPECT_EQ(gpu::copy(q, out), ref) << "seed " << seed;
  }
}

TEST(Graph, SortWithATemporaryMadeInsideTheCapture) {
  pacxx::queue q;
  const std::size_t n = 70001;
  gpu::vector<std::uint32_t> src(n), out(n);
  pacxx::graph g = pacxx::capture(q, [&] {
    gpu::vector<std::uint32_t> tmp(src); // freed when the capture returns; kept by g
    gpu::sort(tmp);
    gpu::transform(tmp, out, [](std::uint32_t x) { return x + 1; });
  });
  for (std::uint64_t seed = 7; seed <= 8; ++seed) {
    std::vector<std::uint32_t> h(n);
    rng r(seed);
    for (auto &x : h)
      x = static_cast<std::uint32_t>(r.integer(0, 1u << 30));
    pacxx::detail::copy_to_device(src.data(), h.data(), n * sizeof(std::uint32_t));
    // Other work between capture and replay: allocations and frees that would reuse
    // the temporary's memory if the graph did not keep it, and direct algorithms whose
    // scratch grows.
    for (int k = 0; k < 4; ++k) {
      gpu::vector<std::uint32_t> other(n, 0xdeadbeefu);
      gpu::vector<std::uint32_t> sorted = gpu::copy(h);
      gpu::sort(sorted);
    }
    g.launch(q);
    std::sort(h.begin(), h.end());
    for (auto &x : h)
      x += 1;
    EXPECT_EQ(gpu::copy(q, out), h) << "seed " << seed;
  }
}

TEST(Graph, CopyIfWithTheCountOnTheDevice) {
  pacxx::queue q;
  const std::vector<int> h = ints(30011, 3, -1000, 1000);
  gpu::vector<int> in = gpu::copy(h), out(h.size());
  gpu::vector<long long> count(1);
  auto positive = [](int x) { return x > 0; };
  pacxx::graph g = pacxx::capture(q, [&] { gpu::copy_if(in, out, positive, count.data()); });
  std::vector<int> ref;
  std::copy_if(h.begin(), h.end(), std::back_inserter(ref), positive);
  for (int r = 0; r < 2; ++r) {
    pacxx::detail::fill_on_device(out.data(), 0, out.size() * sizeof(int));
    g.launch(q);
    const std::vector<long long> c = gpu::copy(q, count);
    ASSERT_EQ(c[0], static_cast<long long>(ref.size()));
    std::vector<int> got = gpu::copy(q, out);
    got.resize(ref.size());
    EXPECT_EQ(got, ref);
  }
  // Directly, too (and an output too small is an error naming the call).
  gpu::vector<unsigned> c2(1);
  gpu::vector<int> out2(h.size());
  gpu::copy_if(in, out2, positive, c2.data());
  EXPECT_EQ(gpu::copy(c2)[0], ref.size());
  gpu::vector<int> small(10);
  EXPECT_NE(error_of([&] { gpu::copy_if(in, small, positive, c2.data()); }).find("gpu::copy_if"),
            std::string::npos);
}

TEST(Graph, ReduceToAndUploadsOfCaptureTime) {
  pacxx::queue q;
  const std::vector<int> h = ints(20000, 11);
  gpu::vector<int> d = gpu::copy(h);
  gpu::vector<long long> sum(1), shift(1);
  std::vector<long long> host_shift(1, 5);
  pacxx::graph g = pacxx::capture(q, [&] {
    // Uploaded bytes are those of capture time: changing host_shift later changes nothing.
    pacxx::detail::copy_to_device(shift.data(), host_shift.data(), sizeof(long long));
    gpu::reduce_to(d, sum.data(), 0ll);
  });
  host_shift[0] = 99;
  g.launch(q);
  EXPECT_EQ(gpu::copy(q, sum)[0], std::accumulate(h.begin(), h.end(), 0ll));
  EXPECT_EQ(gpu::copy(q, shift)[0], 5);
}

// Futures and events recorded in a capture complete at the end of each launch of the
// graph: get() returns what the latest launch computed; before the first launch a wait
// is an error; a future dropped inside the capture does not fail it.
TEST(Graph, FuturesAndEventsOfTheCaptureCompleteWithEachLaunch) {
  pacxx::queue q, other;
  const std::vector<int> h = ints(50021, 13, -100, 100);
  gpu::vector<int> d = gpu::copy(h);
  pacxx::future<long long> sum, sum_later, early;
  pacxx::future<std::size_t> positives;
  pacxx::future<gpu::vector<int>> doubled;
  pacxx::event after;
  auto positive = [](int x) { return x > 0; };
  pacxx::graph g = pacxx::capture(q, [&] {
    sum = gpu::reduce_async(d, 0ll);
    positives = gpu::count_if_async(d, positive);
    doubled = gpu::async(
        [](auto &v) { return v | ranges::views::transform([](int x) { return 2 * x; }); }, d);
    (void)gpu::reduce_async(d, 1ll); // dropped here: its wait is quiet, the capture goes on
    early = gpu::reduce_async(d, 2ll);
    after = q.record();
  });
  // Before the first launch: an error that says so.
  EXPECT_NE(error_of([&] { after.wait(); }).find("has not been launched"), std::string::npos);
  EXPECT_NE(error_of([&] { (void)early.get(); }).find("has not been launched"), std::string::npos);
  EXPECT_EQ(after.native_handle(), nullptr);
  // The value of the latest launch: change d between launches.
  const long long expect = std::accumulate(h.begin(), h.end(), 0ll);
  g.launch(q);
  other.wait_for(after); // another queue waits for the launch on the device
  EXPECT_NE(after.native_handle(), nullptr);
  after.wait();
  sum_later = gpu::reduce_async(other, d, 0ll); // plain work, ordered after the launch
  EXPECT_EQ(sum_later.get(), expect);
  std::vector<int> h2 = h;
  for (int &x : h2)
    x = -x;
  gpu::vector<int> d2 = gpu::copy(h2);
  gpu::copy(q, d2, d); // d changes: the next launch computes the new values
  g.launch(q, 3);
  EXPECT_EQ(sum.get(), -expect);
  EXPECT_EQ(positives.get(),
            static_cast<std::size_t>(std::count_if(h2.begin(), h2.end(), positive)));
  std::vector<int> twice = h2;
  for (int &x : twice)
    x *= 2;
  EXPECT_EQ(gpu::copy(doubled.get()), twice);
}

TEST(Graph, HostReadbacksAreErrorsAtCapture) {
  pacxx::queue q, other;
  gpu::vector<int> d = gpu::copy(ints(1000, 5));
  auto capture_error = [&](auto f) { return error_of([&] { pacxx::capture(q, f); }); };
  for (const std::string &e :
       {capture_error([&] { (void)gpu::reduce(d, 0); }), capture_error([&] { (void)gpu::copy(d); }),
        capture_error([&] { q.wait(); }), capture_error([&] { pacxx::synchronize(); })}) {
    EXPECT_NE(e.find("pacxx::capture"), std::string::npos) << e;
    EXPECT_NE(e.find("cannot be captured"), std::string::npos) << e;
  }
  EXPECT_NE(capture_error([&] {
              scale(d, 1, 1);
              pacxx::kernel([](int *) {}, {{1}, {1}}).on(other)(d.data());
            }).find("another queue"),
            std::string::npos);
  EXPECT_NE(capture_error([&] { pacxx::capture(q, [] {}); }).find("do not nest"),
            std::string::npos);
  // A future's value inside the capture: its graph has not been launched.
  EXPECT_NE(capture_error([&] { (void)gpu::reduce_async(d, 0).get(); }).find("not been launched"),
            std::string::npos);
  // After the failed captures nothing is recording and nothing ran: d is unchanged.
  EXPECT_EQ(gpu::copy(q, d), ints(1000, 5));
  scale(d, 1, 1);
  std::vector<int> ref = ints(1000, 5);
  for (int &x : ref)
    x += 1;
  EXPECT_EQ(gpu::copy(d), ref);
}

TEST(Graph, DestroyedCleanlyAndItsMemoryReturned) {
  pacxx::queue q;
  gpu::vector<std::uint32_t> v(50000, 3u);
  pacxx::synchronize();
  const std::size_t in_use = pacxx::stats().device_bytes_in_use;
  {
    pacxx::graph g = pacxx::capture(q, [&] {
      gpu::vector<std::uint32_t> tmp(v);
      gpu::sort(tmp);
      gpu::inclusive_scan(tmp, v);
    });
    EXPECT_GT(pacxx::stats().device_bytes_in_use, in_use); // the temporary and scratch
    g.launch(q, 2);
    pacxx::graph moved = std::move(g);
    EXPECT_FALSE(g.valid());
    EXPECT_NE(error_of([&] { g.launch(q); }).find("empty"), std::string::npos);
    moved.launch(q);
  } // destroyed with its replays possibly still queued
  EXPECT_EQ(pacxx::stats().device_bytes_in_use, in_use);
  // Three replays of: sort a copy, then its prefix sums (modulo 2^32, as on the device).
  std::vector<std::uint32_t> ref(50000, 3u);
  for (int r = 0; r < 3; ++r) {
    std::sort(ref.begin(), ref.end());
    std::partial_sum(ref.begin(), ref.end(), ref.begin());
  }
  EXPECT_EQ(gpu::copy(v), ref);
}

TEST(Graph, ReplaysOnOtherQueuesAndAfterTheCaptureQueueIsGone) {
  const std::vector<int> h = ints(4099, 9, -10, 10);
  gpu::vector<int> d = gpu::copy(h);
  pacxx::graph g;
  {
    pacxx::queue captured_on;
    g = pacxx::capture(captured_on, [&] { scale(d, 2, 1); });
  }
  pacxx::queue q1, q2;
  g.launch(q1);
  q2.wait_for(q1.record());
  g.launch(q2, 2);
  g.launch(pacxx::queue::default_queue()); // ordered after q2's work, as every queue's
  std::vector<int> ref = h;
  for (int r = 0; r < 4; ++r)
    for (int &x : ref)
      x = 2 * x + 1;
  EXPECT_EQ(gpu::copy(d), ref);
}

TEST(GraphUpdate, ChangesArgumentsAndShapesWithoutRecapture) {
  pacxx::queue q;
  const std::vector<int> ha = ints(1009, 21, -30, 30), hb = ints(6007, 22, -30, 30);
  gpu::vector<int> a = gpu::copy(ha), b = gpu::copy(hb), out(hb.size());
  int add = 5;
  auto body = [&](gpu::vector<int> &x) {
    scale(x, 3, add);
    gpu::transform(x, out, [add](int v) { return v - add; }); // x.size() of them
  };
  pacxx::graph g = pacxx::capture(q, [&] { body(a); });
  g.launch(q);
  std::vector<int> ra = ha, rb = hb, rout(hb.size());
  for (std::size_t i = 0; i < ra.size(); ++i) {
    ra[i] = 3 * ra[i] + 5;
    rout[i] = ra[i] - 5;
  }
  EXPECT_EQ(gpu::copy(q, a), ra);
  const std::vector<int> first = gpu::copy(q, out);
  EXPECT_EQ(std::vector<int>(first.begin(), first.begin() + ha.size()),
            std::vector<int>(rout.begin(), rout.begin() + ha.size()));

  // Another vector of another size and other captured values: the same two kernels.
  const pacxx::runtime_stats before = counts();
  add = -7;
  g.update(q, [&] { body(b); });
  EXPECT_EQ(g.kernel_launches(), 2u);
  EXPECT_EQ(gpu::copy(q, a), ra) << "the update ran the work";
  g.launch(q, 2);
  for (int r = 0; r < 2; ++r)
    for (std::size_t i = 0; i < rb.size(); ++i) {
      rb[i] = 3 * rb[i] - 7;
      rout[i] = rb[i] + 7;
    }
  EXPECT_EQ(gpu::copy(q, b), rb);
  EXPECT_EQ(gpu::copy(q, out), rout);
  EXPECT_EQ(gpu::copy(q, a), ra) << "a replay after the update used the old arguments";
  EXPECT_EQ(counts().kernel_launches - before.kernel_launches, 4u);
}

TEST(GraphUpdate, ScratchTemporariesAndUploadsOfTheNewRecording) {
  pacxx::queue q;
  const std::size_t n = 30011;
  // The element types of the sort and scan above (their kernels are compiled already).
  std::vector<std::uint32_t> h1(n), h2(n);
  rng r(33);
  for (std::size_t i = 0; i < n; ++i) {
    h1[i] = static_cast<std::uint32_t>(r.integer(0, 1u << 20));
    h2[i] = static_cast<std::uint32_t>(r.integer(0, 1u << 20));
  }
  gpu::vector<std::uint32_t> in1 = gpu::copy(h1), in2 = gpu::copy(h2), out(n);
  gpu::vector<long long> shift(1);
  std::vector<long long> host_shift(1, 1);
  auto body = [&](gpu::vector<std::uint32_t> &in) {
    pacxx::detail::copy_to_device(shift.data(), host_shift.data(), sizeof(long long));
    gpu::vector<std::uint32_t> tmp(in); // a temporary, kept by the recording
    gpu::sort(tmp);
    gpu::inclusive_scan(tmp, out);
  };
  pacxx::graph g = pacxx::capture(q, [&] { body(in1); });
  pacxx::synchronize();
  const std::size_t in_use = pacxx::stats().device_bytes_in_use;
  for (int round = 0; round < 3; ++round) {
    const std::vector<std::uint32_t> &h = round % 2 ? h2 : h1;
    host_shift[0] = round + 10;
    g.update(q, [&] { body(round % 2 ? in2 : in1); });
    g.launch(q);
    std::vector<std::uint32_t> ref = h;
    std::sort(ref.begin(), ref.end());
    std::partial_sum(ref.begin(), ref.end(), ref.begin());
    EXPECT_EQ(gpu::copy(q, out), ref) << "round " << round;
    EXPECT_EQ(gpu::copy(q, shift)[0], round + 10) << "round " << round;
    // The old recording's memory went back: updates do not pile it up.
    pacxx::synchronize();
    EXPECT_EQ(pacxx::stats().device_bytes_in_use, in_use) << "round " << round;
  }
}

TEST(GraphUpdate, OtherOperationsAreAnErrorAndLeaveTheGraph) {
  pacxx::queue q;
  const std::vector<int> h = ints(777, 41, -9, 9);
  gpu::vector<int> d = gpu::copy(h), e(h.size());
  pacxx::graph g = pacxx::capture(q, [&] { scale(d, 2, 0); });
  const std::string more = error_of([&] {
    g.update(q, [&] {
      scale(d, 2, 0);
      scale(d, 2, 0);
    });
  });
  EXPECT_NE(more.find("pacxx::graph::update"), std::string::npos) << more;
  EXPECT_NE(more.find("2 operations, the graph 1"), std::string::npos) << more;
  const std::string other_kernel =
      error_of([&] { g.update(q, [&] { gpu::transform(d, e, [](int x) { return x; }); }); });
  EXPECT_NE(other_kernel.find("launches kernel"), std::string::npos) << other_kernel;
  const std::string other_kind =
      error_of([&] { g.update(q, [&] { pacxx::detail::copy_on_device(e.data(), d.data(), 4); }); });
  EXPECT_NE(other_kind.find("is a copy on the device, in the graph a kernel launch"),
            std::string::npos)
      << other_kind;
  const std::string readback = error_of([&] { g.update(q, [&] { (void)gpu::copy(d); }); });
  EXPECT_NE(readback.find("cannot be captured"), std::string::npos) << readback;
  pacxx::graph empty;
  EXPECT_NE(error_of([&] { empty.update(q, [] {}); }).find("empty"), std::string::npos);
  // Nothing ran and the graph still replays its first recording.
  EXPECT_EQ(gpu::copy(q, d), h);
  g.launch(q);
  std::vector<int> ref = h;
  for (int &x : ref)
    x *= 2;
  EXPECT_EQ(gpu::copy(q, d), ref);
}

// A body that counts its runs and moves `left` one step towards zero.
struct countdown {
  gpu::vector<int> left, runs;
  explicit countdown(int start) : left(1, start), runs(1, 0) {}
  void step() {
    pacxx::kernel(
        [](int *left, int *runs) {
          runs[0] += 1;
          if (left[0] > 0)
            left[0] -= 1;
        },
        {{1}, {1}})(left.data(), runs.data());
  }
  int run_count() { return gpu::copy(runs)[0]; }
};

TEST(IterateUntil, GraphBodyStopsAtTheFirstCheckAfterTheFixedPoint) {
  pacxx::queue q;
  countdown c(20);
  pacxx::graph step = pacxx::capture(q, [&] { c.step(); });
  EXPECT_EQ(gpu::iterate_until(q, step, c.left,
                               gpu::iterate_options().max_iterations(1000).check_every(8)),
            24u);
  EXPECT_EQ(c.run_count(), 24);
  countdown e(20);
  pacxx::graph step_e = pacxx::capture(q, [&] { e.step(); });
  EXPECT_EQ(gpu::iterate_until(q, step_e, e.left, gpu::iterate_options().check_every(1)), 20u);
  EXPECT_EQ(e.run_count(), 20);
}

// On CUDA 12.3+ with the toolkit's libcudadevrt.a (the _cuda test, label gpu) a graph
// body's loop runs on the device: one readback of the batch count and one of done,
// however many checks. Elsewhere (PoCL) one readback of done per check.
TEST(IterateUntil, ReadbacksOfTheTest) {
  pacxx::queue q;
  countdown c(50);
  pacxx::graph step = pacxx::capture(q, [&] { c.step(); });
  const pacxx::runtime_stats before = counts();
  EXPECT_EQ(gpu::iterate_until(q, step, c.left, gpu::iterate_options().check_every(2)), 50u);
  const std::size_t bytes = counts().bytes_to_host - before.bytes_to_host;
  if (std::string(pacxx::native_handles().backend) == "cuda")
    EXPECT_EQ(bytes, 2 * sizeof(int))
        << "no conditional-node loop on this CUDA device (PACXX_TRACE=1 says why)";
  else
    EXPECT_EQ(bytes, 25 * sizeof(int));
  EXPECT_EQ(c.run_count(), 50);
  // After an update the loop runs the new recording, with its own done.
  countdown d(7);
  step.update(q, [&] { d.step(); });
  EXPECT_EQ(gpu::iterate_until(q, step, d.left, gpu::iterate_options().check_every(1)), 7u);
  EXPECT_EQ(d.run_count(), 7);
  EXPECT_EQ(c.run_count(), 50);
}

TEST(IterateUntil, MaximumIsAnErrorWithTheLastIterationsData) {
  pacxx::queue q;
  countdown c(100);
  pacxx::graph step = pacxx::capture(q, [&] { c.step(); });
  const std::string e = error_of([&] {
    gpu::iterate_until(q, step, c.left, gpu::iterate_options().max_iterations(10).check_every(4));
  });
  EXPECT_NE(e.find("max_iterations = 10"), std::string::npos) << e;
  EXPECT_EQ(c.run_count(), 10);
  EXPECT_EQ(gpu::copy(c.left)[0], 90);
  // Done exactly at the maximum is not an error.
  countdown d(12);
  pacxx::graph step_d = pacxx::capture(q, [&] { d.step(); });
  EXPECT_EQ(gpu::iterate_until(q, step_d, d.left,
                               gpu::iterate_options().max_iterations(12).check_every(5)),
            12u);
  EXPECT_NE(error_of([&] {
              gpu::iterate_until(q, step_d, d.left, gpu::iterate_options().check_every(0));
            }).find("check_every(0)"),
            std::string::npos);
}

TEST(IterateUntil, CallableBodyAndHostTest) {
  pacxx::queue q;
  countdown c(30);
  int tests = 0;
  const std::size_t n = gpu::iterate_until(
      q, [&] { c.step(); },
      [&] {
        ++tests;
        return gpu::copy(c.left)[0] == 0;
      },
      gpu::iterate_options().check_every(7));
  EXPECT_EQ(n, 35u);
  EXPECT_EQ(tests, 5);
  EXPECT_EQ(c.run_count(), 35);
  // A callable body with a device test.
  countdown d(9);
  EXPECT_EQ(gpu::iterate_until(
                q, [&] { d.step(); }, d.left, gpu::iterate_options().check_every(3)),
            9u);
}

// Propagation to a fixed point, as Canny's hysteresis: every element takes the largest
// value of its neighbourhood inside segments separated by zeros (one kernel), the step's
// changes are counted on the device (reduce_to) and the new values copied back, as a
// graph tested every 8 iterations, against the same loop on the host.
TEST(IterateUntil, PropagationToAFixedPoint) {
  pacxx::queue q;
  const std::size_t n = 3001;
  std::vector<int> h = ints(n, 21, 0, 50);
  for (std::size_t i = 0; i < n; ++i)
    if (i % 97 == 0 || i % 131 == 0)
      h[i] = 0; // segment borders
  gpu::vector<int> u = gpu::copy(h), next(n), changed(n), remaining(1);
  pacxx::graph step = pacxx::capture(q, [&] {
    pacxx::kernel(
        [](const int *u, int *next, int *changed, std::size_t n) {
          const std::size_t i = pacxx::Thread::get().global.x;
          if (i >= n)
            return;
          int m = u[i];
          if (m != 0) {
            if (i > 0 && u[i - 1] > m)
              m = u[i - 1];
            if (i + 1 < n && u[i + 1] > m)
              m = u[i + 1];
          }
          next[i] = m;
          changed[i] = m != u[i] ? 1 : 0;
        },
        cover(n))(u.data(), next.data(), changed.data(), n);
    gpu::transform(next, u, [](int x) { return x; });
    gpu::reduce_to(changed, remaining.data(), 0);
  });
  std::size_t host_iters = 0;
  for (bool moved = true; moved; ++host_iters) {
    std::vector<int> nx = h;
    moved = false;
    for (std::size_t i = 0; i < n; ++i) {
      int m = h[i];
      if (m != 0) {
        if (i > 0 && h[i - 1] > m)
          m = h[i - 1];
        if (i + 1 < n && h[i + 1] > m)
          m = h[i + 1];
      }
      nx[i] = m;
      moved |= m != h[i];
    }
    h = nx;
  }
  ASSERT_GT(host_iters, 20u);
  const std::size_t iters = gpu::iterate_until(
      q, step, remaining, gpu::iterate_options().max_iterations(100000).check_every(8));
  EXPECT_EQ(iters, (host_iters + 7) / 8 * 8);
  EXPECT_EQ(gpu::copy(q, u), h);
}

} // namespace
