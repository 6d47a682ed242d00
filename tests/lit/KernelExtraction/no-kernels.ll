; A unit without kernels and without device-capable external definitions is left as it
; was: no device module, no constructor.
; RUN: %pacxx_opt -passes='pacxx-kernel-extraction<print-device>' -S %s | FileCheck %s
; CHECK-NOT: pacxx_modules
; CHECK-NOT: __pacxx_register
; CHECK: define i32 @main()
; CHECK-NOT: pacxx_modules
; CHECK-NOT: __pacxx_register

define i32 @main() {
  ret i32 0
}
