import Foundation
import Haptics

/// The error domain of Core Haptics' errors, as in Apple's SDK.
public let CoreHapticsErrorDomain: String = "com.apple.CoreHaptics"

/// Another name for ``CoreHapticsErrorDomain``.
public let CHHapticErrorDomain: String = CoreHapticsErrorDomain

/// An error from Core Haptics, with Apple's codes (domain `com.apple.CoreHaptics`).
///
/// Modelled on the Swift overlay of Apple's SDK: a struct with a nested ``Code`` and a static
/// member per code, so both styles of iOS code work:
///
/// ```swift
/// do { try player.start(atTime: 0) }
/// catch CHHapticError.engineNotRunning { try engine.start() }
/// catch let error as CHHapticError where error.code == .invalidPatternData { … }
/// catch { print((error as NSError).code) }   // -4805, …
/// ```
///
/// Errors of the native engine (`HapticError`) become the code `HapticError.code` names;
/// AHAP decoding problems become the code for what is wrong (an unknown event type is
/// ``Code/invalidEventType``, a malformed event ``Code/badEventEntry``, …).
public struct CHHapticError: CustomNSError, LocalizedError, Hashable, Sendable {
    /// Core Haptics' error codes, with Apple's values.
    public enum Code: Int, Sendable, Hashable, CaseIterable {
        /// A player was started on an engine that is not running.
        case engineNotRunning = -4805
        /// The operation cannot be performed in the current state.
        case operationNotPermitted = -4806
        /// The engine took too long to start.
        case engineStartTimeout = -4808
        /// The hardware does not support haptics.
        case notSupported = -4809
        /// The output could not be opened (on Linux: the audio device).
        case serverInitFailed = -4810
        /// The connection to the output was lost.
        case serverInterrupted = -4811
        /// The player is no longer valid.
        case invalidPatternPlayer = -4812
        /// The pattern data was corrupt or empty.
        case invalidPatternData = -4813
        /// The pattern dictionary was corrupt.
        case invalidPatternDictionary = -4814
        /// The audio session was invalid.
        case invalidAudioSession = -4815
        /// An engine parameter was invalid.
        case invalidEngineParameter = -4816
        /// A pattern held an unknown or invalid parameter.
        case invalidParameterType = -4820
        /// A pattern held an unknown or invalid event type.
        case invalidEventType = -4821
        /// A pattern held an invalid event time.
        case invalidEventTime = -4822
        /// A pattern held an invalid event duration.
        case invalidEventDuration = -4823
        /// A pattern referred to an invalid audio resource.
        case invalidAudioResource = -4824
        /// A resource limit was reached.
        case resourceNotAvailable = -4825
        /// A pattern held an invalid event entry.
        case badEventEntry = -4830
        /// A pattern held an invalid parameter or curve entry.
        case badParameterEntry = -4831
        /// A time was invalid (negative, NaN, infinite).
        case invalidTime = -4840
        /// A file was not found.
        case fileNotFound = -4851
        /// Not enough power to play.
        case insufficientPower = -4897
        /// An uncategorised error.
        case unknownError = -4898
        /// Not enough memory (on Linux: every player slot is in use).
        case memoryError = -4899

        /// Whether `error` is a ``CHHapticError`` with this code, so that
        /// `catch CHHapticError.engineNotRunning` works as on Apple's platforms.
        public static func ~= (match: Code, error: any Error) -> Bool {
            (error as? CHHapticError)?.code == match
        }
    }

    /// The error's code.
    public let code: Code
    /// What went wrong, in one sentence.
    public let message: String
    /// What ``init(_:userInfo:)`` was given, kept whole (`userInfo` values need not be
    /// `Sendable`; they are only read).
    private let extraUserInfo: UserInfo

    /// Creates an error with a code and `userInfo`, all of which ``userInfo`` returns, as
    /// Apple's overlay keeps it; its `NSLocalizedDescriptionKey` is the ``message``.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        message = userInfo[NSLocalizedDescriptionKey] as? String ?? "Core Haptics error \(code.rawValue) (\(code))"
        extraUserInfo = UserInfo(userInfo)
    }

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
        extraUserInfo = UserInfo([:])
    }

    /// The user info given to ``init(_:userInfo:)``, with `NSLocalizedDescriptionKey` set to
    /// ``message``.
    public var userInfo: [String: Any] {
        var info = extraUserInfo.values
        info[NSLocalizedDescriptionKey] = message
        return info
    }

    /// The error as an `NSError` (domain `com.apple.CoreHaptics`, Apple's code, ``userInfo``),
    /// as Apple's overlay gives it; `error as NSError` gives the same.
    public var _nsError: NSError { NSError(domain: Self.errorDomain, code: errorCode, userInfo: userInfo) }

    public static var errorDomain: String { CoreHapticsErrorDomain }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] { userInfo }
    public var errorDescription: String? { message }

    /// Whether two errors have the same code and message (user info is not compared).
    public static func == (lhs: CHHapticError, rhs: CHHapticError) -> Bool { lhs.code == rhs.code && lhs.message == rhs.message }

    /// Hashes the code and message.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
    }

    /// Holds user info, which is only read once stored.
    private final class UserInfo: @unchecked Sendable {
        let values: [String: Any]
        init(_ values: [String: Any]) { self.values = values }
    }

    public static var engineNotRunning: Code { .engineNotRunning }
    public static var operationNotPermitted: Code { .operationNotPermitted }
    public static var engineStartTimeout: Code { .engineStartTimeout }
    public static var notSupported: Code { .notSupported }
    public static var serverInitFailed: Code { .serverInitFailed }
    public static var serverInterrupted: Code { .serverInterrupted }
    public static var invalidPatternPlayer: Code { .invalidPatternPlayer }
    public static var invalidPatternData: Code { .invalidPatternData }
    public static var invalidPatternDictionary: Code { .invalidPatternDictionary }
    public static var invalidAudioSession: Code { .invalidAudioSession }
    public static var invalidEngineParameter: Code { .invalidEngineParameter }
    public static var invalidParameterType: Code { .invalidParameterType }
    public static var invalidEventType: Code { .invalidEventType }
    public static var invalidEventTime: Code { .invalidEventTime }
    public static var invalidEventDuration: Code { .invalidEventDuration }
    public static var invalidAudioResource: Code { .invalidAudioResource }
    public static var resourceNotAvailable: Code { .resourceNotAvailable }
    public static var badEventEntry: Code { .badEventEntry }
    public static var badParameterEntry: Code { .badParameterEntry }
    public static var invalidTime: Code { .invalidTime }
    public static var fileNotFound: Code { .fileNotFound }
    public static var insufficientPower: Code { .insufficientPower }
    public static var unknownError: Code { .unknownError }
    public static var memoryError: Code { .memoryError }
}

extension CHHapticError {
    /// The native engine's error, with the code it names.
    init(_ error: HapticError) {
        self.init(Code(rawValue: error.code) ?? .unknownError, error.description)
    }

    /// An AHAP decoding failure, with the code for its first error.
    ///
    /// - Parameter fallback: the code for problems that are not about one event or parameter
    ///   (``Code/invalidPatternDictionary`` for dictionaries, ``Code/invalidPatternData`` for
    ///   files and data).
    init(_ error: AHAPError, fallback: Code) {
        let first = error.errors.first ?? error.diagnostics.first
        self.init(Self.code(for: first, fallback: fallback), error.description)
    }

    private static func code(for diagnostic: AHAPDiagnostic?, fallback: Code) -> Code {
        guard let diagnostic else { return fallback }
        let location = diagnostic.location
        let last = location.split(separator: ".").last.map(String.init) ?? ""
        if location.isEmpty && diagnostic.message == "no such file" { return .fileNotFound }
        if last.hasPrefix("EventType") { return .invalidEventType }
        if last.hasPrefix("ParameterID") { return .invalidParameterType }
        if location.contains(".Event") {
            if last == "Time" || last == "EventTime" { return .invalidEventTime }
            if last == "EventDuration" { return .invalidEventDuration }
            if last.hasPrefix("EventWaveform") { return .invalidAudioResource }
            return .badEventEntry
        }
        if location.contains(".Parameter") { return .badParameterEntry }
        if diagnostic.message.contains("pattern is empty") || diagnostic.message.contains("no usable element") {
            // Apple's dictionary reader: -4814 "Empty pattern"; files and data keep the code
            // the engine's players use for an empty pattern.
            return fallback == .invalidPatternDictionary ? .invalidPatternDictionary : .invalidPatternData
        }
        return fallback
    }

    /// Any error thrown by the native layers, as a Core Haptics error.
    static func wrapping(_ error: any Error, fallback: Code = .unknownError) -> CHHapticError {
        switch error {
        case let error as CHHapticError: error
        case let error as HapticError: CHHapticError(error)
        case let error as AHAPError: CHHapticError(error, fallback: fallback)
        default: CHHapticError(fallback, "\(error)")
        }
    }
}
