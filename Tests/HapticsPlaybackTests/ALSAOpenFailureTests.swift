import Foundation
import HapticsTestSupport
import Testing
@testable import HapticsPlayback

/// "No device" messages name the real cause and the fix.
@Suite("Why a device did not open")
struct ALSAOpenFailureTests {
    @Test("a busy device and a missing permission name the fix")
    func busyAndPermission() {
        #expect(
            ALSAOpenFailure.describe(device: "hw:0", code: -EBUSY).contains(
                "another program is using it: close that program, or play through the sound server with --device pulse"))
        #expect(ALSAOpenFailure.describe(device: "hw:0", code: -EACCES).contains("add your user to the 'audio' group with 'sudo usermod -aG audio $USER'"))
    }

    @Test("with no sound card, the message says whether a sound server is there or not")
    func noCardNoServer() throws {
        guard ALSAOpenFailure.soundCardCount() == 0 else {
            try Test.cancel("this machine has a sound card")
        }
        let temporary = try TemporaryFolder()
        let folder = temporary.url
        defer { withExtendedLifetime(temporary) {} }
        let none = ["PULSE_SERVER": "unix:\(folder.path)/missing", "XDG_RUNTIME_DIR": folder.path]
        #expect(
            ALSAOpenFailure.cause(device: "default", environment: none)
                == "no sound card, and no sound server (PulseAudio or PipeWire) is running for this user; see 'haptics devices'")
        // A socket left by a server that no longer answers.
        let socket = folder.appendingPathComponent("pulse/native")
        try FileManager.default.createDirectory(at: socket.deletingLastPathComponent(), withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: socket.path, contents: nil))
        let stale = ["XDG_RUNTIME_DIR": folder.path]
        if ALSAOpenFailure.pulsePluginInstalled() {
            #expect(
                ALSAOpenFailure.cause(device: "default", environment: stale)
                    == "no sound card, and the sound server at \(socket.path) does not answer; see 'haptics devices'")
        }
        #expect(ALSAOpenFailure.cause(device: "hw:1", environment: stale).hasPrefix("no sound card: only software devices are available"))
    }
}
