import Foundation

/// The formats files are read in (``DataFormat/all``): flt's own first, then those
/// registered, guarded by a lock (formats may be registered while other threads open files).
final class FormatRegistry: @unchecked Sendable {
  static let shared = FormatRegistry()

  private let lock = NSLock()
  private var registered: [DataFormat] = DataFormat.builtIn

  /// The formats, in the order they were registered.
  var formats: [DataFormat] {
    lock.lock()
    defer { lock.unlock() }
    return registered
  }

  /// Adds `format`, replacing one of the same name.
  func add(_ format: DataFormat) {
    lock.lock()
    defer { lock.unlock() }
    registered.removeAll { $0.name == format.name }
    registered.append(format)
  }
}
