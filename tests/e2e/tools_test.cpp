// End-to-end: pacxx/tools.hpp's callbacks, set by the program. Every algorithm is one
// range named as the user wrote it (gpu::reduce, gpu::transform, gpu::copy) with its
// input's size, around its launches, copies and allocations, which the tool sees as
// many times as pacxx::stats() counts them; ranges nest and end as they began, on an
// error too; with the callbacks off the tool hears nothing. The Thrust-parity algorithms
// (set_union, partition_copy, top_k) and gpu::gemm are ranges as well.
#include <pacxx/pacxx.hpp>
#include <pacxx/tools.hpp>

#include <range/v3/view.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <iterator>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace {

using pacxx::tools::event;

struct recorded {
  event kind;
  std::string name;
  std::size_t size;
  int depth; // ranges open around it
};

struct recorder {
  std::vector<recorded> begins;
  std::vector<pacxx::tools::range_info> open;
  int problems = 0;
  std::size_t count(event k) const {
    std::size_t n = 0;
    for (const recorded &r : begins)
      n += r.kind == k;
    return n;
  }
  std::size_t bytes(event k) const {
    std::size_t n = 0;
    for (const recorded &r : begins)
      n += r.kind == k ? r.size : 0;
    return n;
  }
};

void on_begin(void *data, const pacxx::tools::range_info &r) {
  recorder &rec = *static_cast<recorder *>(data);
  rec.begins.push_back({r.kind, r.name, r.size, static_cast<int>(rec.open.size())});
  rec.open.push_back(r);
}
void on_end(void *data, const pacxx::tools::range_info &r) {
  recorder &rec = *static_cast<recorder *>(data);
  if (rec.open.empty() || rec.open.back().id != r.id || rec.open.back().kind != r.kind)
    rec.problems++;
  else
    rec.open.pop_back();
}

// Installs the recorder for its lifetime.
struct listening {
  recorder rec;
  listening() {
    pacxx::tools::callbacks c;
    c.data = &rec;
    c.begin = on_begin;
    c.end = on_end;
    pacxx::tools::set_callbacks(c);
  }
  ~listening() { pacxx::tools::set_callbacks(pacxx::tools::callbacks{}); }
};

float dot(const gpu::vector<float> &a, const gpu::vector<float> &b) {
  auto mult = [](auto p) { return std::get<0>(p) * std::get<1>(p); };
  return ranges::views::zip(a, b) | ranges::views::transform(mult) | gpu::reduce(0.0f);
}

TEST(Tools, AlgorithmsAreRangesAroundTheirWork) {
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(997), std::size_t(4096)}) {
    std::vector<float> x(n), y(n);
    double ref = 0;
    for (std::size_t i = 0; i < n; ++i) {
      x[i] = float(i % 7);
      y[i] = float(i % 5);
      ref += double(x[i]) * y[i];
    }
    listening l;
    pacxx::reset_stats();
    gpu::vector<float> a = gpu::copy(x), b = gpu::copy(y);
    const float got = dot(a, b);
    const pacxx::runtime_stats s = pacxx::stats();
    EXPECT_EQ(got, float(ref)) << n;
    const recorder &r = l.rec;
    EXPECT_EQ(r.problems, 0) << n;
    EXPECT_TRUE(r.open.empty()) << n;
    // gpu::copy twice, then gpu::reduce (through the pipe), each at depth 0 with the size.
    std::vector<std::string> top;
    for (const recorded &e : r.begins)
      if (e.kind == event::algorithm && e.depth == 0) {
        top.push_back(e.name);
        EXPECT_EQ(e.size, n) << e.name;
      }
    EXPECT_EQ(top, (std::vector<std::string>{"gpu::copy", "gpu::copy", "gpu::reduce"})) << n;
    // Launches, copies and allocations inside an algorithm, as many as counted.
    for (const recorded &e : r.begins)
      if (e.kind != event::algorithm)
        EXPECT_GE(e.depth, 1) << e.name;
    EXPECT_EQ(r.count(event::launch), s.kernel_launches) << n;
    EXPECT_EQ(r.count(event::launch), n ? 1u : 0u) << n; // one kernel for the fused dot
    EXPECT_EQ(r.count(event::allocation), s.device_allocations) << n;
    EXPECT_EQ(r.bytes(event::copy), s.bytes_to_device + s.bytes_to_host) << n;
    EXPECT_GE(r.bytes(event::copy), 2 * n * sizeof(float)) << n;
  }
}

TEST(Tools, AnErrorClosesTheRange) {
  listening l;
  gpu::vector<int> in(10), out(3);
  EXPECT_THROW(gpu::transform(in, out, [](int v) { return v + 1; }), pacxx::error);
  const recorder &r = l.rec;
  EXPECT_EQ(r.problems, 0);
  EXPECT_TRUE(r.open.empty());
  ASSERT_FALSE(r.begins.empty());
  EXPECT_EQ(r.begins.back().name, "gpu::transform");
  EXPECT_EQ(r.begins.back().size, 10u);
  EXPECT_EQ(r.count(event::launch), 0u);
}

TEST(Tools, NothingWhenOff) {
  recorder rec;
  pacxx::tools::callbacks c;
  c.data = &rec;
  c.begin = on_begin;
  c.end = on_end;
  pacxx::tools::set_callbacks(c);
  EXPECT_EQ(pacxx::tools::get_callbacks().data, &rec);
  pacxx::tools::set_callbacks(pacxx::tools::callbacks{});
  EXPECT_EQ(pacxx::tools::get_callbacks().begin, nullptr);
  gpu::vector<int> v(100);
  gpu::fill(v, 3);
  EXPECT_EQ(gpu::reduce(v, 0), 300);
  EXPECT_TRUE(rec.begins.empty());
}

// The outermost algorithm ranges the recorder heard (name and size), in order; nested
// public calls inside them (a top_k's compaction) are deeper and not listed.
std::vector<std::pair<std::string, std::size_t>> top_level(const recorder &r) {
  std::vector<std::pair<std::string, std::size_t>> top;
  for (const recorded &e : r.begins)
    if (e.kind == event::algorithm && e.depth == 0)
      top.emplace_back(e.name, e.size);
  return top;
}

using named_sizes = std::vector<std::pair<std::string, std::size_t>>;

struct is_even {
  bool operator()(int v) const { return v % 2 == 0; }
};

// The Thrust-parity algorithms are ranges too, named as called, with their first
// input's size (tiny sizes: the kernels' JIT dominates on PoCL).
TEST(Tools, SetUnionIsOneRangeWithItsFirstInputsSize) {
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(13)}) {
    std::vector<int> ha(n), hb(5), want;
    for (std::size_t i = 0; i < n; ++i)
      ha[i] = int(2 * i);
    for (std::size_t i = 0; i < hb.size(); ++i)
      hb[i] = int(3 * i);
    std::set_union(ha.begin(), ha.end(), hb.begin(), hb.end(), std::back_inserter(want));
    gpu::vector<int> a = gpu::copy(ha), b = gpu::copy(hb), out(n + hb.size());
    listening l;
    const std::size_t k = gpu::set_union(a, b, out);
    EXPECT_EQ(k, want.size()) << n;
    std::vector<int> got = gpu::copy(out);
    got.resize(k);
    EXPECT_EQ(got, want) << n;
    EXPECT_EQ(l.rec.problems, 0) << n;
    EXPECT_TRUE(l.rec.open.empty()) << n;
    EXPECT_EQ(top_level(l.rec), (named_sizes{{"gpu::set_union", n}, {"gpu::copy", out.size()}}))
        << n;
  }
}

TEST(Tools, PartitionCopyIsOneRangeWithItsInputsSize) {
  const std::size_t n = 11;
  std::vector<int> h(n);
  for (std::size_t i = 0; i < n; ++i)
    h[i] = int(i * 7 % 5);
  gpu::vector<int> in = gpu::copy(h), yes(n), no(n);
  listening l;
  const auto c = gpu::partition_copy(in, yes, no, is_even{});
  std::vector<int> even, odd;
  for (int v : h)
    (v % 2 == 0 ? even : odd).push_back(v);
  EXPECT_EQ(c.first, even.size());
  EXPECT_EQ(c.second, odd.size());
  std::vector<int> got = gpu::copy(yes);
  got.resize(c.first);
  EXPECT_EQ(got, even);
  EXPECT_EQ(l.rec.problems, 0);
  EXPECT_EQ(top_level(l.rec), (named_sizes{{"gpu::partition_copy", n}, {"gpu::copy", n}}));
}

TEST(Tools, TopKIsOneRangeWithItsInputsSize) {
  const std::size_t n = 17, k = 3;
  std::vector<int> h(n);
  for (std::size_t i = 0; i < n; ++i)
    h[i] = int(i * 5 % 17);
  gpu::vector<int> in = gpu::copy(h), out(k);
  listening l;
  gpu::top_k(in, k, out);
  std::vector<int> want = h;
  std::sort(want.begin(), want.end(), std::greater<>());
  want.resize(k);
  EXPECT_EQ(gpu::copy(out), want);
  EXPECT_EQ(l.rec.problems, 0);
  EXPECT_TRUE(l.rec.open.empty());
  EXPECT_EQ(top_level(l.rec), (named_sizes{{"gpu::top_k", n}, {"gpu::copy", k}}));
}

TEST(Tools, GemmIsOneRangeWithItsAsSize) {
  const std::size_t m = 3, k = 5, n = 2; // A is m x k, B k x n, C m x n (row-major)
  std::vector<float> ha(m * k), hb(k * n), want(m * n, 0.f);
  for (std::size_t i = 0; i < ha.size(); ++i)
    ha[i] = float(i % 4);
  for (std::size_t i = 0; i < hb.size(); ++i)
    hb[i] = float(i % 3) - 1.f;
  for (std::size_t r = 0; r < m; ++r)
    for (std::size_t c = 0; c < n; ++c)
      for (std::size_t i = 0; i < k; ++i)
        want[r * n + c] += ha[r * k + i] * hb[i * n + c];
  gpu::vector<float> a = gpu::copy(ha), b = gpu::copy(hb), c(m * n);
  listening l;
  gpu::gemm(gpu::md(a, k, m), gpu::md(b, n, k), gpu::md(c, n, m), 1.f, 0.f);
  EXPECT_EQ(gpu::copy(c), want);
  EXPECT_EQ(l.rec.problems, 0);
  EXPECT_TRUE(l.rec.open.empty());
  EXPECT_EQ(top_level(l.rec), (named_sizes{{"gpu::gemm", m * k}, {"gpu::copy", m * n}}));
}

} // namespace
