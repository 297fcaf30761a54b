#if canImport(Glibc)
  import Glibc
#endif

/// What the `flt` process asks of its C library's allocator.
enum Allocator {
  /// Asks glibc's `malloc` to serve blocks of up to 32 MiB from its heap and to keep up to
  /// 64 MiB freed at the heap's top, rather than give each back to the system at once. A
  /// reader takes a new buffer for each 4 MiB block it reads; by default glibc handed most of
  /// them back and took them again as new pages, which the system zeroes: 60% of a load's
  /// page faults (a million phones: 26,700 faults -> 12,800, the load 238-247 -> 228-230 ms,
  /// peak memory 73-78 -> 70 MB). Memory past 64 MiB freed, and every block over 32 MiB (a
  /// column of tens of millions of rows), still goes back.
  ///
  /// For the executable only: a library does not set its host's allocator (an embedder may
  /// set the same, `MALLOC_MMAP_THRESHOLD_` and `MALLOC_TRIM_THRESHOLD_` in the environment).
  /// Nothing where the C library is not glibc (it has no `mallopt`).
  static func keepFreedMemory() {
    #if canImport(Glibc)
      guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "mallopt") else { return }
      let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
      // (glibc's M_MMAP_THRESHOLD and M_TRIM_THRESHOLD: malloc.h is not in Swift's Glibc.)
      _ = mallopt(-3, 32 << 20)
      _ = mallopt(-1, 64 << 20)
    #endif
  }
}
