// What the CPU can run, asked once: the scanners pick their AVX2 variant at run time, so one
// binary runs everywhere and uses 32-byte compares where it can.
#ifndef NCCLSCOPE_BASE_CPU_FEATURES_H_
#define NCCLSCOPE_BASE_CPU_FEATURES_H_

#if defined(__x86_64__) && defined(__GNUC__)
/// Defined where AVX2 variants can be compiled (x86-64 with GCC or Clang).
#define NCCLSCOPE_HAVE_AVX2 1
#endif

namespace ncclscope {

/// True if the CPU runs AVX2 (always false where NCCLSCOPE_HAVE_AVX2 is not defined).
inline bool CpuHasAvx2() {
#if defined(NCCLSCOPE_HAVE_AVX2)
  static const bool has = __builtin_cpu_supports("avx2");
  return has;
#else
  return false;
#endif
}

}  // namespace ncclscope

#endif  // NCCLSCOPE_BASE_CPU_FEATURES_H_
