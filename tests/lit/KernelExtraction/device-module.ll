; The device module holds each kernel entry and what it reaches, cleaned of host
; attributes; the host keeps the entry only as an address (a trap), loses the code only
; kernels reached, and registers the embedded module from a constructor.
; RUN: %pacxx_opt -passes='pacxx-kernel-extraction<print-device>' -S -o %t.host.ll %s \
; RUN:   | FileCheck %s --check-prefix=DEVICE
; RUN: FileCheck %s --check-prefix=HOST < %t.host.ll

; DEVICE-NOT: @launch
; DEVICE-LABEL: define linkonce_odr void @_ZN5pacxx6detail12kernel_entryI1PEEvRKT_(ptr
; DEVICE-SAME: align 8 dereferenceable(16)
; DEVICE-NOT: comdat
; DEVICE-SAME: #[[ATTRS:[0-9]+]]
; DEVICE: call void @helper(ptr %p)
; DEVICE-LABEL: define internal void @helper(
; DEVICE: call i64 @__pacxx_global_id(i32 0)
; External definitions that can run on a device are offered to other units' kernels.
; DEVICE-LABEL: define float @exported(
; DEVICE: attributes #[[ATTRS]] = {
; DEVICE-NOT: target-cpu
; DEVICE-NOT: optnone
; DEVICE-NOT: uwtable
; DEVICE-SAME: }
; The kernel's name, argument size and alignment, and its display name (here, with no
; payload<...> to take the user's callable from, the demangled entry).
; DEVICE: !pacxx.kernels = !{![[K:[0-9]+]]}
; DEVICE: ![[K]] = !{!"_ZN5pacxx6detail12kernel_entryI1PEEvRKT_", i64 16, i64 8, !"void pacxx::detail::kernel_entry<P>(P const&)"}

; HOST: @__pacxx_device_module = private constant { i32, i32, i64, [{{[0-9]+}} x i8] } { i32 1296324688, i32 3, i64 {{[0-9]+}}, {{.*}} section "pacxx_modules", align 8
; HOST: @__pacxx_kernel_table = private constant [1 x { ptr, ptr, ptr, i64 }] [{ ptr, ptr, ptr, i64 } { ptr @_ZN5pacxx6detail12kernel_entryI1PEEvRKT_, ptr @__pacxx_kernel_name, ptr null, i64 0 }]
; HOST: @llvm.global_ctors = appending global {{.*}} { i32 101, ptr @__pacxx_register, ptr null }
; HOST-NOT: define {{.*}} @helper
; HOST-LABEL: define linkonce_odr void @_ZN5pacxx6detail12kernel_entryI1PEEvRKT_(
; HOST-NEXT: call void @llvm.trap()
; HOST-NEXT: unreachable
; HOST-LABEL: define float @exported(
; HOST-LABEL: define internal void @__pacxx_register()
; HOST-NEXT: call void @__pacxx_register_module(ptr @__pacxx_device_module, ptr @__pacxx_kernel_table, i64 1)

$_ZN5pacxx6detail12kernel_entryI1PEEvRKT_ = comdat any

define linkonce_odr void @_ZN5pacxx6detail12kernel_entryI1PEEvRKT_(ptr noundef nonnull align 8 dereferenceable(16) %p) #0 comdat {
  call void @helper(ptr %p)
  ret void
}

define internal void @helper(ptr %p) #0 {
  %i = call i64 @__pacxx_global_id(i32 0)
  store i64 %i, ptr %p
  ret void
}

declare i64 @__pacxx_global_id(i32)

define internal void @launch() {
  call void @use(ptr @_ZN5pacxx6detail12kernel_entryI1PEEvRKT_)
  ret void
}

declare void @use(ptr)

define float @exported(float %x) {
  %y = fmul float %x, 2.0
  ret float %y
}

attributes #0 = { noinline nounwind optnone uwtable "frame-pointer"="all" "target-cpu"="x86-64" "target-features"="+sse2" }
