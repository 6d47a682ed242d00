// make_target: the one switch over rt::ir_target in the JIT.
#include "jit/target.hpp"

#include "pacxx/error.hpp"

namespace pacxx {
namespace jit {

std::unique_ptr<target> make_target(rt::ir_target t, const std::string &arch) {
  switch (t) {
  case rt::ir_target::nvptx:
    return make_nvptx_target(arch);
  case rt::ir_target::spir:
    return make_spir_target();
  }
  throw error("pacxx: internal error: unknown IR target " + std::to_string(static_cast<int>(t)));
}

} // namespace jit
} // namespace pacxx
