import Foundation
/// A parameter value that sets the character of one event (`HapticIntensity` 0.8, …), as in
/// Apple's SDK.
open class CHHapticEventParameter {
    /// Which parameter.
    public let parameterID: CHHapticEvent.ParameterID
    /// Its value; out-of-range values are clamped when the event plays, never rejected.
    open var value: Float

    /// Creates a parameter value.
    public init(parameterID: CHHapticEvent.ParameterID, value: Float) {
        self.parameterID = parameterID
        self.value = value
    }

    // MARK: NSObject's identity

    /// The instance's class and address (`<CHHapticEventParameter: 0x…>`), as `NSObject` describes it.
    open var description: String { instanceDescription(self) }
    /// The same as ``description``.
    open var debugDescription: String { description }
    /// Whether `object` is this very instance (override to compare by value, with ``hash``).
    open func isEqual(_ object: Any?) -> Bool { object.map { $0 as AnyObject } === self }
    /// The instance's identity as a number (override with ``isEqual(_:)``).
    open var hash: Int { ObjectIdentifier(self).hashValue }
}
