// See random.h. Every CUDA and cuRAND call is checked; a failure aborts with its message.
#include "random.h"

#include <curand.h>
#include <thrust/device_ptr.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/random.h>
#include <thrust/transform.h>

#include <cstdio>
#include <cstdlib>

#include "check.h"

#define CHECK_RAND(call)                                                                           \
  do {                                                                                             \
    curandStatus_t s = (call);                                                                     \
    if (s != CURAND_STATUS_SUCCESS) {                                                              \
      std::fprintf(stderr, "%s:%d: %s: cuRAND status %d\n", __FILE__, __LINE__, #call, int(s));    \
      std::abort();                                                                                \
    }                                                                                              \
  } while (0)

namespace {
curandGenerator_t generator = nullptr;

// Thrust's examples' way (monte_carlo_disjoint_sequences.cu): an engine per element,
// moved to its own place of the stream with discard.
struct engine_value {
  unsigned seed;
  __host__ __device__ float operator()(unsigned i) const {
    thrust::default_random_engine rng(seed);
    rng.discard(i);
    thrust::uniform_real_distribution<float> u01(0.f, 1.f);
    return u01(rng);
  }
};
} // namespace

extern "C" void curand_prepare(unsigned long long seed) {
  if (generator)
    return;
  CHECK_RAND(curandCreateGenerator(&generator, CURAND_RNG_PSEUDO_PHILOX4_32_10));
  CHECK_RAND(curandSetPseudoRandomGeneratorSeed(generator, seed));
}

extern "C" void curand_uniform(float *out, std::size_t n) {
  CHECK_RAND(curandGenerateUniform(generator, out, n));
  CHECK(cudaDeviceSynchronize());
}

extern "C" void thrust_engine_uniform(float *out, std::size_t n, unsigned seed) {
  thrust::counting_iterator<unsigned> first(0);
  thrust::transform(first, first + static_cast<unsigned>(n), thrust::device_pointer_cast(out),
                    engine_value{seed});
  CHECK(cudaDeviceSynchronize());
}
