/// Integers as binary formats store them (Parquet, Arrow, FlatBuffers): least significant
/// byte first.
extension Array where Element == UInt8 {
  /// `value`'s bytes, least significant first.
  init<T: FixedWidthInteger>(littleEndian value: T) {
    self = Swift.withUnsafeBytes(of: value.littleEndian) { Array($0) }
  }

  /// Appends `value`'s bytes, least significant first (no array made for them).
  mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
    Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
  }
}
