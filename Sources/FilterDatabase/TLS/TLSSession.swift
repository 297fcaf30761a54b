#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A TLS client session through OpenSSL, over a ``PostgresSocket``: OpenSSL reads and writes
/// memory buffers and the socket moves their bytes, so the socket's waits (timeouts, the
/// sign-in deadline) and its refusal of SIGPIPE hold for TLS too.
final class TLSSession {
  private let library: OpenSSLLibrary
  private let context: OpaquePointer
  private let ssl: OpaquePointer
  /// What the server sent, for OpenSSL to read; what OpenSSL wrote, for the server.
  private let incoming: OpaquePointer
  private let outgoing: OpaquePointer
  private var scratch = [UInt8](repeating: 0, count: 16_384)
  private let host: String
  private let settings: TLSSettings
  /// Whether the server's certificate is checked against trusted roots.
  private let verifies: Bool

  /// A session to `host` as `settings` say, ready for ``handshake(over:)``.
  init(_ settings: TLSSettings, host: String) throws(DatabaseError) {
    let library = try OpenSSLLibrary.shared.get()
    _ = library.queuedErrors()
    guard let method = library.clientMethod(), let context = library.contextNew(method) else {
      throw DatabaseError("OpenSSL could not make a TLS context: \(library.queuedErrors() ?? "")")
    }
    self.library = library
    self.context = context
    self.host = host
    self.settings = settings
    // As libpq: TLS 1.2 at least; the server verified whenever trusted roots are there
    // (the system's, or a root file that exists), required for the verify modes.
    _ = library.contextControl(
      context, OpenSSLLibrary.setMinimumProtocol, OpenSSLLibrary.tls12, nil)
    let roots = settings.rootCertificates
    let rootsExist = roots == "system" || roots.map { access($0, R_OK) == 0 } ?? false
    if !rootsExist, settings.mode == .verifyCA || settings.mode == .verifyFull {
      library.contextFree(context)
      throw DatabaseError(
        "sslmode=\(settings.mode.rawValue) needs trusted root certificates, and \(roots ?? "~/.postgresql/root.crt") cannot be read",
        help:
          "give the file of the certificate authority that signed the server's certificate with sslrootcert=FILE, or sslrootcert=system for the system's"
      )
    }
    verifies = rootsExist
    if let roots, rootsExist {
      let loaded =
        roots == "system"
        ? library.setDefaultVerifyPaths(context) : library.loadVerifyLocations(context, roots, nil)
      guard loaded == 1 else {
        let reason = library.queuedErrors() ?? "no certificate in it"
        library.contextFree(context)
        throw DatabaseError(
          "cannot read the root certificates in \(roots): \(reason)",
          help: "sslrootcert names a file of PEM certificates (-----BEGIN CERTIFICATE-----)")
      }
      library.setVerify(context, OpenSSLLibrary.verifyPeer, nil)
    } else {
      library.setVerify(context, OpenSSLLibrary.verifyNone, nil)
    }
    do throws(DatabaseError) {
      try Self.useClientCertificate(settings, library: library, context: context)
    } catch {
      library.contextFree(context)
      throw error
    }
    guard let ssl = library.new(context), let method = library.memoryMethod(),
      let incoming = library.bioNew(method), let outgoing = library.bioNew(method)
    else {
      library.contextFree(context)
      throw DatabaseError("OpenSSL could not make a TLS session: \(library.queuedErrors() ?? "")")
    }
    library.setBIO(ssl, incoming, outgoing)  // the session owns them now
    self.ssl = ssl
    self.incoming = incoming
    self.outgoing = outgoing
    let literal = Self.isAddress(host)
    if settings.sendsHostName, !literal {
      _ = host.withCString {
        library.control(
          ssl, OpenSSLLibrary.setHostName, 0, UnsafeMutableRawPointer(mutating: $0))
      }
    }
    if settings.mode == .verifyFull {
      let set =
        literal
        ? library.setIPAddress(library.parameters(ssl), host) : library.setHost(ssl, host)
      guard set == 1 else {
        throw DatabaseError(
          "OpenSSL cannot check the name \(host): \(library.queuedErrors() ?? "")")
      }
    }
  }

  deinit {
    library.free(ssl)
    library.contextFree(context)
  }

  /// A client certificate and its key, when the certificate's file exists (libpq's rule: a
  /// missing one is no error, the server may not ask); a key others may read is refused.
  private static func useClientCertificate(
    _ settings: TLSSettings, library: OpenSSLLibrary, context: OpaquePointer
  ) throws(DatabaseError) {
    guard let certificate = settings.certificate, access(certificate, R_OK) == 0 else { return }
    guard library.useCertificateChainFile(context, certificate) == 1 else {
      throw DatabaseError(
        "cannot read the client certificate \(certificate): \(library.queuedErrors() ?? "")",
        help: "sslcert names a PEM certificate file")
    }
    let key = settings.key ?? ""
    var status = stat()
    guard stat(key, &status) == 0 else {
      throw DatabaseError(
        "the client certificate \(certificate) has no key: \(key) cannot be read",
        help: "name its private key with sslkey=FILE")
    }
    // As libpq: only the owner may read it (or root's group, for a key root owns).
    let others = status.st_uid == 0 ? mode_t(0o037) : mode_t(0o077)
    guard status.st_mode & others == 0 else {
      throw DatabaseError(
        "the private key \(key) can be read by others",
        help: "make it private: chmod 600 \(key)")
    }
    guard library.usePrivateKeyFile(context, key, OpenSSLLibrary.fileTypePEM) == 1,
      library.checkPrivateKey(context) == 1
    else {
      throw DatabaseError(
        "cannot use the private key \(key): \(library.queuedErrors() ?? "it does not match the certificate")",
        help: "sslkey names the PEM key of the certificate in sslcert")
    }
  }

  /// Whether `host` is an IPv4 or IPv6 address rather than a name.
  static func isAddress(_ host: String) -> Bool {
    var address = in6_addr()
    return inet_pton(AF_INET, host, &address) == 1 || inet_pton(AF_INET6, host, &address) == 1
  }

  /// Runs the handshake, verifying the server as the settings say.
  func handshake(over socket: PostgresSocket) throws(DatabaseError) {
    let ssl = self.ssl
    let library = self.library
    let failed = "the TLS handshake with PostgreSQL failed"
    do throws(DatabaseError) {
      _ = try drive(over: socket, failing: failed) { library.connect(ssl) }
    } catch {
      let code = library.verifyResult(ssl)
      guard verifies, code != 0 else {
        // The socket's own errors (the server closed, a deadline) said as the handshake's.
        guard !error.message.hasPrefix(failed) else { throw error }
        throw DatabaseError(
          "\(failed): \(error.message)", help: error.help ?? Self.handshakeHelp)
      }
      // X509_V_ERR_HOSTNAME_MISMATCH, X509_V_ERR_IP_ADDRESS_MISMATCH
      if code == 62 || code == 64 {
        throw DatabaseError(
          "the server's certificate is not made out to \(host) (sslmode=verify-full)",
          help:
            "connect by a name the certificate names, or with sslmode=verify-ca to check only who signed it"
        )
      }
      let reason = library.verifyText(code).map { String(cString: $0) } ?? "error \(code)"
      throw DatabaseError(
        "the server's certificate cannot be trusted: \(reason)",
        help:
          "give the root certificate that signed it with sslrootcert=FILE (now \(settings.rootCertificates ?? "none")), or sslmode=require to encrypt without checking who the server is"
      )
    }
  }

  /// Writes all of `bytes`, encrypted.
  func write(_ bytes: [UInt8], over socket: PostgresSocket) throws(DatabaseError) {
    let ssl = self.ssl
    let library = self.library
    var done = 0
    while done < bytes.count {
      let n = try drive(over: socket, failing: Self.failed) {
        bytes[done...].withUnsafeBytes {
          library.write(
            ssl, UnsafeMutableRawPointer(mutating: $0.baseAddress), Int32(clamping: $0.count))
        }
      }
      guard n > 0 else { throw DatabaseError("PostgreSQL closed the connection") }
      done += Int(n)
    }
  }

  /// Reads what the server sent into `bytes`, decrypted: the count, 0 when it closed.
  func read(into bytes: inout [UInt8], over socket: PostgresSocket) throws(DatabaseError) -> Int {
    let ssl = self.ssl
    let library = self.library
    return Int(
      try drive(over: socket, failing: Self.failed) {
        bytes.withUnsafeMutableBytes {
          library.read(ssl, $0.baseAddress, Int32(clamping: $0.count))
        }
      })
  }

  private static let failed = "TLS with PostgreSQL failed"
  private static let handshakeHelp =
    "is TLS set up right on the server, and is nothing between flt and it tampering with the connection?"

  /// Runs `operation` until it succeeds, moving bytes between OpenSSL's buffers and the
  /// socket as it asks: its result, or 0 when the server closed the session. OpenSSL's own
  /// failures are said after `failing`.
  private func drive(
    over socket: PostgresSocket, failing: String, _ operation: () -> Int32
  ) throws(DatabaseError) -> Int32 {
    while true {
      let result = operation()
      try flush(over: socket)
      if result > 0 { return result }
      switch library.error(ssl, result) {
      case OpenSSLLibrary.wantRead:
        let n = try socket.receive(into: &scratch)
        guard n > 0 else { throw DatabaseError("PostgreSQL closed the connection during TLS") }
        _ = scratch.withUnsafeMutableBytes { library.bioWrite(incoming, $0.baseAddress, Int32(n)) }
      case OpenSSLLibrary.wantWrite:
        continue
      case OpenSSLLibrary.zeroReturn:
        return 0
      default:
        throw DatabaseError(
          "\(failing): \(library.queuedErrors() ?? "the connection broke")",
          help: Self.handshakeHelp)
      }
    }
  }

  /// Sends what OpenSSL has written.
  private func flush(over socket: PostgresSocket) throws(DatabaseError) {
    while library.bioPending(outgoing) > 0 {
      let n = scratch.withUnsafeMutableBytes {
        library.bioRead(outgoing, $0.baseAddress, Int32($0.count))
      }
      guard n > 0 else { return }
      try socket.send(scratch[..<Int(n)])
    }
  }

  /// The protocol agreed (`TLSv1.3`).
  var protocolVersion: String {
    library.protocolVersion(ssl).map { String(cString: $0) } ?? "TLS"
  }

  /// The hash of the server's certificate that `tls-server-end-point` channel binding uses
  /// (RFC 5929): by the hash of the certificate's signature, SHA-256 for MD5 and SHA-1; nil
  /// when the signature names no hash (Ed25519) or there is no certificate.
  var serverCertificateHash: [UInt8]? {
    guard let certificate = library.peerCertificate(ssl) else { return nil }
    defer { library.certificateFree(certificate) }
    var digestID: Int32 = 0
    var keyID: Int32 = 0
    guard library.signatureAlgorithms(library.signatureID(certificate), &digestID, &keyID) == 1
    else { return nil }
    let md5: Int32 = 4
    let sha1: Int32 = 64
    let name =
      digestID == md5 || digestID == sha1
      ? "SHA256" : library.shortName(digestID).map { String(cString: $0) } ?? ""
    guard let digest = library.digestByName(name) else { return nil }
    var out = [UInt8](repeating: 0, count: 64)
    var length: UInt32 = 0
    guard library.digest(certificate, digest, &out, &length) == 1, length <= 64 else { return nil }
    return Array(out.prefix(Int(length)))
  }
}
