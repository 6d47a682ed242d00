// Grey images in [0, 1] from and to PNG (libpng's simplified API; colour is converted
// to grey, alpha composed on white) and PGM (libnetpbm), chosen by the file's
// extension. Errors are std::runtime_error naming the file and the library's message.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace rof {

struct image {
  std::size_t width = 0, height = 0;
  std::vector<float> pixels; // row-major, values in [0, 1]
};

image read_image(const std::string &path);
// Values are clamped to [0, 1] and written with 8 bits.
void write_image(const std::string &path, const image &img);
// Bilinear resampling to width x height (pixel centres aligned).
image resize(const image &img, std::size_t width, std::size_t height);

} // namespace rof
