// What the runtime keeps of a compiled kernel in the disk cache: the argument layout
// the launch must match, the name for messages and errors, and the device binary.
// Separate from runtime.cpp so that the reader can be tested (and fuzzed) without a
// device or LLVM.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pacxx::rt {

struct kernel_entry {
  std::uint64_t args_size = 0, args_align = 1;
  std::string display; // "(lambda at file.cpp:12:7)"
  std::string binary;  // what device::build_binary() returned
  bool operator==(const kernel_entry &o) const {
    return args_size == o.args_size && args_align == o.args_align && display == o.display &&
           binary == o.binary;
  }
};

// Layout, little-endian: u64 args_size, u64 args_align, u64 display size, display,
// binary (the rest). The disk cache's envelope already checks size, checksum and key.
std::string pack_kernel_entry(const kernel_entry &e);

// The entry in `bytes`, or nullopt with the reason in *why: too short, a display size
// beyond the data, an alignment that is not a power of two up to 4096, an argument
// size beyond the bound below, no binary.
std::optional<kernel_entry> unpack_kernel_entry(std::string_view bytes, std::string *why = nullptr);

// Kernel argument blocks are a closure and its arguments: far below this (CUDA allows
// 32 KiB of parameters); anything larger is not an entry we wrote.
constexpr std::uint64_t max_kernel_args_bytes = std::uint64_t{1} << 20;

} // namespace pacxx::rt
