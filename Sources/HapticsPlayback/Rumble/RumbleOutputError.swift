import Glibc

/// Why a rumble output cannot start or cannot go on. Each description is one line that names
/// the device and, where the user can fix something, says how.
public enum RumbleOutputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The device cannot be used: missing, not an input device, permission denied (the reason
    /// explains the udev rule), or without force feedback.
    case deviceUnavailable(device: String, reason: String)
    /// The device failed while playing, typically unplugged (`ENODEV`). The engine should stop.
    case deviceLost(device: String, reason: String)

    /// The device path (or the name the user asked for).
    public var device: String {
        switch self {
        case .deviceUnavailable(let device, _), .deviceLost(let device, _): device
        }
    }

    /// What went wrong, without the device.
    public var reason: String {
        switch self {
        case .deviceUnavailable(_, let reason), .deviceLost(_, let reason): reason
        }
    }

    public var description: String {
        switch self {
        case .deviceUnavailable(let device, let reason): "rumble device \(device): \(reason)"
        case .deviceLost(let device, let reason): "rumble device \(device) was lost: \(reason)"
        }
    }
}

extension RumbleOutputError {
    /// The error for a failure while opening or preparing `device`.
    package static func unavailable(_ device: String, _ error: ForceFeedbackDeviceError) -> RumbleOutputError {
        .deviceUnavailable(device: device, reason: openingReason(error))
    }

    /// The error for a failure while playing on `device`.
    static func lost(_ device: String, _ error: ForceFeedbackDeviceError) -> RumbleOutputError {
        .deviceLost(device: device, reason: playingReason(error))
    }

    private static func openingReason(_ error: ForceFeedbackDeviceError) -> String {
        switch error.code {
        case ENOENT, ENXIO:
            return "no such device"
        case EACCES, EPERM:
            return "permission denied; \(RumbleDevices.udevRuleOneLineHelp)"
        case ENOTTY, EISDIR:
            return "is not an input device"
        case EINVAL where error.operation == .identify:
            return "is not an input device"
        case ENODEV:
            return "the device is gone (unplugged?)"
        case ENOSPC where error.operation == .upload:
            return "no free force-feedback effect slot (other programs hold them all)"
        case EINVAL where error.operation == .upload:
            return "the driver rejected the rumble effect"
        default:
            return "\(error.operation.rawValue) failed: \(error.systemMessage)"
        }
    }

    private static func playingReason(_ error: ForceFeedbackDeviceError) -> String {
        switch error.code {
        case ENODEV: "the device was disconnected"
        case EIO: "input/output error (the device was probably unplugged)"
        default: "\(error.operation.rawValue) failed: \(error.systemMessage)"
        }
    }
}
