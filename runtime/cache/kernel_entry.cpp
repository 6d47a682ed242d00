// Packing of disk cache entries for compiled kernels (see kernel_entry.hpp).
#include "cache/kernel_entry.hpp"

namespace pacxx::rt {
namespace {

void put64(std::string &s, std::uint64_t v) {
  for (int i = 0; i < 8; ++i)
    s += static_cast<char>(v >> (8 * i));
}

std::uint64_t get64(std::string_view s, std::size_t at) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i)
    v = (v << 8) | static_cast<unsigned char>(s[at + static_cast<std::size_t>(i)]);
  return v;
}

} // namespace

std::string pack_kernel_entry(const kernel_entry &e) {
  std::string s;
  s.reserve(24 + e.display.size() + e.binary.size());
  put64(s, e.args_size);
  put64(s, e.args_align);
  put64(s, e.display.size());
  s += e.display;
  s += e.binary;
  return s;
}

std::optional<kernel_entry> unpack_kernel_entry(std::string_view bytes, std::string *why) {
  auto fail = [why](const char *reason) -> std::optional<kernel_entry> {
    if (why)
      *why = reason;
    return std::nullopt;
  };
  constexpr std::size_t header = 24;
  if (bytes.size() < header)
    return fail("kernel entry shorter than its header");
  kernel_entry e;
  e.args_size = get64(bytes, 0);
  e.args_align = get64(bytes, 8);
  const std::uint64_t display = get64(bytes, 16);
  // Compared against what is left, never added to an offset: a huge size cannot wrap.
  if (display > bytes.size() - header)
    return fail("kernel entry's name runs past its end");
  if (e.args_align == 0 || e.args_align > 4096 || (e.args_align & (e.args_align - 1)) != 0)
    return fail("kernel entry's argument alignment is not a power of two up to 4096");
  if (e.args_size > max_kernel_args_bytes)
    return fail("kernel entry's argument size is implausibly large");
  if (bytes.size() - header - display == 0)
    return fail("kernel entry has no binary");
  e.display = std::string(bytes.substr(header, display));
  e.binary = std::string(bytes.substr(header + display));
  return e;
}

} // namespace pacxx::rt
