/// The client side of SCRAM-SHA-256 (RFC 5802, RFC 7677), as PostgreSQL uses it: the user
/// name left empty (the server takes it from the startup message), and channel binding to
/// the TLS connection (`SCRAM-SHA-256-PLUS`, `tls-server-end-point`) when there is one.
struct SCRAMClient {
  /// What the client says of channel binding (RFC 5802's GS2 header).
  enum Binding: Equatable {
    /// None: no TLS, or binding turned off (`n`).
    case none
    /// The client could bind but the server did not offer it (`y`): a server that did offer it
    /// sees that someone took the offer away.
    case notOffered
    /// Bound to the TLS connection by the hash of the server's certificate (`p`).
    case serverEndPoint([UInt8])

    /// The GS2 header.
    var header: String {
      switch self {
      case .none: "n,,"
      case .notOffered: "y,,"
      case .serverEndPoint: "p=tls-server-end-point,,"
      }
    }

    /// The mechanism's name.
    var mechanism: String {
      if case .serverEndPoint = self { "SCRAM-SHA-256-PLUS" } else { "SCRAM-SHA-256" }
    }
  }

  let password: String
  let nonce: String
  let binding: Binding
  private(set) var clientFirstBare = ""
  private(set) var expectedServerSignature: [UInt8] = []

  /// A client proving `password`, with a random nonce unless one is given (tests use the RFC's).
  init(password: String, nonce: String? = nil, binding: Binding = .none) {
    self.password = password
    self.binding = binding
    self.nonce =
      nonce
      ?? ByteText.base64((0..<18).map { _ in UInt8.random(in: 0...255) })
  }

  /// The client-first message.
  mutating func first(user: String = "") -> String {
    clientFirstBare = "n=\(user),r=\(nonce)"
    return binding.header + clientFirstBare
  }

  /// The client-final message answering `serverFirst`; nil when the server's message is not
  /// well formed or does not extend our nonce, or `keepGoing` said to stop deriving the key.
  mutating func final(_ serverFirst: String, keepGoing: () -> Bool = { true }) -> String? {
    var attributes: [Character: String] = [:]
    for part in serverFirst.split(separator: ",") {
      guard let key = part.first, part.dropFirst().first == "=" else { return nil }
      attributes[key] = String(part.dropFirst(2))
    }
    guard let serverNonce = attributes["r"], serverNonce.hasPrefix(nonce),
      let saltText = attributes["s"], let salt = ByteText.base64(decoding: saltText),
      let iterationsText = attributes["i"], let iterations = Int(iterationsText),
      (1...10_000_000).contains(iterations)
    else { return nil }
    guard
      let salted = HMACSHA256.pbkdf2(
        password: Array(password.utf8), salt: salt, iterations: iterations, keepGoing: keepGoing)
    else { return nil }
    let clientKey = HMACSHA256.authenticate(Array("Client Key".utf8), key: salted)
    let storedKey = SHA256.hash(clientKey)
    var channel = Array(binding.header.utf8)
    if case .serverEndPoint(let hash) = binding { channel += hash }
    let withoutProof = "c=\(ByteText.base64(channel)),r=\(serverNonce)"
    let message = clientFirstBare + "," + serverFirst + "," + withoutProof
    let signature = HMACSHA256.authenticate(Array(message.utf8), key: storedKey)
    let proof = zip(clientKey, signature).map { $0 ^ $1 }
    let serverKey = HMACSHA256.authenticate(Array("Server Key".utf8), key: salted)
    expectedServerSignature = HMACSHA256.authenticate(Array(message.utf8), key: serverKey)
    return withoutProof + ",p=" + ByteText.base64(proof)
  }

  /// Whether the server-final message proves the server knew the password too.
  func verifies(_ serverFinal: String) -> Bool {
    guard serverFinal.hasPrefix("v="),
      let signature = ByteText.base64(decoding: String(serverFinal.dropFirst(2)))
    else { return false }
    return !expectedServerSignature.isEmpty && signature == expectedServerSignature
  }
}
