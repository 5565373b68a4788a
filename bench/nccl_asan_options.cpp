// Sanitized CUDA builds only: the CUDA driver maps memory in ASan's shadow gap, so ASan must not
// protect it. Compiled into every executable that links the NCCL backend (an INTERFACE source).
extern "C" const char* __asan_default_options() {
  return "protect_shadow_gap=0";
}
