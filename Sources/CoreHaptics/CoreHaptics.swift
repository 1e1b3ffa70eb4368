// Core Haptics' API with Apple's names, over the native engine (`HapticsCore`,
// `HapticsPlayback`, `HapticsRender`). iOS code that does `import CoreHaptics` gets Foundation
// too, as on Apple's platforms, so `URL`, `Data`, `TimeInterval` and `NSError` are in scope.
@_exported import Foundation

/// The time meaning "as soon as possible", for `start(atTime:)` and the other player commands.
public let CHHapticTimeImmediate: TimeInterval = 0

/// Identifies an audio file registered with ``CHHapticEngine/registerAudioResource(_:options:)``.
/// Registered IDs are never 0.
public typealias CHHapticAudioResourceID = Int

/// The keys of ``CHHapticEngine/registerAudioResource(_:options:)``'s options, as in Apple's
/// SDK (where they are `NSString`s).
public typealias CHHapticAudioResourceKey = NSString

/// Whether the engine fades an audio resource in and out with the event's envelope
/// (a `Bool`; default `true`).
public let CHHapticAudioResourceKeyUseVolumeEnvelope: String = "UseVolumeEnvelope"

/// Whether an audio resource loops for its event's duration (a `Bool`; default `false`).
public let CHHapticAudioResourceKeyLoopEnabled: String = "LoopEnabled"

/// The block an advanced player calls when it finishes, as in Apple's SDK. Runs on the
/// engine's notification thread, not the main thread.
public typealias CHHapticAdvancedPatternPlayerCompletionHandler = ((any Error)?) -> Void

/// Holds a value the compiler cannot prove `Sendable`, such as one of Core Haptics' handler
/// closures (which, as in Apple's SDK, are not `@Sendable`). Every such value is handed from
/// the thread that set it to the engine's threads exactly as Apple's engine does; each use
/// documents the thread it runs on.
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
}

extension Float {
    /// The value as the decimal it was written as: `Float(0.7)` becomes `0.7`, not
    /// `0.699999988079071`, so values set from iOS code read back exactly after an export.
    var decimal: Double { Double("\(self)") ?? Double(self) }
}
