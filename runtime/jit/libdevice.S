// NVIDIA's libdevice (math for NVPTX), embedded so programs need no CUDA toolkit.
  .section .rodata
  .balign 16
  .globl pacxx_libdevice_begin
  .hidden pacxx_libdevice_begin
pacxx_libdevice_begin:
#ifdef PACXX_LIBDEVICE
  .incbin PACXX_LIBDEVICE
#endif
  .globl pacxx_libdevice_end
  .hidden pacxx_libdevice_end
pacxx_libdevice_end:
  .section .note.GNU-stack,"",@progbits
