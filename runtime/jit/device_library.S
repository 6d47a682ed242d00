// The JIT's device library (jit/device_library/*.cpp as x86-64 LLVM bitcode, built by
// runtime/CMakeLists.txt), embedded as libdevice is (libdevice.S).
  .section .rodata
  .balign 16
  .globl pacxx_device_library_begin
  .hidden pacxx_device_library_begin
pacxx_device_library_begin:
#ifdef PACXX_DEVICE_LIBRARY
  .incbin PACXX_DEVICE_LIBRARY
#endif
  .globl pacxx_device_library_end
  .hidden pacxx_device_library_end
pacxx_device_library_end:
  .section .note.GNU-stack,"",@progbits
