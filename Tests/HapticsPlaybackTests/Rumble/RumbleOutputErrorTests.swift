import Glibc
@testable import HapticsPlayback
import Testing

@Suite("Rumble output errors")
struct RumbleOutputErrorTests {
    @Test("permission denied explains the udev rule, on one line", arguments: [EACCES, EPERM])
    func permissionDenied(code: Int32) {
        let error = RumbleOutputError.unavailable("/dev/input/event3", ForceFeedbackDeviceError(.open, code: code))
        guard case .deviceUnavailable(let device, let reason) = error else {
            Issue.record("expected deviceUnavailable, got \(error)")
            return
        }
        #expect(device == "/dev/input/event3")
        #expect(reason.hasPrefix("permission denied"))
        #expect(reason.contains(RumbleDevices.udevRule))
        #expect(reason.contains(RumbleDevices.udevRuleFile))
        #expect(!error.description.contains("\n"))
        #expect(error.description.hasPrefix("rumble device /dev/input/event3: permission denied"))
    }

    @Test(
        "opening errors read as the user would say them",
        arguments: [
            (ForceFeedbackDeviceError.Operation.open, ENOENT, "no such device"),
            (.identify, ENOTTY, "is not an input device"),
            (.identify, EINVAL, "is not an input device"),
            (.open, EISDIR, "is not an input device"),
            (.upload, ENOSPC, "no free force-feedback effect slot (other programs hold them all)"),
            (.upload, EINVAL, "the driver rejected the rumble effect"),
        ])
    func openingReasons(operation: ForceFeedbackDeviceError.Operation, code: Int32, reason: String) {
        let error = RumbleOutputError.unavailable("/dev/x", ForceFeedbackDeviceError(operation, code: code))
        #expect(error == .deviceUnavailable(device: "/dev/x", reason: reason))
    }

    @Test("errors while playing are deviceLost, an unplug named as such")
    func playingReasons() {
        #expect(
            RumbleOutputError.lost("/dev/p", ForceFeedbackDeviceError(.write, code: ENODEV))
                == .deviceLost(device: "/dev/p", reason: "the device was disconnected"))
        let other = RumbleOutputError.lost("/dev/p", ForceFeedbackDeviceError(.upload, code: EBADF))
        #expect(other.reason == "upload failed: \(String(cString: strerror(EBADF)))")
    }

    @Test("the README help contains the exact rules and the reload steps")
    func udevHelp() {
        #expect(RumbleDevices.udevRule == #"SUBSYSTEM=="input", KERNEL=="event*", ENV{ID_INPUT_JOYSTICK}=="1", TAG+="uaccess""#)
        #expect(RumbleDevices.udevRuleHelp.contains("echo '\(RumbleDevices.udevRule)' | sudo tee /etc/udev/rules.d/70-haptics.rules"))
        #expect(RumbleDevices.udevRuleHelp.contains(#"MODE="0660", GROUP="input""#))
        #expect(RumbleDevices.udevRuleHelp.contains("sudo udevadm control --reload && sudo udevadm trigger"))
        #expect(RumbleDevices.udevRuleHelp.contains("usermod -aG input"))
    }
}
