// pacxx::stage(v) becomes a placeholder __pacxx_staged_<type>(id, v) in the device
// module and a host stub that recomputes v from the launch's argument bytes and its
// configuration (grid {x,y,z}, then block {x,y,z}, 8 bytes each).
// RUN: %clangxx %device_cxxflags %s -o %t.ll
// RUN: %pacxx_opt -passes='pacxx-kernel-extraction<print-device>' -S -o %t.host.ll %t.ll \
// RUN:   | FileCheck %s --check-prefix=DEVICE
// RUN: FileCheck %s --check-prefix=HOST < %t.host.ll
#include <pacxx/pacxx.hpp>

void launch(float *o, int k, std::size_t n) {
  pacxx::kernel([](float *o, int k, std::size_t n) {
    const std::size_t per = pacxx::stage(n / pacxx::Block::get().size.x);
    const float scale = pacxx::stage(k * 0.5f);
    for (std::size_t i = 0; i < per; ++i)
      o[pacxx::Thread::get().global.x * per + i] *= scale;
  }, {{4}, {32}})(o, k, n);
}

// Inside the kernel entry (the C++ stage() wrappers stay in the module, unused):
// DEVICE-LABEL: define {{.*}}void @"_ZN5pacxx6detail12kernel_entry
// DEVICE-NOT: @__pacxx_stage_
// DEVICE: call i64 @__pacxx_staged_int(i32 0, i64 %{{.*}})
// DEVICE-NOT: @__pacxx_stage_
// DEVICE: call float @__pacxx_staged_float(i32 1, float %{{.*}})
// DEVICE-NOT: @__pacxx_stage_
// DEVICE: {{^}}}

// The stubs are listed with the kernel, in id order.
// HOST: @__pacxx_stage_stubs = private constant [2 x ptr] [ptr @__pacxx_stage_stub.0, ptr @__pacxx_stage_stub.1]
// HOST: @__pacxx_kernel_table = {{.*}} ptr @__pacxx_stage_stubs, i64 2 }
// Stub 0: n (an argument in the payload) divided by the block size (config offset 24).
// HOST-LABEL: define internal i64 @__pacxx_stage_stub.0(ptr %0, ptr %1)
// HOST: getelementptr inbounds %"struct.pacxx::detail::payload", ptr %0
// HOST: load i64
// HOST: getelementptr i8, ptr %1, i64 24
// HOST: udiv i64
// HOST: ret i64
// Stub 1: k * 0.5f, returned as the float's bits.
// HOST-LABEL: define internal i64 @__pacxx_stage_stub.1(ptr %0, ptr %1)
// HOST: getelementptr inbounds %"struct.pacxx::detail::payload", ptr %0
// HOST: load i32
// HOST: fmul float {{.*}}, 5.000000e-01
// HOST: bitcast float {{.*}} to i32
// HOST: zext i32 {{.*}} to i64
