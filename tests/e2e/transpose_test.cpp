// End-to-end: 2D and 3D launches. A tiled matrix transpose through a padded
// pacxx::shared_memory<float, 32*33> tile on a 2D grid (blocks of 32x8 threads, each
// thread moving 4 rows of the tile), looping over tiles with Grid::get().size so that
// grids smaller than the matrix work too; and a check of every id the device reports
// (Thread global/local, Block index/size, Grid size) on 2D and 3D grids.
#include "test_support.hpp"

#include <pacxx/pacxx.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace {

using pacxx_test::random_floats;

constexpr std::size_t tile = 32, rows_per_pass = 8;

// out (cols x rows) = transpose of in (rows x cols), both row-major. The grid may be
// smaller than the number of tiles in either dimension: blocks loop over tiles with a
// stride of Grid::get().size.
void transpose(const gpu::vector<float> &in, gpu::vector<float> &out, std::size_t rows,
               std::size_t cols, std::size_t grid_x, std::size_t grid_y) {
  auto k = pacxx::kernel(
      [](const float *in, float *out, std::size_t rows, std::size_t cols) {
        pacxx::shared_memory<float, tile *(tile + 1)> t; // +1: no bank conflicts
        const auto th = pacxx::Thread::get();
        const auto b = pacxx::Block::get();
        const auto g = pacxx::Grid::get();
        const std::size_t tiles_x = (cols + tile - 1) / tile, tiles_y = (rows + tile - 1) / tile;
        for (std::size_t ty = b.index.y; ty < tiles_y; ty += g.size.y)
          for (std::size_t tx = b.index.x; tx < tiles_x; tx += g.size.x) {
            // Read tile (ty, tx) of `in` row by row (coalesced).
            const std::size_t c = tx * tile + th.local.x;
            for (std::size_t j = th.local.y; j < tile; j += b.size.y) {
              const std::size_t r = ty * tile + j;
              if (r < rows && c < cols)
                t[j * (tile + 1) + th.local.x] = in[r * cols + c];
            }
            pacxx::barrier();
            // Write it transposed: tile (tx, ty) of `out`, again row by row.
            const std::size_t oc = ty * tile + th.local.x; // column in out = row in in
            for (std::size_t j = th.local.y; j < tile; j += b.size.y) {
              const std::size_t orow = tx * tile + j; // row in out = column in in
              if (orow < cols && oc < rows)
                out[orow * rows + oc] = t[th.local.x * (tile + 1) + j];
            }
            pacxx::barrier(); // before the next tile overwrites t
          }
      },
      {{grid_x, grid_y}, {tile, rows_per_pass}});
  k(in.data(), out.data(), rows, cols);
}

void check_transpose(std::size_t rows, std::size_t cols, std::size_t grid_x, std::size_t grid_y,
                     std::uint64_t seed) {
  SCOPED_TRACE(testing::Message() << rows << "x" << cols << " on a " << grid_x << "x" << grid_y
                                  << " grid");
  const std::vector<float> h = random_floats(rows * cols, seed, -1.0f, 1.0f);
  gpu::vector<float> in = gpu::copy(h);
  // Fill the output with a marker so that an element never written shows up.
  std::vector<float> marker(rows * cols, -1000.0f);
  gpu::vector<float> out = gpu::copy(marker);
  transpose(in, out, rows, cols, grid_x, grid_y);
  std::vector<float> o = gpu::copy(out);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j)
      if (o[j * rows + i] != h[i * cols + j] && ++wrong <= 5)
        ADD_FAILURE() << "out(" << j << ", " << i << ") = " << o[j * rows + i] << ", expected in("
                      << i << ", " << j << ") = " << h[i * cols + j];
  EXPECT_EQ(wrong, 0u);
}

std::size_t tiles(std::size_t n) { return (n + tile - 1) / tile; }

TEST(Transpose, FullGrid) {
  // Non-square, not multiples of 32, one dimension below a tile, primes.
  const std::size_t shapes[][2] = {{1, 1},     {1, 33},    {33, 1},    {31, 65},  {64, 32},
                                   {67, 1009}, {1009, 67}, {500, 333}, {1024, 96}};
  std::uint64_t seed = 1;
  for (const auto &s : shapes)
    check_transpose(s[0], s[1], tiles(s[1]), tiles(s[0]), seed++);
}

TEST(Transpose, SmallerGridLoopsOverTiles) {
  // Fewer blocks than tiles: Grid::get().size is the stride of the tile loops.
  check_transpose(1009, 67, 1, 1, 11);
  check_transpose(200, 300, 2, 3, 12);
  check_transpose(333, 500, 5, 2, 13);
  check_transpose(97, 129, 3, 1, 14);
}

TEST(Transpose, LargerGridThanTiles) {
  // More blocks than tiles: the extra blocks have nothing to do.
  check_transpose(45, 70, tiles(70) + 3, tiles(45) + 2, 21);
}

TEST(Transpose, EmptyMatrix) {
  // Zero rows: neither a grid with 0 blocks in y nor a 1x1 grid (whose tile loop is
  // empty) may write anything; `out` is a guard buffer that must stay as it was.
  std::vector<float> guard(64);
  for (std::size_t i = 0; i < guard.size(); ++i)
    guard[i] = 0.5f * static_cast<float>(i) - 7.0f;
  gpu::vector<float> in(0), out = gpu::copy(guard);
  transpose(in, out, 0, 5, tiles(5), 0);
  transpose(in, out, 0, 5, 1, 1);
  transpose(in, out, 5, 0, 1, 1);
  EXPECT_EQ(gpu::copy(out), guard);
}

TEST(Transpose, TwiceIsIdentity) {
  const std::size_t rows = 123, cols = 457;
  const std::vector<float> h = random_floats(rows * cols, 31, -1.0f, 1.0f);
  gpu::vector<float> a = gpu::copy(h), b(rows * cols), c(rows * cols);
  transpose(a, b, rows, cols, tiles(cols), tiles(rows));
  transpose(b, c, cols, rows, tiles(rows), tiles(cols));
  EXPECT_EQ(gpu::copy(c), h);
}

// What one thread saw; laid out as plain numbers.
struct ids {
  std::uint64_t global[3], local[3], block_index[3], block_size[3], grid_size[3];
  std::uint64_t written;
};

void check_ids(pacxx::dim grid, pacxx::dim block) {
  SCOPED_TRACE(testing::Message() << "grid (" << grid.x << "," << grid.y << "," << grid.z
                                  << "), block (" << block.x << "," << block.y << "," << block.z
                                  << ")");
  const std::size_t nx = grid.x * block.x, ny = grid.y * block.y, nz = grid.z * block.z;
  const std::size_t total = nx * ny * nz;
  std::vector<ids> zero(total);
  for (auto &z : zero)
    z = ids{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, 0};
  gpu::vector<ids> out = gpu::copy(zero);
  auto k = pacxx::kernel(
      [](ids *out, std::size_t nx, std::size_t ny) {
        const auto t = pacxx::Thread::get();
        const auto b = pacxx::Block::get();
        const auto g = pacxx::Grid::get();
        ids &o = out[(t.global.z * ny + t.global.y) * nx + t.global.x];
        o.global[0] = t.global.x;
        o.global[1] = t.global.y;
        o.global[2] = t.global.z;
        o.local[0] = t.local.x;
        o.local[1] = t.local.y;
        o.local[2] = t.local.z;
        o.block_index[0] = b.index.x;
        o.block_index[1] = b.index.y;
        o.block_index[2] = b.index.z;
        o.block_size[0] = b.size.x;
        o.block_size[1] = b.size.y;
        o.block_size[2] = b.size.z;
        o.grid_size[0] = g.size.x;
        o.grid_size[1] = g.size.y;
        o.grid_size[2] = g.size.z;
        o.written += 1; // each slot is written by exactly one thread
      },
      {grid, block});
  k(out.data(), nx, ny);
  std::vector<ids> r = gpu::copy(out);
  const std::size_t bs[3] = {block.x, block.y, block.z}, gs[3] = {grid.x, grid.y, grid.z};
  std::size_t wrong = 0;
  for (std::size_t z = 0; z < nz; ++z)
    for (std::size_t y = 0; y < ny; ++y)
      for (std::size_t x = 0; x < nx; ++x) {
        const ids &o = r[(z * ny + y) * nx + x];
        const std::size_t g[3] = {x, y, z};
        bool ok = o.written == 1;
        for (int d = 0; d < 3; ++d) {
          ok = ok && o.global[d] == g[d] && o.local[d] == g[d] % bs[d] &&
               o.block_index[d] == g[d] / bs[d] && o.block_size[d] == bs[d] &&
               o.grid_size[d] == gs[d] &&
               // the defining identity, from the device's own numbers
               o.global[d] == o.block_index[d] * o.block_size[d] + o.local[d];
        }
        if (!ok && ++wrong <= 5)
          ADD_FAILURE() << "thread (" << x << "," << y << "," << z << "): written " << o.written
                        << ", global (" << o.global[0] << "," << o.global[1] << "," << o.global[2]
                        << "), local (" << o.local[0] << "," << o.local[1] << "," << o.local[2]
                        << "), block (" << o.block_index[0] << "," << o.block_index[1] << ","
                        << o.block_index[2] << ") of size (" << o.block_size[0] << ","
                        << o.block_size[1] << "," << o.block_size[2] << "), grid ("
                        << o.grid_size[0] << "," << o.grid_size[1] << "," << o.grid_size[2] << ")";
      }
  EXPECT_EQ(wrong, 0u);
}

TEST(ThreadIds, Grid3D) {
  check_ids({3, 4, 5}, {4, 2, 3});
  check_ids({2, 3, 7}, {5, 3, 2}); // nothing a power of two
}

TEST(ThreadIds, Grid2D) { check_ids({7, 3}, {16, 4}); }

TEST(ThreadIds, Grid1D) { check_ids({13}, {33}); }

TEST(ThreadIds, DegenerateDimensions) {
  check_ids({1, 1, 9}, {1, 1, 4}); // only z
  check_ids({1, 6, 1}, {1, 5, 1}); // only y
  check_ids({1}, {1});             // one thread
}

} // namespace
