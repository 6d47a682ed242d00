// Whole-file reads and writes for the cache tests (unit and fuzz).
#pragma once
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace pacxx_test {

inline std::string read_file(const std::filesystem::path &p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

inline void write_file(const std::filesystem::path &p, const std::string &bytes) {
  std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes;
}

} // namespace pacxx_test
