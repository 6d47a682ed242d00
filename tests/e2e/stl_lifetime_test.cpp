// Lifetimes of views and vectors (issue 13, items 1 and 7): a view over a temporary
// gpu::vector owns it, so a view stored and used later never reads freed memory;
// element counts whose bytes overflow are rejected as std::vector rejects them.
// Run with the memory pool on (freed blocks are reused at once: a dangling view would
// read the next vector's data) and off (PACXX_POOL_MB=0: it would read freed memory).
#include "test_support.hpp"

#include <pacxx/pacxx.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace view = ranges::views;
using pacxx_test::prime;

namespace {

const auto times10 = [](float x) { return x * 10.f; };

// The reproduction: the temporary from gpu::copy(h) is gone by the time the
// stored view is read, and a vector of the same size has been made since.
TEST(Lifetime, StoredViewOverTemporaryKeepsItsVector) {
  std::vector<float> h(1000, 1.f);
  auto v = gpu::copy(h) | view::transform(times10);
  gpu::vector<float> w = gpu::copy(std::vector<float>(1000, 7.f));
  std::vector<float> out = gpu::copy(v);
  ASSERT_EQ(out.size(), 1000u);
  for (float x : out)
    ASSERT_EQ(x, 10.f);
  EXPECT_EQ(gpu::copy(w)[999], 7.f); // and the new vector is untouched
}

// The paper's Listing 6 with the pipeline stored first: zip owns both temporaries.
TEST(Lifetime, StoredZipOfTemporariesReducesLater) {
  const std::vector<float> a = pacxx_test::random_floats(prime, 1, -1.f, 1.f);
  const std::vector<float> b = pacxx_test::random_floats(prime, 2, -1.f, 1.f);
  auto products = view::zip(gpu::copy(a), gpu::copy(b)) | view::transform(pacxx_test::mult);
  gpu::vector<float> noise1 = gpu::copy(std::vector<float>(prime, 1e6f));
  gpu::vector<float> noise2 = gpu::copy(std::vector<float>(prime, -1e6f));
  double ref = 0;
  for (std::size_t i = 0; i < prime; ++i)
    ref += double(a[i]) * b[i];
  const float got = products | gpu::reduce(0.f);
  EXPECT_NEAR(got, ref, 1e-3);
  EXPECT_NEAR(gpu::reduce(products, 0.f), ref, 1e-3); // reusable
}

// Building the view moves the vector in: no copy, no allocation, no launch.
TEST(Lifetime, OwningIsAMoveNotACopy) {
  gpu::vector<int> v = gpu::copy(pacxx_test::ints(prime, 3));
  const int *data = v.data();
  pacxx::reset_stats();
  auto owning = view::all(std::move(v));
  const pacxx::runtime_stats s = pacxx_test::counts();
  EXPECT_EQ(s.device_allocations, 0u);
  EXPECT_EQ(s.kernel_launches, 0u);
  EXPECT_EQ(owning.begin(), data);
  EXPECT_EQ(owning.size(), prime);
  EXPECT_TRUE(v.empty());
  static_assert(!ranges::borrowed_range<decltype(owning)>,
                "iterators into an owning view must not outlive it");
  static_assert(ranges::borrowed_range<gpu::vector<int> &&>,
                "rvalue gpu::vectors are accepted by views (and owned)");
}

// The vector lives exactly as long as the last copy of the view: while one copy is
// alive its memory is not handed out again; after the last one it is (a pool hit).
TEST(Lifetime, LastCopyOfTheViewReleasesTheVector) {
  if (std::getenv("PACXX_POOL_MB") && std::string(std::getenv("PACXX_POOL_MB")) == "0")
    GTEST_SKIP() << "observes the release through the pool's reuse";
  const std::size_t n = 4096 + 17; // a size class no other test of this program uses
  auto first = gpu::vector<float>(n, 2.f) | view::transform(times10);
  const float *owned = ranges::begin(first.base());
  {
    auto second = first; // shares
    auto third = second | view::transform(times10);
    first = decltype(first)(); // the first handle lets go; two remain
    pacxx::reset_stats();
    gpu::vector<float> other(n);
    EXPECT_NE(other.data(), owned);
    EXPECT_EQ(pacxx::stats().pool_hits, 0u);
    EXPECT_EQ(gpu::copy(third)[n - 1], 200.f);
    EXPECT_EQ(gpu::copy(second)[0], 20.f);
  }
  pacxx::synchronize();
  pacxx::reset_stats();
  gpu::vector<float> again(n); // `other` and the view's vector are both free now
  EXPECT_EQ(pacxx::stats().pool_hits, 1u);
}

// A const rvalue cannot be moved from: the view owns a copy of it.
TEST(Lifetime, ConstTemporaryIsCopiedIntoTheView) {
  const std::vector<int> h = pacxx_test::ints(prime, 4);
  auto make = [&]() -> const gpu::vector<int> { return gpu::copy(h); };
  auto v = make() | view::transform(pacxx_test::twice);
  gpu::vector<int> noise = gpu::copy(std::vector<int>(prime, 12345));
  const std::vector<int> out = gpu::copy(v);
  for (std::size_t i = 0; i < prime; ++i)
    ASSERT_EQ(out[i], 2 * h[i]) << i;
}

// A subrange a user makes from a vector's iterators refers to it and owns nothing.
TEST(Lifetime, SubrangeOfIteratorsIsNonOwning) {
  const std::vector<int> h = pacxx_test::ints(prime, 5);
  gpu::vector<int> v = gpu::copy(h);
  auto middle = ranges::make_subrange(v.begin() + 1, v.end() - 1);
  EXPECT_EQ(middle.size(), prime - 2);
  EXPECT_EQ(gpu::reduce(middle, 0), std::accumulate(h.begin() + 1, h.end() - 1, 0));
  EXPECT_FALSE(v.empty());
}

// An owning view passed to a user's kernel, which copies it (as range-v3 code does):
// copies in device code are byte copies, the host keeps the vector alive.
TEST(Lifetime, OwningViewInAUserKernel) {
  const std::vector<int> h = pacxx_test::ints(prime, 6);
  auto in = gpu::copy(h) | view::transform(pacxx_test::twice);
  gpu::vector<int> out(prime);
  pacxx::kernel(
      [](const auto &view, int *out, std::size_t n) {
        auto copy = view;
        auto more = copy;
        const std::size_t i = pacxx::Thread::get().global.x;
        if (i < n)
          out[i] = *(ranges::begin(more) + static_cast<std::ptrdiff_t>(i)) + 1;
      },
      pacxx_test::cover(prime))(in, out.data(), prime);
  const std::vector<int> got = gpu::copy(out);
  for (std::size_t i = 0; i < prime; ++i)
    ASSERT_EQ(got[i], 2 * h[i] + 1) << i;
}

// The view dies right after an asynchronous launch that reads it: its memory may be
// reused at once, but only by work queued after the kernel.
TEST(Lifetime, TemporaryDiesWhileItsKernelIsQueued) {
  const std::size_t n = (std::size_t(1) << 18) + 5;
  const std::vector<float> h = pacxx_test::random_floats(n, 7, 0.f, 1.f);
  gpu::vector<float> out(n);
  gpu::transform(gpu::copy(h) | view::transform(times10), out, [](float x) { return x + 1.f; });
  gpu::vector<float> reuse = gpu::copy(std::vector<float>(n, -5.f)); // likely the same block
  const std::vector<float> got = gpu::copy(out);
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_EQ(got[i], h[i] * 10.f + 1.f) << i;
}

// Copies of one owning view made and dropped on several host threads.
TEST(Lifetime, SharedAcrossThreads) {
  const std::vector<int> h = pacxx_test::ints(prime, 8);
  const long long expected = std::accumulate(h.begin(), h.end(), 0LL) * 2;
  std::vector<std::thread> threads;
  std::vector<long long> sums(8, 0);
  {
    auto shared = gpu::copy(h) | view::transform([](int x) { return 2LL * x; });
    for (std::size_t t = 0; t < sums.size(); ++t)
      threads.emplace_back([shared, &sums, t] {
        for (int k = 0; k < 4; ++k) {
          auto mine = shared;
          sums[t] = gpu::reduce(mine, 0LL);
        }
      });
  } // the main thread's handle is gone while the threads run
  for (auto &th : threads)
    th.join();
  for (long long s : sums)
    EXPECT_EQ(s, expected);
}

// Item 7: sizes whose bytes overflow are refused before any allocation, as
// std::vector refuses them (std::length_error), in every constructor and in resize.
TEST(Lifetime, OverflowingSizesThrowLengthError) {
  using V = gpu::vector<double>;
  EXPECT_EQ(V::max_size(),
            static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max()) / 8);
  const std::size_t huge = std::numeric_limits<std::size_t>::max() / 4 + 2; // * 8 wraps to 8
  pacxx::reset_stats();
  EXPECT_THROW(V v(huge), std::length_error);
  EXPECT_THROW(V v(huge, 1.0), std::length_error);
  EXPECT_THROW(V v(V::max_size() + 1), std::length_error);
  V small(3, 1.0);
  EXPECT_THROW(small.resize(huge), std::length_error);
  EXPECT_THROW(small.resize(huge, 2.0), std::length_error);
  EXPECT_EQ(small.size(), 3u); // unchanged
  EXPECT_EQ(gpu::copy(small), std::vector<double>(3, 1.0));
  EXPECT_EQ(pacxx::stats().device_allocations, 1u); // only `small`'s
  try {
    V v(huge);
  } catch (const std::length_error &e) {
    EXPECT_NE(std::string(e.what()).find("max_size"), std::string::npos) << e.what();
  }
}

} // namespace
