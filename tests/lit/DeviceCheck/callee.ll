; Everything a kernel reaches is checked: an error in a callee names the callee, and is
; located at its line (from the function's debug information when the instruction has
; none). Cleanup landing pads (destructors on unwinding) are no error; the pass stops
; before writing a device module.
; RUN: not %pacxx_opt -passes='pacxx-kernel-extraction<print-device>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s
; CHECK: helper.cpp:7: error: pacxx: kernel 'void pacxx::detail::kernel_entry<P>(P const&)' calls through a function pointer in 'helper'
; CHECK-NOT: pacxx.kernels
; CHECK: error: pacxx: 1 construct(s) in kernel code cannot run on a GPU

declare i32 @__gxx_personality_v0(...)
declare void @may_throw()
declare void @destroy(ptr)

define linkonce_odr void @_ZN5pacxx6detail12kernel_entryI1PEEvRKT_(ptr dereferenceable(16) %p) personality ptr @__gxx_personality_v0 {
  invoke void @may_throw() to label %ok unwind label %pad
ok:
  call void @helper(ptr %p)
  ret void
pad:
  %lp = landingpad { ptr, i32 } cleanup
  call void @destroy(ptr %p)
  resume { ptr, i32 } %lp
}

define internal void @helper(ptr %p) !dbg !5 {
  %f = load ptr, ptr %p
  call void %f()
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "clang", emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "helper.cpp", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "helper", scope: !1, file: !1, line: 7, type: !6, scopeLine: 7, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !{})
