import Foundation
/// A dynamic parameter moving linearly through control points (AHAP's `ParameterCurve`), as in
/// Apple's SDK. Core Haptics plays at most 16 points per curve; later ones are ignored.
open class CHHapticParameterCurve {
    /// One point of a curve: a value reached at a time relative to the curve's start.
    open class ControlPoint {
        /// Seconds from the curve's start.
        open var relativeTime: TimeInterval
        /// The control's value there.
        open var value: Float

        /// Creates a point.
        public init(relativeTime time: TimeInterval, value: Float) {
            relativeTime = time
            self.value = value
        }

        // MARK: NSObject's identity

        /// The instance's class and address (`<ControlPoint: 0x…>`), as `NSObject` describes it.
        open var description: String { instanceDescription(self) }
        /// The same as ``description``.
        open var debugDescription: String { description }
        /// Whether `object` is this very instance (override to compare by value, with ``hash``).
        open func isEqual(_ object: Any?) -> Bool { object.map { $0 as AnyObject } === self }
        /// The instance's identity as a number (override with ``isEqual(_:)``).
        open var hash: Int { ObjectIdentifier(self).hashValue }
    }

    /// Which control the curve drives.
    public let parameterID: CHHapticDynamicParameter.ID
    /// Seconds from the pattern's start to the curve's start.
    open var relativeTime: TimeInterval
    /// The points, times relative to the curve's start.
    public let controlPoints: [ControlPoint]

    /// Creates a curve.
    public init(parameterID: CHHapticDynamicParameter.ID, controlPoints: [ControlPoint], relativeTime: TimeInterval) {
        self.parameterID = parameterID
        self.controlPoints = controlPoints
        self.relativeTime = relativeTime
    }

    // MARK: NSObject's identity

    /// The instance's class and address (`<CHHapticParameterCurve: 0x…>`), as `NSObject` describes it.
    open var description: String { instanceDescription(self) }
    /// The same as ``description``.
    open var debugDescription: String { description }
    /// Whether `object` is this very instance (override to compare by value, with ``hash``).
    open func isEqual(_ object: Any?) -> Bool { object.map { $0 as AnyObject } === self }
    /// The instance's identity as a number (override with ``isEqual(_:)``).
    open var hash: Int { ObjectIdentifier(self).hashValue }
}
