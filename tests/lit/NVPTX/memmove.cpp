// memmove within a stack array (issue 34): every byte of the move is loaded and stored
// in the local address space. LLVM 15's own expansion stored through the local
// address as if it were generic (ld.u8 / st.u8 without cvta.local):
// CUDA_ERROR_ILLEGAL_ADDRESS on the H100. The JIT expands memmove on generic pointers
// before code generation (expand_memmoves in runtime/jit/nvptx/nvptx.cpp).
// RUN: %pacxx_cxx -std=c++14 %S/../Inputs/local_memmove.cpp -o %t.exe
// RUN: rm -rf %t.dir && %pacxx_kernels --ptx %t.dir --arch sm_90 %t.exe
// RUN: FileCheck %s < %t.dir/kernel0.ptx
// RUN: FileCheck %s --check-prefix=IR < %t.dir/kernel0.nvptx.ll

// CHECK: .visible .entry pacxx_kernel(
// CHECK-NOT: {{^[[:space:]]*(ld|st)\.u8}}
// CHECK: ld.local.u8
// CHECK-NOT: {{^[[:space:]]*(ld|st)\.u8}}
// CHECK: st.local.u8
// CHECK-NOT: {{^[[:space:]]*(ld|st)\.u8}}
// CHECK: st.global.u32
// CHECK-NOT: {{^[[:space:]]*(ld|st)\.u8}}
// CHECK: ret;

// The dumped IR is after the expansion: no memmove is left for the code generator.
// IR: define void @pacxx_kernel(
// IR-NOT: @llvm.memmove
