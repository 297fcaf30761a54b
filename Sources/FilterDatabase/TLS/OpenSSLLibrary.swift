#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The system's OpenSSL (libssl and the libcrypto it loads), loaded when a connection first
/// asks for TLS (`dlopen`), as SQLite is: building flt needs no OpenSSL headers, and running
/// it needs OpenSSL only for TLS. OpenSSL 1.1.1 and 3.x.
struct OpenSSLLibrary: @unchecked Sendable {
  typealias Pointer = OpaquePointer
  typealias Method = @convention(c) () -> Pointer?
  typealias ContextNew = @convention(c) (Pointer?) -> Pointer?
  typealias Free = @convention(c) (Pointer?) -> Void
  typealias SetVerify = @convention(c) (Pointer?, Int32, UnsafeRawPointer?) -> Void
  typealias LoadLocations =
    @convention(c) (Pointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32
  typealias OfPointer = @convention(c) (Pointer?) -> Int32
  typealias Control = @convention(c) (Pointer?, Int32, Int, UnsafeMutableRawPointer?) -> Int
  typealias WithText = @convention(c) (Pointer?, UnsafePointer<CChar>?) -> Int32
  typealias WithFile = @convention(c) (Pointer?, UnsafePointer<CChar>?, Int32) -> Int32
  typealias GetPointer = @convention(c) (Pointer?) -> Pointer?
  typealias SetBIO = @convention(c) (Pointer?, Pointer?, Pointer?) -> Void
  typealias Transfer = @convention(c) (Pointer?, UnsafeMutableRawPointer?, Int32) -> Int32
  typealias WithResult = @convention(c) (Pointer?, Int32) -> Int32
  typealias Pending = @convention(c) (Pointer?) -> Int
  typealias VerifyResult = @convention(c) (Pointer?) -> Int
  typealias VerifyText = @convention(c) (Int) -> UnsafePointer<CChar>?
  typealias SignatureAlgorithms =
    @convention(c) (Int32, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?) -> Int32
  typealias NameOfID = @convention(c) (Int32) -> UnsafePointer<CChar>?
  typealias DigestByName = @convention(c) (UnsafePointer<CChar>?) -> Pointer?
  typealias Digest =
    @convention(c) (Pointer?, Pointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt32>?)
    -> Int32
  typealias ErrorCode = @convention(c) () -> UInt
  typealias ErrorText = @convention(c) (UInt, UnsafeMutablePointer<CChar>?, Int) -> Void
  typealias Version = @convention(c) (Pointer?) -> UnsafePointer<CChar>?

  let clientMethod: Method
  let contextNew: ContextNew
  let contextFree: Free
  let setVerify: SetVerify
  let loadVerifyLocations: LoadLocations
  let setDefaultVerifyPaths: OfPointer
  let contextControl: Control
  let useCertificateChainFile: WithText
  let usePrivateKeyFile: WithFile
  let checkPrivateKey: OfPointer
  let new: GetPointer
  let free: Free
  let control: Control
  let setHost: WithText
  let parameters: GetPointer
  let setIPAddress: WithText
  let setBIO: SetBIO
  let connect: OfPointer
  let read: Transfer
  let write: Transfer
  let error: WithResult
  let verifyResult: VerifyResult
  let verifyText: VerifyText
  let peerCertificate: GetPointer
  let certificateFree: Free
  let signatureID: OfPointer
  let signatureAlgorithms: SignatureAlgorithms
  let shortName: NameOfID
  let digestByName: DigestByName
  let digest: Digest
  let memoryMethod: Method
  let bioNew: GetPointer
  let bioRead: Transfer
  let bioWrite: Transfer
  let bioPending: Pending
  let errorCode: ErrorCode
  let errorText: ErrorText
  let protocolVersion: Version

  // OpenSSL's constants used here (ssl.h, x509_vfy.h).
  static let verifyNone: Int32 = 0
  static let verifyPeer: Int32 = 1
  static let setMinimumProtocol: Int32 = 123  // SSL_CTRL_SET_MIN_PROTO_VERSION
  static let setHostName: Int32 = 55  // SSL_CTRL_SET_TLSEXT_HOSTNAME
  static let tls12: Int = 0x0303
  static let fileTypePEM: Int32 = 1
  static let wantRead: Int32 = 2
  static let wantWrite: Int32 = 3
  static let zeroReturn: Int32 = 6

  /// The library, or why it could not be loaded.
  static let shared: Result<OpenSSLLibrary, DatabaseError> = load()

  private static func load() -> Result<OpenSSLLibrary, DatabaseError> {
    let names = [
      "libssl.so.3", "libssl.so.1.1", "libssl.so", "libssl.3.dylib",
      "/opt/homebrew/lib/libssl.3.dylib", "/usr/local/lib/libssl.3.dylib",
    ]
    guard let handle = names.lazy.compactMap({ dlopen($0, RTLD_NOW) }).first else {
      return .failure(
        DatabaseError(
          "TLS needs the OpenSSL library (libssl), which is not installed",
          help: "install it (Debian: apt-get install libssl3), or connect with sslmode=disable"))
    }
    guard let library = OpenSSLLibrary(handle) else {
      return .failure(
        DatabaseError(
          "the OpenSSL library lacks functions flt needs", help: "install OpenSSL 1.1.1 or later"))
    }
    return .success(library)
  }

  /// The functions from `handle` (libssl; libcrypto's come through it), or nil when one is
  /// missing.
  private init?(_ handle: UnsafeMutableRawPointer) {
    func symbol<T>(_ name: String, _: T.Type = T.self) -> T? {
      dlsym(handle, name).map { unsafeBitCast($0, to: T.self) }
    }
    guard let clientMethod: Method = symbol("TLS_client_method"),
      let contextNew: ContextNew = symbol("SSL_CTX_new"),
      let contextFree: Free = symbol("SSL_CTX_free"),
      let setVerify: SetVerify = symbol("SSL_CTX_set_verify"),
      let loadVerifyLocations: LoadLocations = symbol("SSL_CTX_load_verify_locations"),
      let setDefaultVerifyPaths: OfPointer = symbol("SSL_CTX_set_default_verify_paths"),
      let contextControl: Control = symbol("SSL_CTX_ctrl"),
      let useCertificateChainFile: WithText = symbol("SSL_CTX_use_certificate_chain_file"),
      let usePrivateKeyFile: WithFile = symbol("SSL_CTX_use_PrivateKey_file"),
      let checkPrivateKey: OfPointer = symbol("SSL_CTX_check_private_key"),
      let new: GetPointer = symbol("SSL_new"),
      let free: Free = symbol("SSL_free"),
      let control: Control = symbol("SSL_ctrl"),
      let setHost: WithText = symbol("SSL_set1_host"),
      let parameters: GetPointer = symbol("SSL_get0_param"),
      let setIPAddress: WithText = symbol("X509_VERIFY_PARAM_set1_ip_asc"),
      let setBIO: SetBIO = symbol("SSL_set_bio"),
      let connect: OfPointer = symbol("SSL_connect"),
      let read: Transfer = symbol("SSL_read"),
      let write: Transfer = symbol("SSL_write"),
      let error: WithResult = symbol("SSL_get_error"),
      let verifyResult: VerifyResult = symbol("SSL_get_verify_result"),
      let verifyText: VerifyText = symbol("X509_verify_cert_error_string"),
      let peerCertificate: GetPointer =
        symbol("SSL_get1_peer_certificate") ?? symbol("SSL_get_peer_certificate"),
      let certificateFree: Free = symbol("X509_free"),
      let signatureID: OfPointer = symbol("X509_get_signature_nid"),
      let signatureAlgorithms: SignatureAlgorithms = symbol("OBJ_find_sigid_algs"),
      let shortName: NameOfID = symbol("OBJ_nid2sn"),
      let digestByName: DigestByName = symbol("EVP_get_digestbyname"),
      let digest: Digest = symbol("X509_digest"),
      let memoryMethod: Method = symbol("BIO_s_mem"),
      let bioNew: GetPointer = symbol("BIO_new"),
      let bioRead: Transfer = symbol("BIO_read"),
      let bioWrite: Transfer = symbol("BIO_write"),
      let bioPending: Pending = symbol("BIO_ctrl_pending"),
      let errorCode: ErrorCode = symbol("ERR_get_error"),
      let errorText: ErrorText = symbol("ERR_error_string_n"),
      let protocolVersion: Version = symbol("SSL_get_version")
    else { return nil }
    self.clientMethod = clientMethod
    self.contextNew = contextNew
    self.contextFree = contextFree
    self.setVerify = setVerify
    self.loadVerifyLocations = loadVerifyLocations
    self.setDefaultVerifyPaths = setDefaultVerifyPaths
    self.contextControl = contextControl
    self.useCertificateChainFile = useCertificateChainFile
    self.usePrivateKeyFile = usePrivateKeyFile
    self.checkPrivateKey = checkPrivateKey
    self.new = new
    self.free = free
    self.control = control
    self.setHost = setHost
    self.parameters = parameters
    self.setIPAddress = setIPAddress
    self.setBIO = setBIO
    self.connect = connect
    self.read = read
    self.write = write
    self.error = error
    self.verifyResult = verifyResult
    self.verifyText = verifyText
    self.peerCertificate = peerCertificate
    self.certificateFree = certificateFree
    self.signatureID = signatureID
    self.signatureAlgorithms = signatureAlgorithms
    self.shortName = shortName
    self.digestByName = digestByName
    self.digest = digest
    self.memoryMethod = memoryMethod
    self.bioNew = bioNew
    self.bioRead = bioRead
    self.bioWrite = bioWrite
    self.bioPending = bioPending
    self.errorCode = errorCode
    self.errorText = errorText
    self.protocolVersion = protocolVersion
  }

  /// OpenSSL's queued errors as one text (the queue emptied), or nil when there are none.
  func queuedErrors() -> String? {
    var texts: [String] = []
    while case let code = errorCode(), code != 0 {
      var buffer = [CChar](repeating: 0, count: 256)
      errorText(code, &buffer, buffer.count)
      // "error:0A000086:SSL routines::certificate verify failed": the reason is the last part.
      let text = String(
        decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      texts.append(String(text.split(separator: ":", omittingEmptySubsequences: false).last ?? ""))
    }
    return texts.isEmpty ? nil : texts.joined(separator: "; ")
  }
}
