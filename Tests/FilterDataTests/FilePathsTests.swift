import Foundation
import TestSupport
import Testing

@testable import FilterData

/// Paths and files written whole. (Serialized: the tests set the process's umask.)
@Suite(.serialized) struct FilePathsTests {
  @Test func theUmaskIsReadWithoutChangingIt() {
    // (umask(2) is the only other way to read it, and it sets it: compare once, then check
    // that reading left it as it was.)
    let mask = umask(0o027)
    defer { umask(mask) }
    #expect(FilePaths.currentUmask == 0o027)
    #expect(FilePaths.currentUmask == 0o027)
    #expect(umask(0o027) == 0o027)
  }

  @Test func aNewFileGetsTheModeLessTheUmaskAndAnOldOneKeepsItsOwn() throws {
    let folder = try TemporaryFiles.makeFolder("paths")
    let path = folder.appendingPathComponent("new.txt").path
    let mask = umask(0o022)
    defer { umask(mask) }
    #expect(FilePaths.writeAtomically(Array("a".utf8), to: path, mode: 0o666) == nil)
    var status = stat()
    #expect(stat(path, &status) == 0 && status.st_mode & 0o777 == 0o644)
    #expect(chmod(path, 0o600) == 0)
    #expect(FilePaths.writeAtomically(Array("b".utf8), to: path, mode: 0o666) == nil)
    #expect(stat(path, &status) == 0 && status.st_mode & 0o777 == 0o600)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "b")
  }
}
