// Canny edge detection (issue 35 item 7, issue 37 item 4): examples/canny's detector
// (stencils; hysteresis as a captured pass replayed by gpu::iterate_until, tested every
// 8 passes) against the naive hand-written CUDA of baselines/canny.cu (a kernel per
// stage; hysteresis with a flag read back after every double pass), same process, same
// synthetic image (examples/canny/canny.hpp). Family canny, variants pacxx and cuda;
// images of 2048^2 and 4096^2 (the goal's size). Times are per detection, image on the
// device to edge map on the device; counters: pixels per second, hysteresis passes
// (pacxx: single passes of two half steps, a multiple of 8; cuda: the same double
// passes, until one changes nothing). The edge maps are compared once per size and
// must be equal.
#include <pacxx/pacxx.hpp>

#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <vector>

#include "../examples/canny/canny.hpp"
#include "baselines/canny.h"

namespace {

struct canny_data {
  std::size_t w, h;
  gpu::vector<std::uint8_t> img, edges, ref;
  canny::detector det;
  void *cuda;
  canny_data(std::size_t w_, std::size_t h_)
      : w(w_), h(h_), img(gpu::copy(canny::synthetic_image(w_, h_))), edges(w_ * h_), ref(w_ * h_),
        det(w_, h_), cuda(cuda_canny_create(w_, h_)) {}
};

canny_data &cached(std::size_t side) {
  // Never destroyed: the runtime may be gone by the time static objects are.
  static auto *all = new std::map<std::size_t, std::unique_ptr<canny_data>>;
  auto &p = (*all)[side];
  if (!p)
    p.reset(new canny_data(side, side));
  return *p;
}

std::size_t cuda_run(canny_data &d) {
  const canny::params p;
  return cuda_canny(d.cuda, d.img.data(), d.ref.data(), p.low, p.high);
}

bool agree(canny_data &d) {
  d.det.detect(d.img, d.edges);
  cuda_run(d);
  return gpu::copy(d.edges) == gpu::copy(d.ref);
}

template <class F> void run(benchmark::State &state, F f) {
  const std::size_t side = static_cast<std::size_t>(state.range(0));
  canny_data &d = cached(side);
  static std::map<std::size_t, bool> checked;
  if (!checked.count(side))
    checked[side] = agree(d);
  if (!checked[side])
    return state.SkipWithError("pacxx and CUDA edge maps differ");
  std::size_t passes = f(d);
  for (auto _ : state)
    passes = f(d);
  state.counters["pixels"] = benchmark::Counter(
      double(side) * double(side) * double(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["passes"] = double(passes);
}

void canny_pacxx(benchmark::State &s) {
  run(s, [](canny_data &d) { return d.det.detect(d.img, d.edges); });
}
void canny_cuda(benchmark::State &s) { run(s, cuda_run); }

void sizes(benchmark::internal::Benchmark *b) {
  for (int side : {2048, 4096})
    b->Arg(side);
  b->UseRealTime()->Unit(benchmark::kMillisecond);
}
BENCHMARK(canny_pacxx)->Apply(sizes);
BENCHMARK(canny_cuda)->Apply(sizes);

} // namespace

BENCHMARK_MAIN();
