// SPIR forbids recursion and PoCL's kernel compiler recursed without end on it
// (SIGSEGV): the JIT refuses a module that still recurses after optimisation, naming
// the function and the line of its definition (from !pacxx.source, which the offline
// compiler attaches before it drops the line tables). CUDA gets the call as it is.
// RUN: %pacxx_cxx -std=c++14 %S/../Inputs/recursion.cpp -o %t.exe
// RUN: rm -rf %t.dir && not %pacxx_kernels --spir %t.dir %t.exe 2>&1 | FileCheck %s
// RUN: rm -rf %t.ptx && %pacxx_kernels --ptx %t.ptx --arch sm_90 %t.exe
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx/kernel0.ptx

// CHECK: calls recursive device code, which OpenCL (SPIR) cannot run; recursive device code runs on CUDA
// CHECK-NEXT: fib(int) at {{.*}}recursion.cpp:4
// PTX: .func (.param .b32 func_retval0) [[FIB:[_A-Za-z0-9]+]](
// PTX: call.uni (retval0),
// PTX-NEXT: [[FIB]],
