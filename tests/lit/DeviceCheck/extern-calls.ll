; Calls to functions this unit does not define are no error here: the device module
; records them (callee, location, kernel, notes) for the link-time check. pacxx builtins and C
; math are provided by the JIT and are not recorded.
; RUN: %pacxx_opt -passes='pacxx-kernel-extraction<print-device>' -disable-output %s | FileCheck %s
; CHECK: declare i64 @__pacxx_global_id(i32)
; CHECK: declare float @sinf(float)
; CHECK: declare float @elsewhere(float)
; CHECK: !pacxx.extern_calls = !{![[E:[0-9]+]]}
; CHECK: ![[E]] = !{!"elsewhere", !"", !"void pacxx::detail::kernel_entry<P>(P const&)", !""}

define linkonce_odr void @_ZN5pacxx6detail12kernel_entryI1PEEvRKT_(ptr dereferenceable(16) %p) {
  %i = call i64 @__pacxx_global_id(i32 0)
  %s = call float @sinf(float 1.0)
  %h = call float @elsewhere(float %s)
  store float %h, ptr %p
  ret void
}

declare i64 @__pacxx_global_id(i32)
declare float @sinf(float)
declare float @elsewhere(float)
