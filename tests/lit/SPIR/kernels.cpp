// The JIT's SPIR lowering, as the OpenCL backend runs it (the recipe PoCL 3.1 accepts,
// see DESIGN.md), on a program built by pacxx++. With the staged value 8 the loop is
// fully unrolled: eight loads and no branch.
// RUN: %pacxx_cxx -std=c++14 %S/../Inputs/staged_sums.cpp -o %t.exe
// RUN: rm -rf %t.dir && %pacxx_kernels --spir %t.dir --staged 8 %t.exe
// RUN: FileCheck %s --check-prefix=SAXPY < %t.dir/kernel0.spir.ll
// RUN: FileCheck %s --check-prefix=SUMS < %t.dir/kernel1.spir.ll

// SAXPY: ; (lambda at {{.*}}staged_sums.cpp:9:17)
// SAXPY: target triple = "spir64-unknown-unknown"
// SAXPY: define spir_kernel void @pacxx_kernel({{.*}}) {{.*}}!kernel_arg_addr_space ![[AS:[0-9]+]] !kernel_arg_access_qual ![[AQ:[0-9]+]] !kernel_arg_type ![[T:[0-9]+]] !kernel_arg_base_type ![[T]] !kernel_arg_type_qual ![[Q:[0-9]+]] !kernel_arg_name ![[N:[0-9]+]]
// SAXPY: call spir_func i64 @_Z13get_global_idj(i32 0)
// SAXPY: call float @llvm.fmuladd.f32(float
// SAXPY-NOT: !opencl.kernels
// SUMS: define spir_kernel void @pacxx_kernel(
// SUMS-NOT: br
// SUMS-COUNT-8: load float
// SUMS-NOT: br
// SUMS: ret void
