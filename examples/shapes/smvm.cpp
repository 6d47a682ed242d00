// Sparse matrix-vector multiplication (Accelerate's SMVM, issue 35): y = A x for A in
// CSR form (row offsets, column indices, values), one gpu::segmented_reduce over the
// products values[k] * x[columns[k]], a fused view whose element function reads x
// (a device range captured in the lambda). Checked against the host in double.
//   smvm [rows columns nonzeros_per_row]
#include <pacxx/pacxx.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <tuple>
#include <vector>

#include <range/v3/view/transform.hpp>
#include <range/v3/view/zip.hpp>

namespace view = ranges::views;

int main(int argc, char **argv) {
  const std::size_t rows = argc > 3 ? std::strtoul(argv[1], nullptr, 10) : 20011;
  const std::size_t cols = argc > 3 ? std::strtoul(argv[2], nullptr, 10) : 15013;
  const std::size_t mean = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 24;
  // Rows of 0 to 2 * mean entries (some empty), columns and values pseudo-random.
  unsigned long long seed = 7;
  auto next = [&] {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return seed >> 33;
  };
  std::vector<int> offsets(1, 0), columns;
  std::vector<float> values, x(cols);
  for (std::size_t r = 0; r < rows; ++r) {
    const std::size_t len = next() % (2 * mean + 1);
    for (std::size_t k = 0; k < len; ++k) {
      columns.push_back(static_cast<int>(next() % cols));
      values.push_back(static_cast<float>(next() % 2001) / 1000.f - 1.f);
    }
    offsets.push_back(static_cast<int>(columns.size()));
  }
  for (auto &e : x)
    e = static_cast<float>(next() % 1001) / 1000.f;

  gpu::vector<int> d_offsets = gpu::copy(offsets), d_columns = gpu::copy(columns);
  gpu::vector<float> d_values = gpu::copy(values), d_x = gpu::copy(x), y(rows);
  const gpu::device_span<const float> xs(d_x.data(), d_x.size());
  auto products = view::zip(d_values, d_columns) | view::transform([xs](auto e) {
                    return std::get<0>(e) * xs[static_cast<std::size_t>(std::get<1>(e))];
                  });
  gpu::segmented_reduce(products, d_offsets, y, 0.f);

  const std::vector<float> got = gpu::copy(y);
  double worst = 0;
  for (std::size_t r = 0; r < rows; ++r) {
    double want = 0, scale = 0;
    for (int k = offsets[r]; k < offsets[r + 1]; ++k) {
      want += double(values[k]) * x[static_cast<std::size_t>(columns[k])];
      scale += std::fabs(double(values[k]) * x[static_cast<std::size_t>(columns[k])]);
    }
    worst = std::fmax(worst, std::fabs(got[r] - want) / (scale + 1e-30));
  }
  std::printf("smvm: %zu x %zu, %zu nonzeros, largest relative error %.2e\n", rows, cols,
              values.size(), worst);
  if (!(worst < 1e-5)) {
    std::printf("FAILED: error above 1e-5\n");
    return 1;
  }
  return 0;
}
