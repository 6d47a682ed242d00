// PNG through libpng (simplified API), PGM through libnetpbm.
#include "image_io.hpp"

#include <algorithm>
#include <cerrno>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>

#include <png.h>
extern "C" {
#include <netpbm/pgm.h>
}

namespace rof {
namespace {

bool ends_with(const std::string &s, const char *suffix) {
  const std::size_t n = std::strlen(suffix);
  if (s.size() < n)
    return false;
  std::string tail = s.substr(s.size() - n);
  std::transform(tail.begin(), tail.end(), tail.begin(), [](unsigned char c) {
    return static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  });
  return tail == suffix;
}

[[noreturn]] void fail(const std::string &path, const std::string &what) {
  throw std::runtime_error(path + ": " + what);
}

image read_png(const std::string &path) {
  png_image png;
  std::memset(&png, 0, sizeof png);
  png.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&png, path.c_str()))
    fail(path, png.message);
  png.format = PNG_FORMAT_GRAY;
  std::vector<png_byte> buf(PNG_IMAGE_SIZE(png));
  const png_color white = {255, 255, 255};
  if (!png_image_finish_read(&png, &white, buf.data(), 0, nullptr))
    fail(path, png.message); // finish_read frees the image's state on failure too
  image img;
  img.width = png.width;
  img.height = png.height;
  img.pixels.resize(buf.size());
  for (std::size_t i = 0; i < buf.size(); ++i)
    img.pixels[i] = buf[i] / 255.f;
  return img;
}

void write_png(const std::string &path, const std::vector<png_byte> &buf, std::size_t w,
               std::size_t h) {
  png_image png;
  std::memset(&png, 0, sizeof png);
  png.version = PNG_IMAGE_VERSION;
  png.width = static_cast<png_uint_32>(w);
  png.height = static_cast<png_uint_32>(h);
  png.format = PNG_FORMAT_GRAY;
  if (!png_image_write_to_file(&png, path.c_str(), 0, buf.data(), 0, nullptr))
    fail(path, png.message);
}

struct file_closer {
  void operator()(std::FILE *f) const { std::fclose(f); }
};
using file = std::unique_ptr<std::FILE, file_closer>;

// libnetpbm reports errors through pm_error, which exits unless a jump buffer is set:
// these run one libnetpbm call each with a jump buffer, holding nothing that needs a
// destructor across the call, and report failure by return value.
bool pgm_read_header(std::FILE *f, int *cols, int *rows, gray *maxval, int *format) {
  std::jmp_buf jb, *old = nullptr;
  pm_setjmpbufsave(&jb, &old);
  if (setjmp(jb) != 0) {
    pm_setjmpbuf(old);
    return false;
  }
  pgm_readpgminit(f, cols, rows, maxval, format);
  pm_setjmpbuf(old);
  return true;
}
bool pgm_read_row(std::FILE *f, gray *row, int cols, gray maxval, int format) {
  std::jmp_buf jb, *old = nullptr;
  pm_setjmpbufsave(&jb, &old);
  if (setjmp(jb) != 0) {
    pm_setjmpbuf(old);
    return false;
  }
  pgm_readpgmrow(f, row, cols, maxval, format);
  pm_setjmpbuf(old);
  return true;
}
bool pgm_write(std::FILE *f, gray **rows, int cols, int nrows) {
  std::jmp_buf jb, *old = nullptr;
  pm_setjmpbufsave(&jb, &old);
  if (setjmp(jb) != 0) {
    pm_setjmpbuf(old);
    return false;
  }
  pgm_writepgm(f, rows, cols, nrows, 255, 0);
  pm_setjmpbuf(old);
  return true;
}

// libnetpbm names the program in its messages.
void init_netpbm() {
  static const bool done = (pm_init("rof", 0), true);
  (void)done;
}

image read_pgm(const std::string &path) {
  init_netpbm();
  file f(std::fopen(path.c_str(), "rb"));
  if (!f)
    fail(path, std::strerror(errno));
  int cols = 0, rows = 0, format = 0;
  gray maxval = 0;
  if (!pgm_read_header(f.get(), &cols, &rows, &maxval, &format))
    fail(path, "not a PGM file (libnetpbm)");
  image img;
  img.width = static_cast<std::size_t>(cols);
  img.height = static_cast<std::size_t>(rows);
  img.pixels.resize(img.width * img.height);
  std::vector<gray> row(img.width);
  for (int y = 0; y < rows; ++y) {
    if (!pgm_read_row(f.get(), row.data(), cols, maxval, format))
      fail(path, "truncated or bad PGM data (libnetpbm)");
    for (int x = 0; x < cols; ++x)
      img.pixels[static_cast<std::size_t>(y) * img.width + x] =
          static_cast<float>(row[x]) / static_cast<float>(maxval);
  }
  return img;
}

void write_pgm(const std::string &path, const std::vector<png_byte> &buf, std::size_t w,
               std::size_t h) {
  init_netpbm();
  std::vector<gray> data(buf.begin(), buf.end());
  std::vector<gray *> rows(h);
  for (std::size_t y = 0; y < h; ++y)
    rows[y] = data.data() + y * w;
  file f(std::fopen(path.c_str(), "wb"));
  if (!f)
    fail(path, std::strerror(errno));
  if (!pgm_write(f.get(), rows.data(), static_cast<int>(w), static_cast<int>(h)))
    fail(path, "cannot write PGM (libnetpbm)");
  if (std::fflush(f.get()) != 0)
    fail(path, std::strerror(errno));
}

} // namespace

image read_image(const std::string &path) {
  if (ends_with(path, ".png"))
    return read_png(path);
  if (ends_with(path, ".pgm"))
    return read_pgm(path);
  fail(path, "unknown image format (expected .png or .pgm)");
}

void write_image(const std::string &path, const image &img) {
  std::vector<png_byte> buf(img.pixels.size());
  for (std::size_t i = 0; i < buf.size(); ++i)
    buf[i] = static_cast<png_byte>(std::min(1.f, std::max(0.f, img.pixels[i])) * 255.f + 0.5f);
  if (ends_with(path, ".png"))
    return write_png(path, buf, img.width, img.height);
  if (ends_with(path, ".pgm"))
    return write_pgm(path, buf, img.width, img.height);
  fail(path, "unknown image format (expected .png or .pgm)");
}

image resize(const image &in, std::size_t width, std::size_t height) {
  image out;
  out.width = width;
  out.height = height;
  out.pixels.resize(width * height);
  auto at = [&](std::size_t x, std::size_t y) { return in.pixels[y * in.width + x]; };
  for (std::size_t y = 0; y < height; ++y) {
    const float sy = std::min(std::max((y + 0.5f) * in.height / height - 0.5f, 0.f),
                              static_cast<float>(in.height - 1));
    const std::size_t y0 = static_cast<std::size_t>(sy), y1 = std::min(y0 + 1, in.height - 1);
    const float fy = sy - y0;
    for (std::size_t x = 0; x < width; ++x) {
      const float sx = std::min(std::max((x + 0.5f) * in.width / width - 0.5f, 0.f),
                                static_cast<float>(in.width - 1));
      const std::size_t x0 = static_cast<std::size_t>(sx), x1 = std::min(x0 + 1, in.width - 1);
      const float fx = sx - x0;
      out.pixels[y * width + x] = (1 - fy) * ((1 - fx) * at(x0, y0) + fx * at(x1, y0)) +
                                  fy * ((1 - fx) * at(x0, y1) + fx * at(x1, y1));
    }
  }
  return out;
}

} // namespace rof
