; The pass's switches are pass options; an unknown one is an error that names them.
; RUN: %pacxx_opt -passes='pacxx-kernel-extraction<strip-debug>' -S %s | FileCheck %s --check-prefix=STRIP
; RUN: %pacxx_opt -passes='pacxx-kernel-extraction<no-strip-debug>' -S %s | FileCheck %s --check-prefix=KEEP
; The driver's environment switch is the default; an option overrides it.
; RUN: env PACXX_STRIP_DEBUG=1 %pacxx_opt -passes=pacxx-kernel-extraction -S %s | FileCheck %s --check-prefix=STRIP
; RUN: env PACXX_STRIP_DEBUG=1 %pacxx_opt -passes='pacxx-kernel-extraction<no-strip-debug>' -S %s \
; RUN:   | FileCheck %s --check-prefix=KEEP
; RUN: not %pacxx_opt -passes='pacxx-kernel-extraction<bogus>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=BAD
; The environment follows the runtime's rule (support/environment.hpp): a switch is 0 or
; 1, unset or empty is the default, anything else is an error naming the variable and
; the accepted values; every malformed variable is reported at once.
; RUN: env PACXX_STRIP_DEBUG=0 %pacxx_opt -passes=pacxx-kernel-extraction -S %s \
; RUN:   | FileCheck %s --check-prefix=KEEP
; RUN: env PACXX_STRIP_DEBUG= %pacxx_opt -passes=pacxx-kernel-extraction -S %s \
; RUN:   | FileCheck %s --check-prefix=KEEP
; RUN: env PACXX_STRIP_DEBUG=yes PACXX_DEBUG_STAGING=2 not %pacxx_opt \
; RUN:   -passes=pacxx-kernel-extraction -disable-output %s 2>&1 | FileCheck %s --check-prefix=BADENV
; RUN: env PACXX_STRIP_DEBUG=yes not %pacxx_opt -passes='pacxx-kernel-extraction<strip-debug>' \
; RUN:   -disable-output %s 2>&1 | FileCheck %s --check-prefix=BADENV1

; STRIP-NOT: !dbg
; STRIP-NOT: DICompileUnit
; KEEP: define i32 @host(){{.*}} !dbg
; KEEP: DICompileUnit
; BAD: invalid pacxx-kernel-extraction option 'bogus' (use strip-debug, no-strip-debug, print-device)
; BADENV: error: pacxx: PACXX_STRIP_DEBUG=yes is not a switch; use 0 (off) or 1 (on)
; BADENV-NEXT: pacxx: PACXX_DEBUG_STAGING=2 is not a switch; use 0 (off) or 1 (on)
; BADENV1: error: pacxx: PACXX_STRIP_DEBUG=yes is not a switch; use 0 (off) or 1 (on)

define linkonce_odr void @_ZN5pacxx6detail12kernel_entryI1PEEvRKT_(ptr dereferenceable(8) %p) {
  ret void
}

define i32 @host() !dbg !5 {
  ret i32 0, !dbg !7
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "clang", emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "host.cpp", directory: "/tmp")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "host", scope: !1, file: !1, line: 3, type: !6, scopeLine: 3, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !{})
!7 = !DILocation(line: 4, column: 3, scope: !5)
