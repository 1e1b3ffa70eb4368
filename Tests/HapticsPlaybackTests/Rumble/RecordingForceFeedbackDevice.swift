import CLinuxInput
import Glibc
import HapticsPlayback
import Synchronization

/// A force-feedback device that records every call and behaves like the kernel where a rumble
/// output relies on it: it assigns the lowest free slot to an id -1 upload, rejects an upload,
/// play or erase of an id it never assigned (EINVAL), and fails every call after close (EBADF).
/// Failures can be injected per call. Thread-safe, so stop() can race setMotors().
final class RecordingForceFeedbackDevice: ForceFeedbackDevice, Sendable {
    /// What an upload carried.
    struct Upload: Equatable, CustomStringConvertible {
        var type: Int32
        var id: Int16
        var replayLength: UInt16
        var strong: UInt16 = 0
        var weak: UInt16 = 0
        var periodicMagnitude: Int16 = 0
        var waveform: UInt16 = 0
        var period: UInt16 = 0

        var description: String {
            type == FF_RUMBLE
                ? "upload(rumble id \(id) strong \(strong) weak \(weak) length \(replayLength))"
                : "upload(type \(type) id \(id) waveform \(waveform) magnitude \(periodicMagnitude) length \(replayLength))"
        }
    }

    enum Call: Equatable, CustomStringConvertible {
        case name
        case supportedEffects
        case upload(Upload)
        case erase(Int16)
        case write(type: UInt16, code: UInt16, value: Int32)
        case close

        var description: String {
            switch self {
            case .name: "name"
            case .supportedEffects: "supportedEffects"
            case .upload(let upload): upload.description
            case .erase(let id): "erase(\(id))"
            case .write(let type, let code, let value): "write(type \(type) code \(code) value \(value))"
            case .close: "close"
            }
        }
    }

    private struct State {
        var calls: [Call] = []
        var uploadCount = 0
        var assignedIDs: Set<Int16> = []
        var closed = false
        var failures: [ForceFeedbackDeviceError.Operation: Int32] = [:]
    }

    let path: String
    let deviceName: String
    let capabilities: ForceFeedbackCapabilities
    /// The first id handed out; not 0, so a test cannot pass by assuming 0.
    let firstID: Int16
    private let state = Mutex(State())

    init(
        path: String = "/dev/input/event7", name: String = "Test Pad",
        capabilities: ForceFeedbackCapabilities = .memlessRumblePad, firstID: Int16 = 3
    ) {
        self.path = path
        self.deviceName = name
        self.capabilities = capabilities
        self.firstID = firstID
    }

    var calls: [Call] { state.withLock { $0.calls } }
    var isClosed: Bool { state.withLock { $0.closed } }
    var uploadCount: Int { state.withLock { $0.uploadCount } }
    var uploads: [Upload] {
        calls.compactMap { if case .upload(let upload) = $0 { upload } else { nil } }
    }

    /// Makes every later call of `operation` fail with `errno` `code`.
    func fail(_ operation: ForceFeedbackDeviceError.Operation, with code: Int32) {
        state.withLock { $0.failures[operation] = code }
    }

    private func record(
        _ call: Call, as operation: ForceFeedbackDeviceError.Operation
    ) throws(ForceFeedbackDeviceError) {
        let failure: Int32? = state.withLock { state in
            state.calls.append(call)
            if state.closed { return EBADF }
            return state.failures[operation]
        }
        if let failure { throw ForceFeedbackDeviceError(operation, code: failure) }
    }

    func name() throws(ForceFeedbackDeviceError) -> String {
        try record(.name, as: .queryName)
        return deviceName
    }

    func supportedEffects() throws(ForceFeedbackDeviceError) -> ForceFeedbackCapabilities {
        try record(.supportedEffects, as: .queryCapabilities)
        return capabilities
    }

    func upload(_ effect: inout ff_effect) throws(ForceFeedbackDeviceError) {
        var upload = Upload(type: Int32(effect.type), id: effect.id, replayLength: effect.replay.length)
        if effect.type == FF_RUMBLE {
            upload.strong = effect.u.rumble.strong_magnitude
            upload.weak = effect.u.rumble.weak_magnitude
        } else if effect.type == FF_PERIODIC {
            upload.periodicMagnitude = effect.u.periodic.magnitude
            upload.waveform = effect.u.periodic.waveform
            upload.period = effect.u.periodic.period
        }
        state.withLock { $0.uploadCount += 1 }
        try record(.upload(upload), as: .upload)
        guard capabilities.supports(Int32(effect.type)) else { throw ForceFeedbackDeviceError(.upload, code: EINVAL) }
        let id = effect.id
        let assigned: Int16? = state.withLock { state in
            if id == -1 {
                let free = (firstID..<Int16(firstID + 16)).first { !state.assignedIDs.contains($0) }
                if let free { state.assignedIDs.insert(free) }
                return free
            }
            return state.assignedIDs.contains(id) ? id : nil
        }
        guard let assigned else { throw ForceFeedbackDeviceError(.upload, code: id == -1 ? ENOSPC : EINVAL) }
        effect.id = assigned
    }

    func erase(effectID: Int16) throws(ForceFeedbackDeviceError) {
        try record(.erase(effectID), as: .erase)
        let known = state.withLock { $0.assignedIDs.remove(effectID) != nil }
        guard known else { throw ForceFeedbackDeviceError(.erase, code: EINVAL) }
    }

    func write(_ event: input_event) throws(ForceFeedbackDeviceError) {
        try record(.write(type: event.type, code: event.code, value: event.value), as: .write)
        guard event.type == EV_FF else { throw ForceFeedbackDeviceError(.write, code: EINVAL) }
        if event.code != FF_GAIN {
            let known = state.withLock { $0.assignedIDs.contains(Int16(event.code)) }
            guard known else { throw ForceFeedbackDeviceError(.write, code: EINVAL) }
        }
    }

    func close() {
        state.withLock { state in
            state.calls.append(.close)
            state.closed = true
            state.assignedIDs.removeAll()
        }
    }
}

extension ForceFeedbackCapabilities {
    /// What an ff-memless game pad (xpad, hid-sony, hid-playstation…) reports: rumble, the
    /// periodic waveforms memless emulates, gain, 16 effects.
    static let memlessRumblePad = ForceFeedbackCapabilities(
        codes: [FF_RUMBLE, FF_PERIODIC, FF_SQUARE, FF_TRIANGLE, FF_SINE, FF_GAIN].map { Int32($0) },
        simultaneousEffects: 16)
}

/// Shorthands for the events a rumble output writes.
enum Expected {
    static func play(_ id: Int16) -> RecordingForceFeedbackDevice.Call {
        .write(type: UInt16(EV_FF), code: UInt16(id), value: 1)
    }
    static func stop(_ id: Int16) -> RecordingForceFeedbackDevice.Call {
        .write(type: UInt16(EV_FF), code: UInt16(id), value: 0)
    }
    static func gain(_ value: Int32) -> RecordingForceFeedbackDevice.Call {
        .write(type: UInt16(EV_FF), code: UInt16(FF_GAIN), value: value)
    }
    static func rumble(id: Int16, strong: UInt16, weak: UInt16) -> RecordingForceFeedbackDevice.Call {
        .upload(.init(type: Int32(FF_RUMBLE), id: id, replayLength: 0, strong: strong, weak: weak))
    }
}
