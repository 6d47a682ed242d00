// gpu::dist on 1, 2 and 4 GPUs of one machine, one process per GPU (issue 39). Run with
// mpirun (benchmarks/README.md and docs/distributed.md give the commands); every rank
// runs every benchmark with a fixed number of iterations (the ranks must make the same
// collective calls), rank 0 prints. A time is the slowest rank's, between barriers.
//
//  - weak/<op>: 2^28 floats per GPU (PACXX_BENCH_MAX_LOG2 lowers it): transform (zip
//    saxpy), reduce, inclusive_scan, sort (u32 keys, sample sort; the all-to-all's bytes
//    per second stated beside it). Parallel efficiency = time on 1 GPU / time on p GPUs.
//  - halo/<bytes>: exchange_halo of one row of that many bytes each side (rows
//    distribution), against raw/<bytes>: the same two ncclSend/ncclRecv pairs in one
//    group on a communicator of this program's own (NCCL transport only).
//  - allreduce_scalar: the engine's all-gather of one partial (what reduce does after
//    its kernel), and reduce_small: gpu::dist::reduce of one float per rank.
//  - strong/rof/<side>: strong scaling of ROF denoising of one side x side image
//    (examples/rof/solver/primal_dual_dist.hpp: rows over the ranks, both halo
//    exchanges overlapped with the rows that do not need them), the time of one
//    iteration; speed-up = time on 1 GPU / time on p GPUs. Sides 4096 and 8192 (issue
//    39's goals: >= 1.8x / 3.2x and >= 1.9x / 3.6x on 2 / 4 GPUs), or those listed in
//    PACXX_BENCH_ROF_SIDES (comma-separated, e.g. 256 for a run on PoCL). On 1 rank also
//    single/rof/<side>: the single-process solver (examples/rof's rof), the yardstick.
// The transport (nccl, host_staged, mpi_device) is in each line's label: run once as
// is and once with PACXX_NCCL=0 for the host-staged path.
#include <pacxx/dist.hpp>
#include <pacxx/pacxx.hpp>

#include <benchmark/benchmark.h>

#include "operators/gradient.hpp" // examples/rof
#include "operators/identity.hpp"
#include "prox/l2_data_dual.hpp"
#include "prox/tv_dual.hpp"
#include "solver/primal_dual.hpp"
#include "solver/primal_dual_dist.hpp"
#include "synthetic.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

std::size_t per_rank() {
  int log2 = 28;
  if (const char *s = std::getenv("PACXX_BENCH_MAX_LOG2"))
    log2 = std::atoi(s);
  return std::size_t(1) << log2;
}

pacxx::dist::environment *env;

// One untimed call of f before the timed ones, the same on every rank (so the
// collectives stay matched): the first call of an operation pays its kernels' JIT
// compilation (about 0.1 s a kernel on a GPU, more on PoCL) and, on the NCCL transport,
// the connection set-up to each peer. Without it the lead's first H200 run charged that
// to the first of a fixed number of iterations: weak/transform 5.3 ms on 1 GPU against
// 0.8 ms on 2, raw/4096 1072 us against 27 us for raw/16384.
template <class F> void warm_up(F f) {
  f();
  pacxx::synchronize();
  env->barrier();
}

// The slowest rank's time of f, between barriers: f's device work is complete (the
// pacxx::synchronize before the clock stops) and the maximum over the ranks is taken.
template <class F> double timed(F f) {
  env->barrier();
  const auto t0 = std::chrono::steady_clock::now();
  f();
  pacxx::synchronize();
  const double mine = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::vector<double> all(static_cast<std::size_t>(env->size()));
  pacxx::dist::detail::allgather(&mine, sizeof mine, all.data());
  return *std::max_element(all.begin(), all.end());
}

void label(benchmark::State &state) {
  state.SetLabel(std::string(env->transport_name()) + ", " + std::to_string(env->size()) +
                 " ranks");
  state.counters["ranks"] = env->size();
}

struct saxpy {
  float a;
  template <class P> float operator()(const P &p) const {
    return a * std::get<0>(p) + std::get<1>(p);
  }
};
struct scramble {
  unsigned seed;
  unsigned operator()(std::size_t i) const {
    unsigned x = static_cast<unsigned>(i) * 2654435761u ^ seed;
    x ^= x >> 15;
    x *= 2246822519u;
    return x ^ (x >> 13);
  }
};

void weak_transform(benchmark::State &state) {
  const std::size_t n = per_rank() * static_cast<std::size_t>(env->size());
  gpu::dist::vector<float> x(n), y(n);
  gpu::fill(x.local(), 1.0f);
  gpu::fill(y.local(), 2.0f);
  const auto op = [&] { gpu::dist::transform(gpu::dist::zip(x, y), y, saxpy{0.5f}); };
  warm_up(op);
  for (auto _ : state)
    state.SetIterationTime(timed(op));
  state.SetBytesProcessed(state.iterations() * per_rank() * 12); // per GPU
  label(state);
}

void weak_reduce(benchmark::State &state) {
  const std::size_t n = per_rank() * static_cast<std::size_t>(env->size());
  gpu::dist::vector<float> x(n);
  gpu::fill(x.local(), 1.0f);
  float s = 0;
  const auto op = [&] { s = gpu::dist::reduce(x, 0.0f); };
  warm_up(op);
  for (auto _ : state)
    state.SetIterationTime(timed(op));
  if (s != static_cast<float>(n) && n <= (std::size_t(1) << 24))
    state.SkipWithError("wrong sum");
  state.SetBytesProcessed(state.iterations() * per_rank() * 4);
  label(state);
}

void weak_scan(benchmark::State &state) {
  const std::size_t n = per_rank() * static_cast<std::size_t>(env->size());
  gpu::dist::vector<float> x(n), y(n);
  gpu::fill(x.local(), 1.0f);
  const auto op = [&] { gpu::dist::inclusive_scan(x, y); };
  warm_up(op);
  for (auto _ : state)
    state.SetIterationTime(timed(op));
  state.SetBytesProcessed(state.iterations() * per_rank() * 8);
  label(state);
}

void weak_sort(benchmark::State &state) {
  const std::size_t n = per_rank() * static_cast<std::size_t>(env->size());
  gpu::dist::vector<unsigned> keys(n);
  double sorting = 0;
  unsigned round = 0;
  const auto fill_keys = [&] {
    gpu::transform(ranges::views::iota(keys.offset(), keys.offset() + keys.local_size()),
                   keys.local(), scramble{++round});
  };
  fill_keys();
  warm_up([&] { gpu::dist::sort(keys); });
  for (auto _ : state) {
    fill_keys();
    const double t = timed([&] { gpu::dist::sort(keys); });
    state.SetIterationTime(t);
    sorting += t;
  }
  state.SetItemsProcessed(state.iterations() * per_rank());
  // Every key crosses the network about twice (to its bucket, back to its block): the
  // rate at which a GPU's keys moved through both all-to-alls, as an upper bound.
  state.counters["alltoall_GBps_per_gpu"] =
      2.0 * per_rank() * 4 * state.iterations() / sorting / 1e9;
  label(state);
}

// ---- halo exchange against raw NCCL ------------------------------------------------

struct raw_nccl {
  using result = int;
  using comm_t = void *;
  struct id_t {
    char internal[128];
  };
  void *lib = nullptr;
  comm_t comm = nullptr;
  result (*GetUniqueId)(id_t *) = nullptr;
  result (*CommInitRank)(comm_t *, int, id_t, int) = nullptr;
  result (*GroupStart)() = nullptr;
  result (*GroupEnd)() = nullptr;
  result (*Send)(const void *, std::size_t, int, int, comm_t, void *) = nullptr;
  result (*Recv)(void *, std::size_t, int, int, comm_t, void *) = nullptr;
  bool ok = false;

  raw_nccl() {
    if (env->transport() != pacxx::dist::transport::nccl)
      return;
    const char *path = std::getenv("PACXX_NCCL");
    lib = dlopen(path && *path ? path : "libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
    void *cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib || !cuda)
      return;
    auto set_current = reinterpret_cast<int (*)(void *)>(dlsym(cuda, "cuCtxSetCurrent"));
    GetUniqueId = reinterpret_cast<decltype(GetUniqueId)>(dlsym(lib, "ncclGetUniqueId"));
    CommInitRank = reinterpret_cast<decltype(CommInitRank)>(dlsym(lib, "ncclCommInitRank"));
    GroupStart = reinterpret_cast<decltype(GroupStart)>(dlsym(lib, "ncclGroupStart"));
    GroupEnd = reinterpret_cast<decltype(GroupEnd)>(dlsym(lib, "ncclGroupEnd"));
    Send = reinterpret_cast<decltype(Send)>(dlsym(lib, "ncclSend"));
    Recv = reinterpret_cast<decltype(Recv)>(dlsym(lib, "ncclRecv"));
    if (!set_current || !GetUniqueId || !CommInitRank || !GroupStart || !GroupEnd || !Send || !Recv)
      return;
    set_current(pacxx::native_handles().context);
    id_t id{};
    if (env->rank() == 0)
      GetUniqueId(&id);
    pacxx::dist::detail::broadcast(&id, sizeof id, 0);
    ok = CommInitRank(&comm, env->size(), id, env->rank()) == 0;
  }
};

raw_nccl &raw() {
  static raw_nccl *r = new raw_nccl;
  return *r;
}

void halo(benchmark::State &state) {
  const std::size_t row = static_cast<std::size_t>(state.range(0)) / sizeof(float);
  const std::size_t rows = 4 * static_cast<std::size_t>(env->size());
  gpu::dist::vector<float> img(row * rows, gpu::dist::rows(row));
  gpu::fill(img.with_halo(), 1.0f);
  pacxx::queue q;
  const auto op = [&] {
    img.exchange_halo(q);
    q.wait();
  };
  warm_up(op);
  for (auto _ : state)
    state.SetIterationTime(timed(op));
  state.SetBytesProcessed(state.iterations() * state.range(0) * 2);
  label(state);
}

void raw_sendrecv(benchmark::State &state) {
  raw_nccl &r = raw();
  if (!r.ok) {
    state.SkipWithError("the NCCL transport only");
    return;
  }
  const std::size_t bytes = static_cast<std::size_t>(state.range(0));
  gpu::vector<char> send(2 * bytes), recv(2 * bytes);
  pacxx::queue q;
  const int me = env->rank(), p = env->size();
  const auto op = [&] {
    r.GroupStart();
    if (me > 0) {
      r.Send(send.data(), bytes, 0, me - 1, r.comm, q.native_handle());
      r.Recv(recv.data(), bytes, 0, me - 1, r.comm, q.native_handle());
    }
    if (me + 1 < p) {
      r.Send(send.data() + bytes, bytes, 0, me + 1, r.comm, q.native_handle());
      r.Recv(recv.data() + bytes, bytes, 0, me + 1, r.comm, q.native_handle());
    }
    r.GroupEnd();
    q.wait();
  };
  warm_up(op); // NCCL connects to a peer at the first send/recv with it
  for (auto _ : state)
    state.SetIterationTime(timed(op));
  state.SetBytesProcessed(state.iterations() * state.range(0) * 2);
  label(state);
}

void allreduce_scalar(benchmark::State &state) {
  double mine = env->rank(), sum = 0;
  std::vector<double> all(static_cast<std::size_t>(env->size()));
  const auto op = [&] {
    pacxx::dist::detail::allgather(&mine, sizeof mine, all.data());
    sum = 0;
    for (double v : all)
      sum += v;
  };
  warm_up(op);
  for (auto _ : state)
    state.SetIterationTime(timed(op));
  benchmark::DoNotOptimize(sum);
  label(state);
}

void reduce_small(benchmark::State &state) {
  gpu::dist::vector<float> x(static_cast<std::size_t>(env->size()));
  gpu::fill(x.local(), 1.0f);
  float s = 0;
  const auto op = [&] { s = gpu::dist::reduce(x, 0.0f); };
  warm_up(op);
  for (auto _ : state)
    state.SetIterationTime(timed(op));
  if (s != static_cast<float>(env->size()))
    state.SkipWithError("wrong sum");
  label(state);
}

// ---- ROF strong scaling ------------------------------------------------------------

constexpr int kRofIterationsPerSample = 20;

void strong_rof(benchmark::State &state) {
  const std::size_t side = static_cast<std::size_t>(state.range(0));
  std::vector<float> noisy;
  if (env->rank() == 0) // the image examples/rof and benchmarks/rof.cpp denoise
    noisy = rof::add_gaussian_noise(rof::piecewise_constant(side, side), 0.1f, 42);
  rof::primal_dual_rows solver(noisy, side, side, 8.f);
  const auto op = [&] {
    for (int i = 0; i < kRofIterationsPerSample; ++i)
      solver.iterate();
    solver.finish();
  };
  warm_up(op);
  for (auto _ : state)
    state.SetIterationTime(timed(op) / kRofIterationsPerSample); // one ROF iteration
  // The pixels of the whole image an iteration updates, per second.
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(side * side));
  state.counters["rof_iterations_per_sample"] = kRofIterationsPerSample;
  label(state);
}

// The single-process solver (examples/rof/solver/primal_dual.hpp) on the same image, as
// rof runs it (the iterations replayed from one captured graph): the one-GPU yardstick
// beside strong/rof/<side> on 1 rank, which pays the distributed solver's four launches an
// iteration. Registered on one rank only.
void single_rof(benchmark::State &state) {
  const std::size_t side = static_cast<std::size_t>(state.range(0));
  const gpu::vector<float> f =
      gpu::copy(rof::add_gaussian_noise(rof::piecewise_constant(side, side), 0.1f, 42));
  auto solver = rof::make_primal_dual(f, rof::make_term(rof::gradient{side}, rof::tv_dual(1.f)),
                                      rof::make_term(rof::identity{}, rof::l2_data_dual(f, 8.f)));
  const pacxx::queue &q = pacxx::queue::default_queue();
  const pacxx::graph step = pacxx::capture(q, [&] { solver.iterate(); });
  const auto op = [&] { step.launch(q, kRofIterationsPerSample); };
  warm_up(op);
  for (auto _ : state)
    state.SetIterationTime(timed(op) / kRofIterationsPerSample);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(side * side));
  state.counters["rof_iterations_per_sample"] = kRofIterationsPerSample;
  label(state);
}

std::vector<long> rof_sides() {
  std::vector<long> sides;
  if (const char *s = std::getenv("PACXX_BENCH_ROF_SIDES")) {
    for (const char *p = s; *p;) {
      char *end = nullptr;
      const long v = std::strtol(p, &end, 10);
      if (end == p)
        break;
      if (v > 0)
        sides.push_back(v);
      p = *end == ',' ? end + 1 : end;
    }
    return sides;
  }
  return {4096, 8192};
}

} // namespace

int main(int argc, char **argv) {
  pacxx::dist::environment e(argc, argv);
  env = &e;
  // Fixed iteration counts: every rank must run the same collectives. (Registered as
  // functions: the BENCHMARK macro registers once per source line, not per loop pass.)
  using benchmark::RegisterBenchmark;
  RegisterBenchmark("weak/transform", weak_transform)
      ->UseManualTime()
      ->Iterations(20)
      ->Unit(benchmark::kMillisecond);
  RegisterBenchmark("weak/reduce", weak_reduce)
      ->UseManualTime()
      ->Iterations(20)
      ->Unit(benchmark::kMillisecond);
  RegisterBenchmark("weak/inclusive_scan", weak_scan)
      ->UseManualTime()
      ->Iterations(20)
      ->Unit(benchmark::kMillisecond);
  RegisterBenchmark("weak/sort", weak_sort)
      ->UseManualTime()
      ->Iterations(5)
      ->Unit(benchmark::kMillisecond);
  for (long bytes : {4096L, 16384L, 65536L, 1L << 20, 1L << 24}) {
    RegisterBenchmark("halo", halo)
        ->Arg(bytes)
        ->UseManualTime()
        ->Iterations(200)
        ->Unit(benchmark::kMicrosecond);
    RegisterBenchmark("raw", raw_sendrecv)
        ->Arg(bytes)
        ->UseManualTime()
        ->Iterations(200)
        ->Unit(benchmark::kMicrosecond);
  }
  for (long side : rof_sides()) {
    RegisterBenchmark("strong/rof", strong_rof)
        ->Arg(side)
        ->UseManualTime()
        ->Iterations(10)
        ->Unit(benchmark::kMillisecond);
    if (e.size() == 1)
      RegisterBenchmark("single/rof", single_rof)
          ->Arg(side)
          ->UseManualTime()
          ->Iterations(10)
          ->Unit(benchmark::kMillisecond);
  }
  RegisterBenchmark("allreduce_scalar", allreduce_scalar)
      ->UseManualTime()
      ->Iterations(2000)
      ->Unit(benchmark::kMicrosecond);
  RegisterBenchmark("reduce_small", reduce_small)
      ->UseManualTime()
      ->Iterations(2000)
      ->Unit(benchmark::kMicrosecond);
  benchmark::Initialize(&argc, argv);
  if (e.rank() != 0) // only rank 0 reports
    std::freopen("/dev/null", "w", stdout);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
