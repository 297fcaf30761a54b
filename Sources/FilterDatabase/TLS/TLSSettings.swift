/// How a connection to PostgreSQL uses TLS, read from a URL's parameters and libpq's
/// environment variables with libpq's meanings and defaults.
public struct TLSSettings: Hashable, Sendable {
  /// libpq's `sslmode`: whether TLS is tried, required, and what of the server is verified.
  public enum Mode: String, Hashable, Sendable, CaseIterable {
    /// Never TLS.
    case disable
    /// Clear text first; TLS only if the server refuses a connection without it.
    case allow
    /// TLS if the server offers it, else clear text (libpq's default).
    case prefer
    /// TLS or no connection; the certificate is verified only when a root certificate file
    /// exists (as `verify-ca`), as libpq does.
    case require
    /// TLS, with the server's certificate signed by a trusted root.
    case verifyCA = "verify-ca"
    /// TLS, with a trusted certificate made out to the host connected to.
    case verifyFull = "verify-full"

    /// Whether a connection without TLS is refused.
    public var needsTLS: Bool { self == .require || self == .verifyCA || self == .verifyFull }
  }

  /// libpq's `channel_binding`: whether SCRAM authentication binds itself to the TLS
  /// connection (`SCRAM-SHA-256-PLUS`), so that a man in the middle who holds a certificate
  /// the client trusts still cannot relay the password proof.
  public enum ChannelBinding: String, Hashable, Sendable, CaseIterable {
    /// Never.
    case disable
    /// When the connection is TLS and the server offers it (the default).
    case prefer
    /// Always: a server that does not authenticate with channel binding is refused.
    case require
  }

  /// The mode (`sslmode`, `PGSSLMODE`; `prefer` unless said, `verify-full` with
  /// `sslrootcert=system`).
  public var mode: Mode
  /// The trusted root certificates (`sslrootcert`, `PGSSLROOTCERT`): a PEM file, or `system`
  /// for the system's store; `~/.postgresql/root.crt` unless said.
  public var rootCertificates: String?
  /// A client certificate and its key (`sslcert`/`sslkey`, `PGSSLCERT`/`PGSSLKEY`;
  /// `~/.postgresql/postgresql.crt` and `.key` when they exist).
  public var certificate: String?
  /// The client certificate's private key.
  public var key: String?
  /// `channel_binding`, `PGCHANNELBINDING`.
  public var channelBinding: ChannelBinding
  /// Whether the host name is sent in the handshake (`sslsni`, `PGSSLSNI`; on unless `0`).
  public var sendsHostName: Bool

  /// No TLS.
  public static let disabled = TLSSettings(
    mode: .disable, rootCertificates: nil, certificate: nil, key: nil, channelBinding: .prefer,
    sendsHostName: true)

  /// The settings a URL's `parameters` and the `environment` give; `shown` names the URL in
  /// messages.
  init(
    parameters: [String: String], environment: (String) -> String?, shown: String
  ) throws(DatabaseError) {
    func value(_ name: String, _ variable: String) -> String? {
      parameters[name] ?? environment(variable)
    }
    func choice<T: RawRepresentable & CaseIterable>(
      _ name: String, _ variable: String, _: T.Type
    ) throws(DatabaseError) -> T? where T.RawValue == String {
      guard let text = value(name, variable) else { return nil }
      guard let chosen = T(rawValue: text) else {
        let from = parameters[name] == nil ? " (\(variable))" : ""
        throw DatabaseError(
          "\(name)=\(text)\(from) is not one of its values",
          help: "write \(name)=" + T.allCases.map(\.rawValue).joined(separator: ", or "))
      }
      return chosen
    }
    let home = environment("HOME").map { $0 + "/.postgresql/" }
    let roots = value("sslrootcert", "PGSSLROOTCERT")
    let givenMode = try choice("sslmode", "PGSSLMODE", Mode.self)
    mode = givenMode ?? (roots == "system" ? .verifyFull : .prefer)
    if roots == "system", mode != .verifyFull {
      // As libpq 16: the system's roots vouch for any name they signed, so only the host
      // name check makes them mean anything.
      throw DatabaseError(
        "\(shown): sslmode=\(mode.rawValue) cannot be used with sslrootcert=system",
        help: "use sslmode=verify-full (the default with sslrootcert=system)")
    }
    rootCertificates = roots ?? home.map { $0 + "root.crt" }
    certificate = value("sslcert", "PGSSLCERT") ?? home.map { $0 + "postgresql.crt" }
    key = value("sslkey", "PGSSLKEY") ?? home.map { $0 + "postgresql.key" }
    channelBinding =
      try choice("channel_binding", "PGCHANNELBINDING", ChannelBinding.self) ?? .prefer
    sendsHostName = value("sslsni", "PGSSLSNI") != "0"
  }

  private init(
    mode: Mode, rootCertificates: String?, certificate: String?, key: String?,
    channelBinding: ChannelBinding, sendsHostName: Bool
  ) {
    self.mode = mode
    self.rootCertificates = rootCertificates
    self.certificate = certificate
    self.key = key
    self.channelBinding = channelBinding
    self.sendsHostName = sendsHostName
  }
}
