// End-to-end: pacxx/tools.hpp's callbacks, set by the program. Every algorithm is one
// range named as the user wrote it (gpu::reduce, gpu::transform, gpu::copy) with its
// input's size, around its launches, copies and allocations, which the tool sees as
// many times as pacxx::stats() counts them; ranges nest and end as they began, on an
// error too; with the callbacks off the tool hears nothing.
#include <pacxx/pacxx.hpp>
#include <pacxx/tools.hpp>

#include <range/v3/view.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <tuple>
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

} // namespace
