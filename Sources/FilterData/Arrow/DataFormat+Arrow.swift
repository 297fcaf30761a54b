/// Arrow's IPC formats, both read by ``ArrowSource``.
extension DataFormat {
  /// Arrow's IPC file format (Feather version 2): record batches and a footer that says where
  /// they lie. Read from standard input too (as a stream, its footer passed over).
  public static let arrow = DataFormat(
    name: "arrow", title: "Arrow", details: "IPC files and Feather 2; LZ4 or zstd buffers",
    extensions: ["arrow", "feather", "ipc"], magic: ArrowMessages.fileMagic,
    write: { schema, out in try ArrowWriter(schema: schema, to: out) },
    open: { input in try ArrowSource(path: input.path, bytes: input.bytes) })

  /// Arrow's IPC stream format: a schema, then dictionaries and record batches in turn.
  public static let arrowStream = DataFormat(
    name: "arrows", title: "Arrow stream", extensions: ["arrows"], magic: [0xFF, 0xFF, 0xFF, 0xFF],
    write: { schema, out in try ArrowWriter(schema: schema, to: out, stream: true) },
    open: { input in try ArrowSource(path: input.path, bytes: input.bytes) })
}
