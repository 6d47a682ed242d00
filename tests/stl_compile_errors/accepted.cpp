// The control: the same constructs written correctly compile (so that the rejections
// above come from the checks, not from a broken header).
#include <pacxx/pacxx.hpp>
#include <vector>
namespace view = ranges::views;
int main() {
  std::vector<int> h(100, 1);
  gpu::vector<int> d = gpu::copy(h);
  int a = gpu::reduce(d, 0);
  int b = view::transform(gpu::copy(h), [](int x) { return x * 2; }) | gpu::reduce(0);
  gpu::vector<int> out(100);
  const int k = 3;
  gpu::transform(d, out, [k](int x) { return x + k; });
  gpu::for_each(view::zip(d, out), [](auto &&t) { std::get<0>(t) += std::get<1>(t); });
  int *p = out.data();
  pacxx::kernel([p](int n) { p[pacxx::Thread::get().global.x % n] = 0; }, {{1}, {16}})(100);
  std::vector<int> back = gpu::copy(view::reverse(d));
  gpu::inclusive_scan(d | view::transform([](int x) { return x * x; }),
                      out | gpu::views::transform_output([k](int x) { return x / k; }));
  // Views with a value template parameter, unbounded second inputs, bounded cycles,
  // sorting views and pairs (issue 34).
  int tv = d | view::sliding(2) | view::transform([](auto w) { return w[1] - w[0]; }) |
           gpu::reduce(0);
  int ip = gpu::inner_product(d, view::repeat(2), 0);
  int cy = d | view::cycle | view::take(250) | gpu::reduce(0);
  gpu::reduce_by_key(d, view::repeat(1), out, out);
  gpu::sort(d | view::reverse);
  gpu::vector<std::pair<int, int>> pairs(10);
  gpu::sort(pairs);
  return a + b + static_cast<int>(back.size()) + tv + ip + cy;
}
