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
}
