#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// liblzma's or libbz2's decoding functions, found with `dlsym`, and the layout of their C
/// stream structure (which flt fills by offset: it has no headers to import). Both start as
/// all zero bytes (`LZMA_STREAM_INIT`; bzip2's defaults for its allocator).
struct SystemCodecLibrary: @unchecked Sendable {
  /// `lzma_stream_decoder(strm, memlimit, flags)` / `BZ2_bzDecompressInit(strm, 0, 0)`.
  let start: (UnsafeMutableRawPointer) -> Result<Void, DecompressionFailure>
  /// One call of `lzma_code` / `BZ2_bzDecompress` over the input and room given.
  let step:
    (UnsafeMutableRawPointer, UnsafeRawBufferPointer, UnsafeMutableRawBufferPointer, Bool) ->
      Result<(Int, Int, Bool), DecompressionFailure>
  /// `lzma_end` / `BZ2_bzDecompressEnd`.
  let end: (UnsafeMutableRawPointer) -> Void
  /// The compressed bytes read so far.
  let totalIn: (UnsafeMutableRawPointer) -> Int

  /// Room for either stream structure (liblzma's takes 136 bytes, bzip2's 80), zeroed.
  static func zeroed() -> UnsafeMutableRawPointer {
    let memory = UnsafeMutableRawPointer.allocate(byteCount: 256, alignment: 16)
    memory.initializeMemory(as: UInt8.self, repeating: 0, count: 256)
    return memory
  }

  /// The most memory an xz stream may ask for to be decoded (`xz -9` needs 65 MB).
  static let xzMemoryLimit: UInt64 = 512 << 20

  private static func open(_ names: [String], _ library: String, _ package: String) -> Result<
    UnsafeMutableRawPointer, DecompressionFailure
  > {
    guard let handle = names.lazy.compactMap({ dlopen($0, RTLD_NOW) }).first else {
      return .failure(
        DecompressionFailure(
          description:
            "reading it needs the system's \(library), which is not installed (Debian: apt-get install \(package))"
        ))
    }
    return .success(handle)
  }

  private static func symbol<T>(_ handle: UnsafeMutableRawPointer, _ name: String, _: T.Type)
    -> T?
  {
    dlsym(handle, name).map { unsafeBitCast($0, to: T.self) }
  }

  private static func missing(_ library: String) -> DecompressionFailure {
    DecompressionFailure(description: "the system's \(library) lacks the functions flt needs")
  }

  /// liblzma, loaded once.
  static let lzma: Result<SystemCodecLibrary, DecompressionFailure> = {
    typealias Decoder = @convention(c) (UnsafeMutableRawPointer?, UInt64, UInt32) -> Int32
    typealias Code = @convention(c) (UnsafeMutableRawPointer?, Int32) -> Int32
    typealias End = @convention(c) (UnsafeMutableRawPointer?) -> Void
    return open(["liblzma.so.5", "liblzma.so", "liblzma.dylib"], "liblzma", "liblzma5").flatMap {
      handle in
      guard let decoder = symbol(handle, "lzma_stream_decoder", Decoder.self),
        let code = symbol(handle, "lzma_code", Code.self),
        let end = symbol(handle, "lzma_end", End.self)
      else { return .failure(missing("liblzma")) }
      // lzma_stream: next_in 0, avail_in 8, total_in 16, next_out 24, avail_out 32.
      func failure(_ code: Int32) -> DecompressionFailure {
        DecompressionFailure(
          description: [
            5: "it needs more memory than there is", 6: "it needs more than 512 MB to decode",
            7: "it is not xz data", 8: "it has options flt cannot read",
            9: "its data is corrupt", 10: "it ends before the compressed data does",
          ][code] ?? "liblzma said \(code)")
      }
      return .success(
        SystemCodecLibrary(
          start: { memory in
            end(memory)
            memory.initializeMemory(as: UInt8.self, repeating: 0, count: 256)
            // LZMA_CONCATENATED (0x08): streams one after another, as `xz -d` reads them.
            let result = decoder(memory, xzMemoryLimit, 0x08)
            return result == 0 ? .success(()) : .failure(failure(result))
          },
          step: { memory, input, room, finishing in
            memory.storeBytes(of: input.baseAddress, toByteOffset: 0, as: UnsafeRawPointer?.self)
            memory.storeBytes(of: input.count, toByteOffset: 8, as: Int.self)
            memory.storeBytes(
              of: room.baseAddress, toByteOffset: 24, as: UnsafeMutableRawPointer?.self)
            memory.storeBytes(of: room.count, toByteOffset: 32, as: Int.self)
            // LZMA_RUN (0), or LZMA_FINISH (3) once the input has ended.
            let result = code(memory, finishing ? 3 : 0)
            let leftIn = memory.load(fromByteOffset: 8, as: Int.self)
            let leftOut = memory.load(fromByteOffset: 32, as: Int.self)
            memory.storeBytes(of: nil, toByteOffset: 0, as: UnsafeRawPointer?.self)
            memory.storeBytes(of: nil, toByteOffset: 24, as: UnsafeMutableRawPointer?.self)
            // LZMA_OK (0), LZMA_STREAM_END (1); LZMA_BUF_ERROR (10) is no progress.
            guard result <= 1 || (result == 10 && !finishing) else {
              return .failure(failure(result))
            }
            return .success((input.count - leftIn, room.count - leftOut, result == 1))
          },
          end: { memory in end(memory) },
          totalIn: { memory in Int(memory.load(fromByteOffset: 16, as: UInt64.self)) }))
    }
  }()

  /// libbz2, loaded once.
  static let bzip2: Result<SystemCodecLibrary, DecompressionFailure> = {
    typealias Initialize = @convention(c) (UnsafeMutableRawPointer?, Int32, Int32) -> Int32
    typealias OfStream = @convention(c) (UnsafeMutableRawPointer?) -> Int32
    return open(
      ["libbz2.so.1.0", "libbz2.so.1", "libbz2.so", "libbz2.dylib"], "libbz2", "libbz2-1.0"
    )
    .flatMap { handle in
      guard let initialize = symbol(handle, "BZ2_bzDecompressInit", Initialize.self),
        let decompress = symbol(handle, "BZ2_bzDecompress", OfStream.self),
        let end = symbol(handle, "BZ2_bzDecompressEnd", OfStream.self)
      else { return .failure(missing("libbz2")) }
      // bz_stream: next_in 0, avail_in 8, total_in_lo32 12, total_in_hi32 16, next_out 24,
      // avail_out 32, state 48.
      func failure(_ code: Int32) -> DecompressionFailure {
        DecompressionFailure(
          description: [
            -3: "it needs more memory than there is", -4: "its data is corrupt",
            -5: "it is not bzip2 data",
          ][code] ?? "libbz2 said \(code)")
      }
      return .success(
        SystemCodecLibrary(
          start: { memory in
            if memory.load(fromByteOffset: 48, as: UnsafeRawPointer?.self) != nil {
              _ = end(memory)
            }
            memory.initializeMemory(as: UInt8.self, repeating: 0, count: 256)
            let result = initialize(memory, 0, 0)
            return result == 0 ? .success(()) : .failure(failure(result))
          },
          step: { memory, input, room, finishing in
            let inCount = UInt32(clamping: input.count)
            let outCount = UInt32(clamping: room.count)
            memory.storeBytes(of: input.baseAddress, toByteOffset: 0, as: UnsafeRawPointer?.self)
            memory.storeBytes(of: inCount, toByteOffset: 8, as: UInt32.self)
            memory.storeBytes(
              of: room.baseAddress, toByteOffset: 24, as: UnsafeMutableRawPointer?.self)
            memory.storeBytes(of: outCount, toByteOffset: 32, as: UInt32.self)
            let result = decompress(memory)
            let leftIn = memory.load(fromByteOffset: 8, as: UInt32.self)
            let leftOut = memory.load(fromByteOffset: 32, as: UInt32.self)
            memory.storeBytes(of: nil, toByteOffset: 0, as: UnsafeRawPointer?.self)
            memory.storeBytes(of: nil, toByteOffset: 24, as: UnsafeMutableRawPointer?.self)
            // BZ_OK (0), BZ_STREAM_END (4).
            guard result == 0 || result == 4 else { return .failure(failure(result)) }
            return .success(
              (Int(inCount - leftIn), Int(outCount - leftOut), result == 4))
          },
          end: { memory in
            if memory.load(fromByteOffset: 48, as: UnsafeRawPointer?.self) != nil {
              _ = end(memory)
            }
          },
          totalIn: { memory in
            Int(memory.load(fromByteOffset: 12, as: UInt32.self))
              | Int(memory.load(fromByteOffset: 16, as: UInt32.self)) << 32
          }))
    }
  }()
}
