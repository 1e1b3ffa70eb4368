import Foundation
/// A change to a playing pattern from a time on (AHAP's `Parameter`), as in Apple's SDK.
/// Sent to a player with ``CHHapticPatternPlayer/sendParameters(_:atTime:)`` or put in a
/// pattern with ``CHHapticPattern/init(events:parameters:)``.
open class CHHapticDynamicParameter {
    /// Which control changes.
    public let parameterID: ID
    /// The control's new value.
    open var value: Float
    /// Seconds from the pattern's start (in a pattern) or from the send time (sent to a player).
    open var relativeTime: TimeInterval

    /// Creates a parameter change.
    public init(parameterID: ID, value: Float, relativeTime time: TimeInterval) {
        self.parameterID = parameterID
        self.value = value
        relativeTime = time
    }

    // MARK: NSObject's identity

    /// The instance's class and address (`<CHHapticDynamicParameter: 0x…>`), as `NSObject` describes it.
    open var description: String { instanceDescription(self) }
    /// The same as ``description``.
    open var debugDescription: String { description }
    /// Whether `object` is this very instance (override to compare by value, with ``hash``).
    open func isEqual(_ object: Any?) -> Bool { object.map { $0 as AnyObject } === self }
    /// The instance's identity as a number (override with ``isEqual(_:)``).
    open var hash: Int { ObjectIdentifier(self).hashValue }
}
