// Runtime internals shared by libpacxx's parts and its tools (pacxx-info,
// pacxx-kernels). Not a user header.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "backends/backend.hpp"

namespace pacxx {
namespace rt {

struct device_description {
  std::string id; // "cuda:0", "opencl:1"
  std::string name, arch, driver;
  std::size_t memory_bytes;
};

// Every device on this machine, and one note per backend that offers none.
std::vector<device_description> describe_devices(std::vector<std::string> &notes);
// The device PACXX_DEVICE selects (or the default), as pacxx-info reports it.
std::string selected_device_id();
// The settings from the PACXX_* variables, one per line, as pacxx-info reports them;
// throws pacxx::error, listing every malformed variable, as the first launch would.
std::string describe_configuration();

struct configuration; // config.hpp
// The checked configuration of this process (throws its pacxx::error if malformed) and
// the selected device, for the runtime's parts outside runtime.cpp (tune/).
const configuration &current_configuration();
device &current_device();

// Tools over a program file built by pacxx++ (reads its device modules).
struct program_kernel {
  std::string entry, display;
};
std::vector<program_kernel> list_kernels(const std::string &path);
// Compiler-style lines for every kernel call whose body is in no device module ("" if none).
std::string check_links(const std::string &path);
// Lowers every kernel as the JIT would for a device of `target` (architecture e.g.
// "sm_90"; ignored for SPIR) and writes <dir>/kernel<n>.ptx (NVPTX only) and its final
// LLVM IR, <dir>/kernel<n>.nvptx.ll or .spir.ll; returns the PTX files for NVPTX, the IR
// files for SPIR. `staged` holds the values of the kernels' pacxx::stage calls (raw bits,
// in id order) or is null for unstaged code, as with PACXX_STAGING=0. unroll false: no
// loop unrolled, as with PACXX_UNROLL=0.
std::vector<std::string> emit_kernels(const std::string &path, const std::string &dir,
                                      ir_target target, const std::string &arch,
                                      const std::vector<std::uint64_t> *staged, bool unroll = true);

} // namespace rt
} // namespace pacxx
