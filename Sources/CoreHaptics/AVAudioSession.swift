import Foundation
/// Stands in for AVFoundation's audio session so that `CHHapticEngine(audioSession:)`
/// compiles unchanged.
///
/// On Linux there is no audio session: no category, no interruptions from phone calls, no
/// ducking. An engine created with a session plays exactly as one created with
/// ``CHHapticEngine/init()``, on the output chosen the same way. Apps that configure the
/// session (`setCategory`, `setActive`) need those calls behind `#if os(iOS)`.
open class AVAudioSession {
    nonisolated(unsafe) private static let shared = AVAudioSession()

    /// The process's one session, as on Apple's platforms.
    open class func sharedInstance() -> AVAudioSession { shared }

    /// Creates a session; every session behaves the same on Linux.
    public init() {}
}
