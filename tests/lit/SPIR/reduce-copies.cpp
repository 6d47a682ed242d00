// The reductions' tile loop on a target whose warp is one work-item (PoCL) folds its
// items in a loop, so an element function with loops is in the kernel a few times
// (first load, first tile, later tiles, partial tile), not 3 * items + 1 times as the
// unrolled packs for CUDA put it: PoCL's kernel compiler took 22-62 s on such a kernel
// (2 cores, issue 34), 4.6 s with the loop. Counted as the loops left after O3: 8 here
// (the element function's outer loop in four copies and the four fold loops; its inner
// loops are unrolled), 18 in the NVPTX kernel of the same program.
// RUN: %pacxx_cxx -std=c++14 %S/../Inputs/transform_reduce_loops.cpp -o %t.exe
// RUN: rm -rf %t.dir && %pacxx_kernels --spir %t.dir --staged 1 %t.exe
// RUN: grep -c "br i1 .*!llvm.loop" %t.dir/kernel1.spir.ll | FileCheck %s

// CHECK: {{^[1-9]$}}
