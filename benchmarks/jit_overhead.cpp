// JIT overhead, the paper's Figure 5: time from the call to the result on the host for
// the FIRST call of dot and sum in a new process, (a) with every cache cold (pacxx's
// disk cache empty, the driver's PTX cache off: CUDA_CACHE_DISABLE=1), (b) with a warm
// pacxx disk cache, (c) with a warm memory cache (the second call), against (d) NVRTC
// compiling the equivalent CUDA source, with the CUB header it needs, to a cubin that
// is loaded and launched. Each measurement runs in a fresh child process (this program
// with --child), which reports its time; the inputs are on the device before timing.
#include <pacxx/pacxx.hpp>

#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include <cuda.h>
#include <nvrtc.h>

namespace view = ranges::views;
using std::get;

namespace {

const std::size_t kN = 1 << 20;
std::string self;

double now_us() {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// ---- the child: one first call (and a second), times in microseconds on stdout ----
// The inputs of both children; returns the expected result.
double make_inputs(const std::string &what, std::vector<float> &ha, std::vector<float> &hb) {
  ha.resize(kN);
  hb.resize(kN);
  double ref = 0;
  for (std::size_t i = 0; i < kN; ++i) {
    ha[i] = static_cast<float>(i % 7);
    hb[i] = static_cast<float>(i % 3);
    ref += what == "dot" ? ha[i] * hb[i] : ha[i];
  }
  return ref;
}

int child_pacxx(const std::string &what) {
  std::vector<float> ha, hb;
  const double ref = make_inputs(what, ha, hb);
  gpu::vector<float> a = gpu::copy(ha), b = gpu::copy(hb);
  auto mult = [](auto p) { return get<0>(p) * get<1>(p); };
  auto call = [&] {
    return what == "dot" ? view::zip(a, b) | view::transform(mult) | gpu::reduce(0.0f)
                         : gpu::reduce(a, 0.0f);
  };
  double t0 = now_us();
  float r1 = call();
  double t1 = now_us();
  float r2 = call();
  double t2 = now_us();
  if (std::fabs(r1 - ref) > 1e-3 * ref || r1 != r2)
    return 3;
  std::printf("%f %f\n", t1 - t0, t2 - t1);
  return 0;
}

#define CU(call)                                                                                   \
  do {                                                                                             \
    CUresult e = (call);                                                                           \
    if (e != CUDA_SUCCESS) {                                                                       \
      const char *s = "";                                                                          \
      cuGetErrorString(e, &s);                                                                     \
      std::fprintf(stderr, "%s: %s\n", #call, s);                                                  \
      return 4;                                                                                    \
    }                                                                                              \
  } while (0)
#define RTC(call)                                                                                  \
  do {                                                                                             \
    nvrtcResult e = (call);                                                                        \
    if (e != NVRTC_SUCCESS) {                                                                      \
      std::fprintf(stderr, "%s: %s\n", #call, nvrtcGetErrorString(e));                             \
      return 5;                                                                                    \
    }                                                                                              \
  } while (0)

// The same computation in CUDA: a grid-stride dot/sum with a CUB block reduction.
const char *kSource = R"(
#include <cub/block/block_reduce.cuh>
extern "C" __global__ void reduce(const float *a, const float *b, unsigned long long n, float *out) {
  using R = cub::BlockReduce<float, 256>;
  __shared__ typename R::TempStorage tmp;
  float s = 0;
  for (unsigned long long i = blockIdx.x * 256ull + threadIdx.x; i < n; i += gridDim.x * 256ull)
    s += DOT ? a[i] * b[i] : a[i];
  s = R(tmp).Sum(s);
  if (threadIdx.x == 0) atomicAdd(out, s);
}
)";

int child_nvrtc(const std::string &what) {
  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));
  int major = 0, minor = 0;
  CU(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
  CU(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
  std::vector<float> ha, hb;
  const double ref = make_inputs(what, ha, hb);
  CUdeviceptr a, b, out;
  CU(cuMemAlloc(&a, kN * 4));
  CU(cuMemAlloc(&b, kN * 4));
  CU(cuMemAlloc(&out, 4));
  CU(cuMemcpyHtoD(a, ha.data(), kN * 4));
  CU(cuMemcpyHtoD(b, hb.data(), kN * 4));

  double t0 = now_us();
  nvrtcProgram prog;
  RTC(nvrtcCreateProgram(&prog, kSource, "reduce.cu", 0, nullptr, nullptr));
  std::string arch = "--gpu-architecture=sm_" + std::to_string(major * 10 + minor);
  std::string dot = std::string("-DDOT=") + (what == "dot" ? "1" : "0");
  // CUDA 13 keeps CUB under include/cccl.
  const char *opts[] = {arch.c_str(), dot.c_str(), "-I" CUDA_INCLUDE_DIR,
                        "-I" CUDA_INCLUDE_DIR "/cccl", "-std=c++17"};
  nvrtcResult built = nvrtcCompileProgram(prog, 5, opts);
  if (built != NVRTC_SUCCESS) {
    std::size_t n = 0;
    nvrtcGetProgramLogSize(prog, &n);
    std::string log(n, '\0');
    nvrtcGetProgramLog(prog, &log[0]);
    std::fprintf(stderr, "nvrtc: %s\n", log.c_str());
    return 5;
  }
  std::size_t size = 0;
  RTC(nvrtcGetCUBINSize(prog, &size));
  std::string cubin(size, '\0');
  RTC(nvrtcGetCUBIN(prog, &cubin[0]));
  RTC(nvrtcDestroyProgram(&prog));
  CUmodule mod;
  CUfunction fn;
  CU(cuModuleLoadData(&mod, cubin.data()));
  CU(cuModuleGetFunction(&fn, mod, "reduce"));
  CU(cuMemsetD32(out, 0, 1));
  unsigned long long n = kN;
  void *params[] = {&a, &b, &n, &out};
  CU(cuLaunchKernel(fn, 1024, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr));
  float r = 0;
  CU(cuMemcpyDtoH(&r, out, 4));
  double t1 = now_us();
  if (std::fabs(r - ref) > 1e-3 * ref)
    return 3;
  std::printf("%f %f\n", t1 - t0, 0.0);
  return 0;
}

// ---- the parent: Google Benchmark, one child per iteration -------------------------
// Runs `self --child kind what` with the given environment; returns its two times.
bool run_child(const std::string &kind, const std::string &what,
               const std::vector<std::string> &env, double &first, double &second) {
  int fd[2];
  if (pipe(fd) != 0)
    return false;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fd[1], 1);
    close(fd[0]);
    for (const std::string &e : env)
      putenv(const_cast<char *>(e.c_str()));
    execl(self.c_str(), self.c_str(), "--child", kind.c_str(), what.c_str(), (char *)nullptr);
    _exit(127);
  }
  close(fd[1]);
  char buf[256] = {0};
  ssize_t got = read(fd[0], buf, sizeof buf - 1);
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return got > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
         std::sscanf(buf, "%lf %lf", &first, &second) == 2;
}

std::string cache_dir(const std::string &name) { return "/tmp/pacxx-jit-bench-" + name; }

void measure(benchmark::State &state, const std::string &kind, const std::string &what,
             const std::string &cache, bool use_second) {
  std::vector<std::string> env = {"CUDA_CACHE_DISABLE=1", "PACXX_DEVICE=cuda"};
  if (cache == "cold") {
    env.push_back("PACXX_CACHE=0");
  } else {
    env.push_back("PACXX_CACHE=1");
    env.push_back("PACXX_CACHE_DIR=" + cache_dir(what));
  }
  double first = 0, second = 0;
  if (cache == "warm") { // a new, filled disk cache
    std::filesystem::remove_all(cache_dir(what));
    if (!run_child(kind, what, env, first, second))
      return state.SkipWithError("child failed");
  }
  for (auto _ : state) {
    if (!run_child(kind, what, env, first, second))
      return state.SkipWithError("child failed");
    state.SetIterationTime((use_second ? second : first) * 1e-6);
  }
}

void BM_pacxx_cold(benchmark::State &s, std::string what) {
  measure(s, "pacxx", what, "cold", false);
}
void BM_pacxx_warm_disk(benchmark::State &s, std::string what) {
  measure(s, "pacxx", what, "warm", false);
}
void BM_pacxx_warm_memory(benchmark::State &s, std::string what) {
  measure(s, "pacxx", what, "cold", true);
}
void BM_nvrtc(benchmark::State &s, std::string what) { measure(s, "nvrtc", what, "cold", false); }

} // namespace

int main(int argc, char **argv) {
  self = argv[0];
  if (argc == 4 && std::strcmp(argv[1], "--child") == 0)
    return std::strcmp(argv[2], "nvrtc") == 0 ? child_nvrtc(argv[3]) : child_pacxx(argv[3]);
  for (const char *what : {"dot", "sum"}) {
    std::string w = what;
    for (auto *b :
         {benchmark::RegisterBenchmark(("first_call/" + w + "/pacxx_cold").c_str(), BM_pacxx_cold,
                                       w),
          benchmark::RegisterBenchmark(("first_call/" + w + "/pacxx_warm_disk").c_str(),
                                       BM_pacxx_warm_disk, w),
          benchmark::RegisterBenchmark(("first_call/" + w + "/pacxx_warm_memory").c_str(),
                                       BM_pacxx_warm_memory, w),
          benchmark::RegisterBenchmark(("first_call/" + w + "/nvrtc").c_str(), BM_nvrtc, w)})
      b->UseManualTime()->Iterations(10)->Unit(benchmark::kMillisecond);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
