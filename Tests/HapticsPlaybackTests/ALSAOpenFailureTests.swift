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

    @Test("a sound server that answers is asked of libpulse, also at PULSE_RUNTIME_PATH, and is never called missing")
    func runningServerIsFound() async throws {
        try await PulseAudioServer.withServer { server in
            var atRuntimePath = server.environment
            atRuntimePath["PULSE_SERVER"] = nil
            #expect(ALSAOpenFailure.serverAnswer(environment: atRuntimePath)?.answers == true)
            #expect(ALSAOpenFailure.serverAnswer(environment: server.environment)?.answers == true)
            #expect(ALSAOpenFailure.serverAnswer(environment: nil)?.answers == true, "libpulse looks at this process's PULSE_SERVER")
            for device in ["default", "pulse", "hw:0", "plughw:CARD=PCH,DEV=0"] {
                let cause = ALSAOpenFailure.cause(device: device, environment: atRuntimePath)
                #expect(!cause.contains("no sound server") && !cause.contains("does not answer"), "\(device): \(cause)")
            }
        }
    }

    @Test("a misspelt name gets its did-you-mean first, a card name the card's cause, never the server's")
    func typosAndCardNames() {
        #expect(ALSAOpenFailure.suggestion(for: "nul") == "null")
        #expect(ALSAOpenFailure.suggestion(for: "plughw:0") == nil && ALSAOpenFailure.suggestion(for: "null") == nil)
        #expect(ALSAOpenFailure.describe(device: "nul", code: -ENOENT).hasPrefix("did you mean 'null'? "))
        let card = ALSAOpenFailure.cause(device: "plughw:CARD=NoSuchCard,DEV=0")
        #expect(card.hasPrefix("no sound card") || card.hasPrefix("is the card connected"), "\(card)")
        #expect(!card.contains("sound server"))
    }
}
