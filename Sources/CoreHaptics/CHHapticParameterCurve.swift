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
}
