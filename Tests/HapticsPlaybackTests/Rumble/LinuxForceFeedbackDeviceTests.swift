import Foundation
import Glibc
import HapticsPlayback
import HapticsTestSupport
import Testing

/// The real device on what this machine has: no input devices, so the failures users meet
/// when they point `--rumble` at the wrong thing.
@Suite("Linux force-feedback device, without hardware")
struct LinuxForceFeedbackDeviceTests {
    @Test("opening a missing path is deviceUnavailable naming it")
    func missingPath() {
        let path = "/dev/input/event-haptics-test-missing"
        let error = #expect(throws: RumbleOutputError.self) { try RumbleDevices.open(path: path) }
        #expect(error == .deviceUnavailable(device: path, reason: "no such device"))
        #expect(error?.description == "rumble device \(path): no such device")
    }

    @Test("the seam reports the failing call and errno")
    func seamError() {
        let error = #expect(throws: ForceFeedbackDeviceError.self) {
            try LinuxForceFeedbackDevice(path: "/nonexistent/event0")
        }
        #expect(error == ForceFeedbackDeviceError(.open, code: ENOENT))
    }

    @Test("/dev/null is not an input device")
    func devNull() throws {
        try #require(FileManager.default.fileExists(atPath: "/dev/null"))
        let seamError = #expect(throws: ForceFeedbackDeviceError.self) { try LinuxForceFeedbackDevice(path: "/dev/null") }
        #expect(seamError == ForceFeedbackDeviceError(.identify, code: ENOTTY))
        let error = #expect(throws: RumbleOutputError.self) { try RumbleDevices.open("/dev/null") }
        #expect(error == .deviceUnavailable(device: "/dev/null", reason: "is not an input device"))
    }

    @Test("a regular file and a directory are not input devices")
    func regularFileAndDirectory() throws {
        let directory = try TemporaryFolder()
        let file = directory.path + "/event0"
        try Data("not a device".utf8).write(to: URL(fileURLWithPath: file))
        for path in [file, directory.path] {
            let error = #expect(throws: RumbleOutputError.self) { try RumbleDevices.open(path: path) }
            #expect(error == .deviceUnavailable(device: path, reason: "is not an input device"))
        }
    }

    @Test("a failed open leaves no descriptor behind")
    func noDescriptorLeak() throws {
        let before = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
        for _ in 0..<50 { _ = try? LinuxForceFeedbackDevice(path: "/dev/null") }
        let after = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
        // Other tests run in parallel and may hold a few descriptors for a moment; 50 leaked
        // ones would not hide under that.
        #expect(after - before < 10)
    }
}
