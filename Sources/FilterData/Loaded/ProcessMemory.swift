#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How much memory this process uses and the machine has, and sizes as people write them
/// (`4GB`, `512 MiB`): what a session's memory limit is made of.
public enum ProcessMemory {
  /// The bytes of memory the process has in use now (its resident set), or nil where the
  /// system does not say (Linux: `/proc/self/statm`; elsewhere the most it ever had).
  public static var resident: Int? {
    #if os(Linux)
      let descriptor = open("/proc/self/statm", O_RDONLY)
      guard descriptor >= 0 else { return nil }
      defer { close(descriptor) }
      var bytes = [UInt8](repeating: 0, count: 128)
      let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      guard count > 0 else { return nil }
      // "size resident shared ...", in pages.
      let fields = bytes[..<count].split(separator: 0x20)
      guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self))
      else { return nil }
      return pages.multipliedReportingOverflow(by: Int(sysconf(Int32(_SC_PAGESIZE)))).partialValue
    #else
      var usage = rusage()
      guard getrusage(RUSAGE_SELF, &usage) == 0 else { return nil }
      return Int(usage.ru_maxrss)
    #endif
  }

  /// The machine's memory in bytes, or nil where the system does not say.
  public static var physical: Int? {
    let pages = sysconf(Int32(_SC_PHYS_PAGES))
    let size = sysconf(Int32(_SC_PAGESIZE))
    guard pages > 0, size > 0 else { return nil }
    let (bytes, overflow) = Int(pages).multipliedReportingOverflow(by: Int(size))
    return overflow ? Int.max : bytes
  }

  /// The default limit of a session's memory: three quarters of the machine's (nil, no
  /// limit, where the system does not say how much it has).
  public static var defaultLimit: Int? { physical.map { $0 / 4 * 3 } }

  /// The memory the process has in use now when it is past `limit` (nil: no limit, or under
  /// it, or the system does not say).
  public static func residentPast(_ limit: Int?) -> Int? {
    guard let limit, let resident, resident > limit else { return nil }
    return resident
  }

  /// When `count` more values of `size` bytes each would take the process past `limit`: the
  /// bytes they take (nil: more than an `Int` counts) and what the process holds now; nil
  /// when they fit, or there is no limit. (An estimate checked before something is decoded,
  /// from a count a file claims.)
  public static func values(_ count: Int, of size: Int, past limit: Int?) -> (
    need: Int?, resident: Int
  )? {
    guard let limit else { return nil }
    let resident = self.resident ?? 0
    let (need, overflow) = count.multipliedReportingOverflow(by: size)
    guard overflow || need > limit - Swift.min(resident, limit) else { return nil }
    return (overflow ? nil : need, resident)
  }

  /// The bytes a size means: a number with a unit, `B`, `KB`, `MB`, `GB`, `TB` (powers of
  /// 1,000) or `KiB`, `MiB`, `GiB`, `TiB` (powers of 1,024), a space between or not, any
  /// case; `1.5GB` too. Nil for anything else, a size of 0, or one past `Int.max`.
  public static func bytes(in text: String) -> Int? {
    let trimmed = text.filter { $0 != " " }.lowercased()
    let number = trimmed.prefix { $0.isNumber || $0 == "." }
    let units: [String: Double] = [
      "b": 1, "kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12, "k": 1e3, "m": 1e6, "g": 1e9,
      "t": 1e12, "kib": 1024, "mib": 1_048_576, "gib": 1_073_741_824,
      "tib": 1_099_511_627_776,
    ]
    guard let value = Double(number), value.isFinite,
      let unit = units[String(trimmed.dropFirst(number.count))]
    else { return nil }
    let bytes = (value * unit).rounded()
    guard bytes >= 1, bytes < 9.2e18 else { return nil }
    return Int(bytes)
  }

  /// `bytes` as people read it: B, KB, MB or GB (powers of 1,000), one decimal below 10.
  public static func describe(_ bytes: Int) -> String {
    let units = ["B", "KB", "MB", "GB", "TB"]
    var value = Double(bytes)
    var unit = 0
    while value >= 1000, unit < units.count - 1 {
      value /= 1000
      unit += 1
    }
    let shown = unit > 0 && value < 10 ? (value * 10).rounded() / 10 : value.rounded()
    let text = shown == shown.rounded() ? String(Int(shown)) : String(shown)
    return text + " " + units[unit]
  }
}
