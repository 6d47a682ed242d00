// End-to-end: the fusion guarantee of the GPU STL, counted exactly with
// pacxx::reset_stats() / pacxx::stats():
//   - gpu::reduce over any pipeline of views (zip, transform, iota, stride, reverse,
//     chunk, repeat, take, drop; lvalue vectors) is exactly 1 kernel launch, 0 device
//     allocations and 0 bytes to the device; only the per-block partials come back.
//     The reduce scratch buffer is allocated once per host thread and reused, so it is
//     warmed up first.
//   - a reduce over an rvalue pipeline allocates only its inputs (the paper's dot).
//   - gpu::transform over zip | transform is 1 launch and 0 allocations (also into a
//     view over the output).
//   - gpu::copy(view) is 1 launch + 1 allocation (+ the elements back to the host),
//     gpu::materialize(view) 1 launch + 1 allocation, gpu::copy(view, out) of the right
//     size 1 launch and no allocation.
//   - gpu::for_each, gpu::fill and an action over views: 1 launch each.
//   - gpu::async over Listing 7's four views (zip, repeat, transform, zip, transform) is
//     1 launch, plus the host-to-device copies of its two container arguments.
#include "test_support.hpp"

#include <pacxx/pacxx.hpp>

#include <range/v3/view.hpp>

#include <gtest/gtest.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

namespace view = ranges::views;

namespace {

using pacxx_test::counts;
using pacxx_test::ints;
using pacxx_test::random_floats;
using pacxx_test::rng;

using pacxx_test::big;
using pacxx_test::max_op;
using pacxx_test::mult;
using pacxx_test::plus;
using pacxx_test::prime;
using pacxx_test::twice;

// The paper's Listing 7.
auto saxpy(float a, const std::vector<float> &x, const std::vector<float> &y) {
  return gpu::async(
      [=](auto a, const auto &x, const auto &y) {
        auto ax = view::zip(view::repeat(a), x) | view::transform(mult);
        return view::zip(ax, y) | view::transform(plus);
      },
      a, x, y);
}

class Fusion : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    // The reduce scratch buffer (per host thread) is allocated once and reused: warm
    // it with the largest partials these tests need (max blocks of doubles).
    gpu::vector<double> warm(big, 1.0);
    EXPECT_EQ(gpu::reduce(warm, 0.0), static_cast<double>(big));
  }
};

template <class Pipeline> void expect_one_launch_no_allocation(Pipeline &&p, const char *what) {
  SCOPED_TRACE(what);
  pacxx::reset_stats();
  using T = ranges::range_value_t<std::decay_t<Pipeline>>;
  auto r = std::forward<Pipeline>(p) | gpu::reduce(T{});
  auto s = counts();
  EXPECT_EQ(s.kernel_launches, 1u);
  EXPECT_EQ(s.device_allocations, 0u);
  EXPECT_EQ(s.bytes_to_device, 0u);
  EXPECT_LE(s.bytes_to_host, pacxx::policy::reduce::max_blocks * sizeof(r))
      << "only the partials come back";
}

TEST_F(Fusion, ReduceOverAnyPipelineIsOneLaunch) {
  for (std::size_t n : {std::size_t(1), prime, big}) {
    SCOPED_TRACE(n);
    gpu::vector<int> a(ints(n, 30)), b(ints(n, 31)), c(ints(n, 32));
    gpu::vector<double> d(n, 0.5);
    expect_one_launch_no_allocation(a, "vector");
    expect_one_launch_no_allocation(view::zip(a, b) | view::transform(mult), "zip | transform");
    expect_one_launch_no_allocation(view::zip(view::iota(0, static_cast<int>(n)), a) |
                                        view::transform(mult) | view::stride(2) | view::reverse,
                                    "zip(iota, v) | transform | stride | reverse");
    expect_one_launch_no_allocation(view::zip(a, b, c) | view::transform([](const auto &t) {
                                      return std::get<0>(t) * std::get<1>(t) + std::get<2>(t);
                                    }),
                                    "zip of three | transform");
    expect_one_launch_no_allocation(view::chunk(a, 8) | view::transform([](auto chunk) {
                                      int s = 0;
                                      for (int x : chunk)
                                        s += x;
                                      return s;
                                    }),
                                    "chunk | transform(sum)");
    expect_one_launch_no_allocation(view::zip(view::repeat(2.0), d) | view::transform(mult) |
                                        view::take(n / 2 + 1),
                                    "zip(repeat, v) | transform | take (double)");
    expect_one_launch_no_allocation(view::take(view::drop(a, n / 3), n / 3 + 1), "take of drop");

    // With a custom op, called form.
    pacxx::reset_stats();
    gpu::reduce(view::zip(a, b) | view::transform(mult), INT_MIN, max_op);
    auto s = counts();
    EXPECT_EQ(s.kernel_launches, 1u);
    EXPECT_EQ(s.device_allocations, 0u);
  }
}

TEST_F(Fusion, ReduceOverAnRvaluePipelineAllocatesOnlyItsInputs) {
  const std::vector<float> a = random_floats(big, 33, -1.0f, 1.0f),
                           b = random_floats(big, 34, -1.0f, 1.0f);
  pacxx::reset_stats();
  float r = view::zip(gpu::copy(a), gpu::copy(b)) | view::transform(mult) | gpu::reduce(0.f);
  auto s = counts();
  (void)r;
  EXPECT_EQ(s.kernel_launches, 1u);
  EXPECT_EQ(s.device_allocations, 2u) << "the two gpu::copy results, nothing else";
  EXPECT_EQ(s.bytes_to_device, 2 * big * sizeof(float));
}

TEST_F(Fusion, TransformOverAZipTransformPipelineIsOneLaunch) {
  for (std::size_t n : {std::size_t(1), prime, big}) {
    SCOPED_TRACE(n);
    gpu::vector<int> a(ints(n, 35)), b(ints(n, 36)), out(n);
    pacxx::reset_stats();
    gpu::transform(view::zip(a, b) | view::transform(mult), out, twice);
    auto s = counts();
    EXPECT_EQ(s.kernel_launches, 1u);
    EXPECT_EQ(s.device_allocations, 0u);
    EXPECT_EQ(s.bytes_to_device + s.bytes_to_host, 0u);

    pacxx::reset_stats();
    gpu::transform(view::zip(view::repeat(3), a, b) | view::transform([](const auto &t) {
                     return std::get<0>(t) * std::get<1>(t) + std::get<2>(t);
                   }),
                   view::reverse(out), twice);
    s = counts();
    EXPECT_EQ(s.kernel_launches, 1u);
    EXPECT_EQ(s.device_allocations, 0u);
  }
}

TEST_F(Fusion, CopyOfAViewIsOneLaunchAndOneAllocation) {
  for (std::size_t n : {std::size_t(1), prime, big}) {
    SCOPED_TRACE(n);
    gpu::vector<int> a(ints(n, 37)), b(ints(n, 38));
    auto pipeline = view::zip(a, b) | view::transform(mult) | view::stride(3);
    const std::size_t m = (n + 2) / 3;

    pacxx::reset_stats();
    std::vector<int> host = gpu::copy(pipeline);
    auto s = counts();
    EXPECT_EQ(host.size(), m);
    EXPECT_EQ(s.kernel_launches, 1u);
    EXPECT_EQ(s.device_allocations, 1u);
    EXPECT_EQ(s.bytes_to_host, m * sizeof(int));
    EXPECT_EQ(s.bytes_to_device, 0u);

    pacxx::reset_stats();
    gpu::vector<int> dev = gpu::materialize(pipeline);
    s = counts();
    EXPECT_EQ(dev.size(), m);
    EXPECT_EQ(s.kernel_launches, 1u);
    EXPECT_EQ(s.device_allocations, 1u);
    EXPECT_EQ(s.bytes_to_host + s.bytes_to_device, 0u);

    gpu::vector<int> out(m);
    pacxx::reset_stats();
    gpu::copy(pipeline, out);
    s = counts();
    EXPECT_EQ(s.kernel_launches, 1u);
    EXPECT_EQ(s.device_allocations, 0u) << "out has the right size already";
    EXPECT_EQ(gpu::copy(out), host);
    EXPECT_EQ(gpu::copy(dev), host);
  }
}

TEST_F(Fusion, ForEachFillAndActionsAreOneLaunchEach) {
  gpu::vector<int> a(ints(big, 39)), b(ints(big, 40));
  pacxx::reset_stats();
  gpu::for_each(view::zip(a, b) | view::stride(2),
                [](auto &&t) { std::get<0>(t) += std::get<1>(t); });
  auto s = counts();
  EXPECT_EQ(s.kernel_launches, 1u);
  EXPECT_EQ(s.device_allocations, 0u);

  pacxx::reset_stats();
  gpu::fill(view::reverse(view::take(a, 1000)), 3);
  s = counts();
  EXPECT_EQ(s.kernel_launches, 1u);
  EXPECT_EQ(s.device_allocations, 0u);

  pacxx::reset_stats();
  a |= gpu::action::transform(twice);
  s = counts();
  EXPECT_EQ(s.kernel_launches, 1u);
  EXPECT_EQ(s.device_allocations, 0u);
}

TEST_F(Fusion, AsyncOverListing7sFourViewsIsOneLaunch) {
  for (std::size_t n : {std::size_t(1), prime, big}) {
    SCOPED_TRACE(n);
    const std::vector<float> x = random_floats(n, 41, -1.0f, 1.0f),
                             y = random_floats(n, 42, -1.0f, 1.0f);
    pacxx::reset_stats();
    gpu::vector<float> r = saxpy(2.0f, x, y).get();
    auto s = counts();
    EXPECT_EQ(s.kernel_launches, 1u) << "zip, repeat, transform, zip, transform: one kernel";
    EXPECT_EQ(s.bytes_to_device, 2 * n * sizeof(float)) << "x and y, copied once each";
    EXPECT_EQ(s.bytes_to_host, 0u) << "the result stays on the device";
    EXPECT_EQ(s.device_allocations, 3u) << "x, y and the result";
    EXPECT_EQ(r.size(), n);
  }
}

} // namespace
