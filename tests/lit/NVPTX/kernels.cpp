// The JIT's NVPTX lowering, as the CUDA backend runs it, on a program built by pacxx++.
// With the staged value 8 (512 elements over 64 threads) the loop is fully unrolled:
// eight global loads and no branch back.
// RUN: %pacxx_cxx -std=c++14 %S/../Inputs/staged_sums.cpp -o %t.exe
// RUN: rm -rf %t.dir && %pacxx_kernels --ptx %t.dir --arch sm_90 --staged 8 %t.exe
// RUN: FileCheck %s --check-prefix=SAXPY < %t.dir/kernel0.ptx
// RUN: FileCheck %s --check-prefix=SAXPY-IR < %t.dir/kernel0.nvptx.ll
// RUN: FileCheck %s --check-prefix=SUMS < %t.dir/kernel1.ptx

// LLVM 15 targets at most sm_86 / PTX 7.5; the driver translates it for newer GPUs.
// SAXPY: // (lambda at {{.*}}staged_sums.cpp:9:17)
// SAXPY: .version 7.5
// SAXPY: .target sm_86
// SAXPY: .address_size 64
// SAXPY: .visible .entry pacxx_kernel(
// SAXPY-DAG: mov.u32 %r{{[0-9]+}}, %ctaid.x;
// SAXPY-DAG: mov.u32 %r{{[0-9]+}}, %ntid.x;
// SAXPY-DAG: mov.u32 %r{{[0-9]+}}, %tid.x;
// SAXPY: fma.rn.f32
// SAXPY: st.global.f32

// SAXPY-IR: target triple = "nvptx64-nvidia-cuda"
// SAXPY-IR: define void @pacxx_kernel(
// SAXPY-IR: !nvvm.annotations = !{![[A:[0-9]+]]}
// SAXPY-IR: ![[A]] = !{ptr @pacxx_kernel, !"kernel", i32 1}

// SUMS: .visible .entry pacxx_kernel(
// SUMS-NOT: bra
// SUMS-COUNT-8: ld.global{{(.nc)?}}.f32
// SUMS-NOT: bra
// SUMS: ret;
