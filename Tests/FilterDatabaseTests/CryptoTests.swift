import Testing

@testable import FilterDatabase

/// SHA-256, HMAC, PBKDF2, MD5, Base64 and SCRAM against their published test vectors.
@Suite struct CryptoTests {
  func hex(_ bytes: [UInt8]) -> String { ByteText.hex(bytes) }

  @Test func sha256MatchesNIST() {
    #expect(
      hex(SHA256.hash(Array("abc".utf8)))
        == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      hex(SHA256.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(
      hex(SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    #expect(
      hex(SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)))
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    // Fed in pieces, the same digest.
    var pieces = SHA256()
    for piece in ["ab", "c"] { pieces.update(Array(piece.utf8)) }
    #expect(
      hex(pieces.finish()) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
  }

  @Test func hmacMatchesRFC4231() {
    #expect(
      hex(HMACSHA256.authenticate(Array("Hi There".utf8), key: [UInt8](repeating: 0x0b, count: 20)))
        == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
    #expect(
      hex(
        HMACSHA256.authenticate(Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8))
      )
        == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    #expect(
      hex(
        HMACSHA256.authenticate(
          Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
          key: [UInt8](repeating: 0xaa, count: 131)))
        == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
  }

  func hex(_ bytes: [UInt8]?) -> String { bytes.map(ByteText.hex) ?? "stopped" }

  @Test func pbkdf2MatchesPublishedVectors() {
    let password = Array("password".utf8)
    let salt = Array("salt".utf8)
    #expect(
      hex(HMACSHA256.pbkdf2(password: password, salt: salt, iterations: 1))
        == "120fb6cffcf8b32c43e7225256c4f837a86548c92ccc35480805987cb70be17b")
    #expect(
      hex(HMACSHA256.pbkdf2(password: password, salt: salt, iterations: 2))
        == "ae4d0c95af6b46d32d0adff928f06dd02a303f8ef3c251dfd6e2d85a95474c43")
    #expect(
      hex(HMACSHA256.pbkdf2(password: password, salt: salt, iterations: 4096))
        == "c5e478d59288c841aa530db6845c4c8d962893a001ce4e11a4963873aa98134a")
    // RFC 7914's vector (its first 32 bytes), and a password longer than a block (Python's
    // hashlib.pbkdf2_hmac).
    #expect(
      hex(
        HMACSHA256.pbkdf2(
          password: Array("passwordPASSWORDpassword".utf8),
          salt: Array("saltSALTsaltSALTsaltSALTsaltSALTsalt".utf8), iterations: 4096))
        == "348c89dbcbd32b2f32d814b8116e84cf2b17347ebc1800181c4e2a1fb8dd53e1")
    #expect(
      hex(
        HMACSHA256.pbkdf2(
          password: Array(repeating: 0x6b, count: 100), salt: salt, iterations: 5000))
        == "acb4358930c30f6e8b5688d2c8e3e8d7e1d94281b3990d23388e9e39769c2450")
    // Told to stop, it stops (asked every 4,096 iterations).
    var asked = 0
    let stopped = HMACSHA256.pbkdf2(password: password, salt: salt, iterations: 10_000_000) {
      asked += 1
      return asked < 3
    }
    #expect(stopped == nil && asked == 3)
  }

  @Test func md5MatchesRFC1321() {
    let suite = [
      ("", "d41d8cd98f00b204e9800998ecf8427e"), ("a", "0cc175b9c0f1b6a831c399e269772661"),
      ("abc", "900150983cd24fb0d6963f7d28e17f72"),
      ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
      ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
      (String(repeating: "1234567890", count: 8), "57edf4a22be3c955ac49da2e2107b67a"),
    ]
    for (text, digest) in suite { #expect(hex(MD5.hash(Array(text.utf8))) == digest, "\(text)") }
  }

  @Test func base64MatchesRFC4648() {
    for (text, encoded) in [
      ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="),
      ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
    ] {
      #expect(ByteText.base64(Array(text.utf8)) == encoded)
      #expect(ByteText.base64(decoding: encoded) == Array(text.utf8))
    }
    #expect(ByteText.base64(decoding: "Zm9v!") == nil)
    #expect(ByteText.base64(decoding: "Zg=a") == nil)
  }

  /// RFC 7677's example exchange, byte for byte.
  @Test func scramMatchesRFC7677() {
    var client = SCRAMClient(password: "pencil", nonce: "rOprNGfwEbeRWgbNEkqO")
    #expect(client.first(user: "user") == "n,,n=user,r=rOprNGfwEbeRWgbNEkqO")
    let final = client.final(
      "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096")
    #expect(
      final
        == "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ="
    )
    #expect(client.verifies("v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4="))
    #expect(!client.verifies("v=AAAATRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4="))
    // A server that does not extend our nonce, or sends nonsense, is refused.
    var other = SCRAMClient(password: "pencil", nonce: "abc")
    _ = other.first()
    #expect(other.final("r=xyz,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096") == nil)
    #expect(other.final("garbage") == nil)
    #expect(other.final("r=abcd,s=!!,i=4096") == nil)
    #expect(other.final("r=abcd,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=0") == nil)
  }

  /// Channel binding (RFC 5802 section 6, RFC 5929's tls-server-end-point): the GS2 header
  /// says it in the first message, and the final one carries it with the certificate's hash
  /// in `c=`, so the proof covers it.
  @Test func scramBindsToTheCertificate() {
    let serverFirst =
      "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096"
    var bound = SCRAMClient(
      password: "pencil", nonce: "rOprNGfwEbeRWgbNEkqO", binding: .serverEndPoint([1, 2, 3]))
    #expect(bound.first() == "p=tls-server-end-point,,n=,r=rOprNGfwEbeRWgbNEkqO")
    #expect(bound.binding.mechanism == "SCRAM-SHA-256-PLUS")
    let boundFinal = bound.final(serverFirst)
    #expect(boundFinal?.hasPrefix("c=cD10bHMtc2VydmVyLWVuZC1wb2ludCwsAQID,r=") == true)
    var notOffered = SCRAMClient(
      password: "pencil", nonce: "rOprNGfwEbeRWgbNEkqO", binding: .notOffered)
    #expect(notOffered.first() == "y,,n=,r=rOprNGfwEbeRWgbNEkqO")
    #expect(notOffered.binding.mechanism == "SCRAM-SHA-256")
    let notOfferedFinal = notOffered.final(serverFirst)
    #expect(notOfferedFinal?.hasPrefix("c=eSws,r=") == true)
    var unbound = SCRAMClient(password: "pencil", nonce: "rOprNGfwEbeRWgbNEkqO")
    _ = unbound.first()
    // The proofs differ: each covers its own header.
    let proofs = [boundFinal, notOfferedFinal, unbound.final(serverFirst)].map {
      $0?.split(separator: ",").last.map(String.init)
    }
    #expect(Set(proofs).count == 3)
  }
}
