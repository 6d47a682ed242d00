// gpu::dist (issue 39) under mpirun -np 1..4: distributions (uneven, empty ranks, sizes
// below the rank count), scatter/gather, halo exchange (1D and image rows, blocking and
// overlapped), the distributed algorithms against host references on every rank, and
// the errors of mismatched calls. Every rank runs every test; a result must be the same
// on every rank, so each rank checks it. Few distinct kernels (PoCL compiles each one
// in every process): int elements throughout.
#include "../e2e/test_support.hpp"

#include <pacxx/dist.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <string>
#include <vector>

namespace {

namespace dist = gpu::dist;

const std::size_t sizes[] = {0, 1, 2, 3, 5, 13, 1001};

std::vector<int> host_values(std::size_t n, std::uint64_t seed) {
  pacxx_test::rng r(seed);
  std::vector<int> v(n);
  for (int &x : v)
    x = static_cast<int>(r.integer(-50, 50));
  return v;
}

// Each rank builds the same host data; the distributed vector takes rank 0's.
dist::vector<int> scattered(const std::vector<int> &host) {
  return dist::vector<int>::scatter(host, 0);
}
// The whole vector on every rank (gather to 0, then broadcast).
std::vector<int> everywhere(const dist::vector<int> &v) {
  std::vector<int> all = v.gather(0);
  all.resize(v.size());
  pacxx::dist::detail::broadcast(all.data(), all.size() * sizeof(int), 0);
  return all;
}

struct square {
  long long operator()(int x) const { return static_cast<long long>(x) * x; }
};
struct is_even {
  bool operator()(int x) const { return x % 2 == 0; }
};
struct add_pair {
  template <class P> int operator()(const P &p) const {
    return std::get<0>(p) + 2 * std::get<1>(p);
  }
};
struct increment {
  void operator()(int &x) const { x += 1; }
};

TEST(Dist, Environment) {
  auto &env = pacxx::dist::environment::current();
  EXPECT_GE(env.rank(), 0);
  EXPECT_LT(env.rank(), env.size());
  EXPECT_GE(env.local_rank(), 0);
  // On OpenCL (PoCL) the device data is always staged through host memory.
  if (std::string(pacxx::native_handles().backend) == "opencl")
    EXPECT_STREQ(env.transport_name(), "host_staged");
}

TEST(Dist, BlockDistribution) {
  const int p = pacxx::dist::size();
  for (std::size_t n : sizes) {
    dist::vector<int> v(n);
    const dist::distribution &d = v.get_distribution();
    ASSERT_EQ(d.ranks(), p);
    EXPECT_EQ(d.size(), n);
    std::size_t total = 0, lo = n, hi = 0;
    for (int r = 0; r < p; ++r) {
      EXPECT_EQ(d.offset(r), total);
      total += d.count(r);
      lo = std::min(lo, d.count(r));
      hi = std::max(hi, d.count(r));
      if (d.count(r))
        EXPECT_EQ(d.owner(d.offset(r)), r);
    }
    EXPECT_EQ(total, n);
    EXPECT_LE(hi - std::min(lo, hi), 1u) << "blocks as even as can be";
    EXPECT_EQ(v.local_size(), d.count(pacxx::dist::rank()));
    EXPECT_EQ(v.local().size(), v.local_size());
  }
  // Rows: whole rows per rank; not whole rows is an error.
  dist::vector<int> img(5 * 7, dist::rows(5));
  for (int r = 0; r < p; ++r)
    EXPECT_EQ(img.get_distribution().count(r) % 5, 0u);
  EXPECT_THROW(dist::vector<int>(11, dist::rows(5)), pacxx::error);
}

TEST(Dist, ScatterGather) {
  for (std::size_t n : sizes) {
    const std::vector<int> host = host_values(n, n + 1);
    dist::vector<int> v = scattered(host);
    EXPECT_EQ(v.size(), n);
    EXPECT_EQ(everywhere(v), host) << "n=" << n;
  }
}

TEST(Dist, Reductions) {
  for (std::size_t n : sizes) {
    const std::vector<int> host = host_values(n, 2 * n + 3);
    const std::vector<int> host2 = host_values(n, 3 * n + 7);
    dist::vector<int> v = scattered(host), w = scattered(host2);
    const int init = 11; // counted once, not once per rank
    EXPECT_EQ(dist::reduce(v, init), std::accumulate(host.begin(), host.end(), init)) << n;
    long long sq = 0, dot = 0;
    for (std::size_t i = 0; i < n; ++i) {
      sq += static_cast<long long>(host[i]) * host[i];
      dot += static_cast<long long>(host[i]) * host2[i];
    }
    EXPECT_EQ(dist::transform_reduce(v, 5ll, std::plus<>{}, square{}), 5 + sq) << n;
    EXPECT_EQ(dist::reduce(dist::map(v, square{}), 0ll), sq) << n;
    EXPECT_EQ(dist::dot(v, w, 0ll), dot) << n;
    EXPECT_EQ(dist::count_if(v, is_even{}),
              static_cast<std::size_t>(std::count_if(host.begin(), host.end(), is_even{})))
        << n;
    EXPECT_EQ(dist::min_element(v),
              static_cast<std::size_t>(std::min_element(host.begin(), host.end()) - host.begin()))
        << n;
    EXPECT_EQ(dist::max_element(v),
              static_cast<std::size_t>(std::max_element(host.begin(), host.end()) - host.begin()))
        << n;
  }
}

TEST(Dist, Scans) {
  for (std::size_t n : sizes) {
    const std::vector<int> host = host_values(n, 5 * n + 1);
    dist::vector<int> v = scattered(host), out(n);
    std::vector<int> want(n);
    std::partial_sum(host.begin(), host.end(), want.begin());
    dist::inclusive_scan(v, out);
    EXPECT_EQ(everywhere(out), want) << "inclusive n=" << n;
    int acc = 7;
    for (std::size_t i = 0; i < n; ++i) {
      want[i] = acc;
      acc += host[i];
    }
    dist::exclusive_scan(v, out, 7);
    EXPECT_EQ(everywhere(out), want) << "exclusive n=" << n;
  }
}

TEST(Dist, TransformZipForEach) {
  for (std::size_t n : sizes) {
    const std::vector<int> a = host_values(n, 7 * n + 1), b = host_values(n, 7 * n + 2);
    dist::vector<int> x = scattered(a), y = scattered(b), z(n);
    dist::transform(dist::zip(x, y), z, add_pair{});
    dist::for_each(z, increment{});
    std::vector<int> want(n);
    for (std::size_t i = 0; i < n; ++i)
      want[i] = a[i] + 2 * b[i] + 1;
    EXPECT_EQ(everywhere(z), want) << n;
  }
}

TEST(Dist, CopyIf) {
  for (std::size_t n : sizes) {
    const std::vector<int> host = host_values(n, 11 * n + 1);
    dist::vector<int> v = scattered(host);
    dist::vector<int> even = dist::copy_if(v, is_even{});
    std::vector<int> want;
    std::copy_if(host.begin(), host.end(), std::back_inserter(want), is_even{});
    EXPECT_EQ(even.size(), want.size());
    EXPECT_EQ(everywhere(even), want) << n;
    // Each rank kept its own selected elements: counts per rank reported everywhere.
    const std::vector<std::size_t> counts = even.get_distribution().counts();
    for (int r = 0; r < pacxx::dist::size(); ++r) {
      const dist::distribution &d = v.get_distribution();
      EXPECT_EQ(counts[r], static_cast<std::size_t>(
                               std::count_if(host.begin() + d.offset(r),
                                             host.begin() + d.offset(r) + d.count(r), is_even{})));
    }
  }
}

TEST(Dist, Sort) {
  for (std::size_t n :
       {std::size_t(0), std::size_t(1), std::size_t(3), std::size_t(1001), std::size_t(40000)}) {
    std::vector<int> host = host_values(n, 13 * n + 1); // many duplicates
    dist::vector<int> v = scattered(host);
    dist::vector<int> vals(v.get_distribution());
    std::vector<int> idx(n);
    std::iota(idx.begin(), idx.end(), 0);
    vals.scatter_from(idx, 0);
    dist::vector<int> keys = v;
    dist::sort(v);
    std::vector<int> want = host;
    std::sort(want.begin(), want.end());
    EXPECT_EQ(everywhere(v), want) << n;
    EXPECT_EQ(v.get_distribution(), keys.get_distribution()) << "the blocks stay";
    dist::sort_by_key(keys, vals);
    const std::vector<int> k = everywhere(keys), p = everywhere(vals);
    EXPECT_EQ(k, want) << n;
    // The values moved with their keys: each is the index of an element with that key,
    // each index once.
    std::vector<int> seen(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_GE(p[i], 0);
      ASSERT_LT(static_cast<std::size_t>(p[i]), n);
      EXPECT_EQ(host[static_cast<std::size_t>(p[i])], k[i]);
      ++seen[static_cast<std::size_t>(p[i])];
    }
    EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), static_cast<long>(n));
  }
}

// With a halo, every rank that owns elements has the neighbours' boundary elements in
// its halos after the exchange; the outer halos keep what the rank wrote there.
void check_halo(const dist::vector<int> &v, const std::vector<int> &host, int outer) {
  const std::size_t h = v.halo_size(), n = v.local_size(), o = v.offset();
  std::vector<int> mine(v.with_halo().size());
  if (!mine.empty())
    pacxx::detail::copy_to_host(mine.data(), v.with_halo().data(), mine.size() * sizeof(int));
  if (n == 0)
    return;
  for (std::size_t i = 0; i < h; ++i) {
    EXPECT_EQ(mine[i], o >= h ? host[o - h + i] : outer) << "low halo " << i;
    EXPECT_EQ(mine[h + n + i], o + n + h <= host.size() ? host[o + n + i] : outer)
        << "high halo " << i;
  }
  for (std::size_t i = 0; i < n; ++i)
    EXPECT_EQ(mine[h + i], host[o + i]);
}

TEST(Dist, Halo) {
  const int p = pacxx::dist::size();
  for (std::size_t n : {std::size_t(2) * p + 1, std::size_t(103)}) {
    const std::vector<int> host = host_values(n, 17 * n + 1);
    dist::vector<int> v(n, dist::halo(2));
    gpu::fill(v.with_halo(), -999);
    v.scatter_from(host, 0);
    v.exchange_halo();
    check_halo(v, host, -999);
  }
  // Fewer elements than ranks: the ranks that own elements exchange; owning fewer than
  // the halo is an error on every rank.
  {
    dist::vector<int> v(static_cast<std::size_t>(p), dist::halo(1));
    const std::vector<int> host = host_values(static_cast<std::size_t>(p), 5);
    gpu::fill(v.with_halo(), -1);
    v.scatter_from(host, 0);
    v.exchange_halo();
    check_halo(v, host, -1);
    dist::vector<int> small(static_cast<std::size_t>(p), dist::halo(2));
    if (p > 1)
      EXPECT_THROW(small.exchange_halo(), pacxx::error);
  }
  // Image rows, exchanged on a queue while other work runs on another one.
  const std::size_t w = 6, rows = 3 * static_cast<std::size_t>(p) + 1;
  const std::vector<int> host = host_values(w * rows, 99);
  dist::vector<int> img(w * rows, dist::rows(w, 1));
  EXPECT_EQ(img.halo_size(), w);
  gpu::fill(img.with_halo(), -7);
  img.scatter_from(host, 0);
  pacxx::queue comm, work;
  dist::vector<int> other(w * rows);
  img.exchange_halo_begin(comm);
  {
    pacxx::queue_scope s(work);
    gpu::fill(other.local(), 3);
  }
  img.exchange_halo_end();
  comm.wait();
  work.wait();
  check_halo(img, host, -7);
}

TEST(Dist, Errors) {
  const int p = pacxx::dist::size(), me = pacxx::dist::rank();
  dist::vector<int> a(10), b(11);
  // Not aligned: every rank knows both distributions and throws.
  EXPECT_THROW(dist::transform(a, b, square{}), pacxx::error);
  EXPECT_THROW(dist::zip(a, b), pacxx::error);
  if (p == 1)
    return;
  // A collective on some ranks only: each side sees the other's call.
  gpu::fill(a.local(), 1);
  try {
    if (me == 0)
      (void)dist::reduce(a, 0);
    else
      (void)dist::count_if(a, is_even{});
    ADD_FAILURE() << "no error";
  } catch (const pacxx::error &e) {
    EXPECT_NE(std::string(e.what()).find("another collective"), std::string::npos) << e.what();
  }
  // The same call with different sizes.
  dist::vector<int> c(me == 0 ? 10 : 12);
  EXPECT_THROW((void)dist::reduce(c, 0), pacxx::error);
}

} // namespace

int main(int argc, char **argv) {
  pacxx::dist::environment env(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  // Only rank 0 prints the progress; every rank prints its failures.
  if (env.rank() != 0) {
    auto &listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    struct failures : ::testing::EmptyTestEventListener {
      int rank;
      explicit failures(int r) : rank(r) {}
      void OnTestPartResult(const ::testing::TestPartResult &r) override {
        if (r.failed())
          std::fprintf(stderr, "rank %d: %s:%d: %s\n", rank, r.file_name() ? r.file_name() : "?",
                       r.line_number(), r.summary());
      }
    };
    listeners.Append(new failures(env.rank()));
  }
  int failed = RUN_ALL_TESTS() != 0;
  int any = 0;
  // The exit status is the same on every rank: failed anywhere.
  std::vector<int> all(static_cast<std::size_t>(env.size()));
  pacxx::dist::detail::allgather(&failed, sizeof failed, all.data());
  for (int f : all)
    any |= f;
  return any;
}
