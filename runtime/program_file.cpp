// Reading the device modules out of a program file (executable, shared library or
// object) built by pacxx++: for the link-time check and for offline PTX.
#include "runtime.hpp"

#include "jit/jit.hpp"
#include "pacxx/detail/abi.hpp"
#include "pacxx/error.hpp"

#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Error.h"

#include <cstring>
#include <filesystem>
#include <fstream>

using namespace llvm;

namespace pacxx {
namespace rt {
namespace {

// The program's device modules. Keeps the file open: the program refers into it.
struct program_file {
  object::OwningBinary<object::ObjectFile> binary;
  std::string section; // contents of all pacxx_modules sections
  jit::program program;

  explicit program_file(const std::string &path) {
    Expected<object::OwningBinary<object::ObjectFile>> o =
        object::ObjectFile::createObjectFile(path);
    if (!o)
      throw error("pacxx: cannot read " + path + ": " + toString(o.takeError()));
    binary = std::move(*o);
    for (const object::SectionRef &s : binary.getBinary()->sections()) {
      Expected<StringRef> name = s.getName();
      if (!name || *name != abi::section_name)
        continue;
      Expected<StringRef> data = s.getContents();
      if (!data)
        throw error("pacxx: cannot read section of " + path + ": " + toString(data.takeError()));
      section += data->str();
    }
    // The linker concatenates the units' records, padding between them with zeros.
    std::size_t at = 0;
    while (at + sizeof(abi::module_header) <= section.size()) {
      abi::module_header h;
      std::memcpy(&h, section.data() + at, sizeof h);
      if (h.magic != abi::module_magic) {
        at += 8;
        continue;
      }
      if (h.version != abi::module_version)
        throw error("pacxx: " + path + " holds device modules of another pacxx version");
      program.add(section.data() + at + sizeof h, h.size);
      at += sizeof h + (h.size + 7) / 8 * 8;
    }
  }
};

} // namespace

std::vector<program_kernel> list_kernels(const std::string &path) {
  program_file f(path);
  std::vector<program_kernel> out;
  for (std::size_t m = 0; m < f.program.size(); ++m)
    for (const jit::kernel_info &k : f.program.kernels(m))
      out.push_back({k.entry, k.display});
  return out;
}

std::string check_links(const std::string &path) {
  program_file f(path);
  return jit::describe_link_problems(f.program.check());
}

std::vector<std::string> emit_kernels(const std::string &path, const std::string &dir,
                                      ir_target target, const std::string &arch,
                                      const std::vector<std::uint64_t> *staged, bool unroll) {
  program_file f(path);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    throw error("pacxx: cannot create " + dir + ": " + ec.message());
  auto write = [](const std::string &file, const std::string &display, const std::string &text) {
    std::ofstream out(file);
    out << "; " << display << "\n" << text;
    if (!out)
      throw error("pacxx: cannot write " + file);
  };
  std::vector<std::string> files;
  for (std::size_t m = 0; m < f.program.size(); ++m)
    for (const jit::kernel_info &k : f.program.kernels(m)) {
      jit::compiled_kernel c = jit::compile(f.program, m, k.entry, target, arch, staged, unroll);
      std::string base = dir + "/kernel" + std::to_string(files.size());
      if (target == ir_target::nvptx) {
        write(base + ".nvptx.ll", k.display, c.ir);
        // PTX comments start with //, and ptxas reads this file.
        std::ofstream out(base + ".ptx");
        out << "// " << k.display << "\n" << c.code;
        if (!out)
          throw error("pacxx: cannot write " + base + ".ptx");
        files.push_back(base + ".ptx");
      } else {
        write(base + ".spir.ll", k.display, c.ir);
        files.push_back(base + ".spir.ll");
      }
    }
  return files;
}

} // namespace rt
} // namespace pacxx
