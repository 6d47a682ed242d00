// pacxx inside a CUDA program (issue 12): Thrust (thrust_part.cu, compiled by nvcc) owns
// a device_vector and a non-blocking stream; pacxx (this file, compiled by pacxx++)
// adopts the stream as a pacxx::queue, works on Thrust's memory through
// gpu::device_span, and hands its own memory to Thrust through
// gpu::vector::native_handle(). Everything runs in order on the one stream, without a
// host wait between the two libraries. Prints PASS or FAIL against a CPU reference;
// exits non-zero on failure. Needs a CUDA GPU (PACXX_DEVICE=cuda or the default).
#include <pacxx/pacxx.hpp>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "thrust_part.h"

namespace view = ranges::views;

int main() {
  const std::size_t n = std::size_t(1) << 24;
  try {
    if (std::string(pacxx::native_handles().backend) != "cuda") {
      std::printf("FAIL: thrust_interop needs a CUDA device (pacxx selected %s)\n",
                  pacxx::native_handles().backend);
      return 1;
    }
    void *stream = nullptr;
    float *thrust_data = thrust_make_data(n, &stream);
    if (!thrust_data) {
      std::printf("FAIL: the Thrust part could not start\n");
      return 1;
    }
    std::vector<double> ref(n);
    for (std::size_t i = 0; i < n; ++i)
      ref[i] = double(float(i % 1000) * 0.001f);

    bool ok = true;
    auto near = [&](const char *what, double got, double want, double tolerance) {
      const bool good = std::fabs(got - want) <= tolerance * (1.0 + std::fabs(want));
      std::printf("  %-58s %.6f (CPU %.6f) %s\n", what, got, want, good ? "ok" : "WRONG");
      ok = ok && good;
    };
    {
      pacxx::queue q = pacxx::queue::adopt(stream); // Thrust's stream, not destroyed by pacxx
      gpu::device_span<float> x(thrust_data, n);    // Thrust's memory
      // 1. pacxx reduces Thrust's data on Thrust's stream (after Thrust's fill).
      pacxx::future<double> s1 =
          gpu::reduce_async(q, x | view::transform([](float v) { return double(v); }), 0.0);
      // 2. pacxx transforms it in place: x = 2x + 1.
      gpu::transform(q, x, x, [](float v) { return 2.f * v + 1.f; });
      // 3. Thrust squares it on the same stream, after pacxx's transform.
      thrust_square(thrust_data, n, stream);
      // 4. pacxx keeps a sum on the device and scales its own vector by it.
      // (Allocated without work, filled on q: Thrust's stream is non-blocking, so the
      // default queue's work would not be ordered with it.)
      gpu::vector<float> mine(n), total(1);
      gpu::fill(q, mine, 1.f);
      gpu::reduce_to(q, x, total.data(), 0.f);
      const float *t = total.data();
      const float count = float(n);
      gpu::transform(q, mine, mine, [t, count](float v) { return v * (*t / count); });
      // 5. Thrust reduces pacxx's vector through its native handle.
      const double s5 = thrust_sum(static_cast<const float *>(mine.native_handle()), n, stream);

      double r1 = 0, r3 = 0;
      for (std::size_t i = 0; i < n; ++i) {
        r1 += ref[i];
        const float y = 2.f * float(ref[i]) + 1.f;
        r3 += double(y * y);
      }
      near("pacxx reduce_async of Thrust's data on Thrust's stream", s1.get(), r1, 1e-9);
      near("Thrust transform_reduce of pacxx's vector (scaled by a device sum)", s5 / n, r3 / n,
           1e-5); // a float sum of 2^24 values
      near("pacxx reduce of Thrust's data after pacxx and Thrust transforms",
           gpu::reduce(q, x | view::transform([](float v) { return double(v); }), 0.0), r3, 1e-9);
      q.wait();
    }
    thrust_release(stream);
    std::printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
  } catch (const std::exception &e) {
    std::printf("FAIL: %s\n", e.what());
    return 1;
  }
}
