# lit configuration of pacxx's compiler tests, run as LLVM runs its own: each test is a
# .ll or .cpp file whose RUN lines pipe a stage of the compiler into FileCheck.
# The paths of the tools come from lit.site.cfg.py, which CMake writes into the build.
import os

import lit.formats

config.name = 'pacxx'
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = ['.ll', '.cpp']
config.excludes = ['Inputs']
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = config.pacxx_obj_root

# FileCheck, not, count, split-file: Debian's llvm-15-tools, in LLVM's tool directory.
config.environment['PATH'] = os.pathsep.join([config.llvm_tools_dir, config.environment['PATH']])
# Kernels lowered by pacxx-kernels never touch a device or the disk cache.
config.environment['PACXX_CACHE'] = '0'

# Longest names first: lit substitutes regular expressions in order.
config.substitutions += [
    # The pass by name, as in pacxx++ but without clang: opt on IR.
    ('%pacxx_opt', '%s -load-pass-plugin=%s' % (config.opt, config.plugin)),
    # The IR that clang hands the plugin at pipeline start (what pacxx++ -O2 runs the
    # pass on): the front end's output before any LLVM pass, with line tables for
    # diagnostics as pacxx++ adds them.
    ('%device_cxxflags', '-std=c++14 -I%s -O2 -Xclang -disable-llvm-passes -gline-tables-only '
                         '-S -emit-llvm' % config.pacxx_include_dir),
    ('%pacxx_kernels', config.pacxx_kernels),
    ('%pacxx_cxx', config.pacxx_cxx),
    ('%clangxx', config.clangxx),
]
if config.ptxas:
    config.available_features.add('ptxas')
    config.substitutions.append(('%ptxas', config.ptxas))
