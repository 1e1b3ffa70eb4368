/// The key names of AHAP files, grouped by the object they belong in.
enum AHAPKey {
    static let version = "Version"
    static let metadata = "Metadata"
    static let pattern = "Pattern"

    static let event = "Event"
    static let parameter = "Parameter"
    static let parameterCurve = "ParameterCurve"

    static let time = "Time"
    static let eventTime = "EventTime"
    static let parameterTime = "ParameterTime"
    static let eventType = "EventType"
    static let eventDuration = "EventDuration"
    static let eventParameters = "EventParameters"
    static let waveformPath = "EventWaveformPath"
    static let waveformUsesVolumeEnvelope = "EventWaveformUseVolumeEnvelope"
    static let waveformLoopEnabled = "EventWaveformLoopEnabled"
    static let parameterID = "ParameterID"
    static let parameterValue = "ParameterValue"
    static let controlPoints = "ParameterCurveControlPoints"

    static let project = "Project"
    static let created = "Created"
    static let description = "Description"

    static let topLevelKeys = [version, metadata, pattern]
    static let elementKeys = [event, parameter, parameterCurve]
    static let eventKeys = [
        time, eventTime, eventType, eventDuration, eventParameters,
        waveformPath, waveformUsesVolumeEnvelope, waveformLoopEnabled,
    ]
    static let eventParameterKeys = [parameterID, parameterValue]
    static let parameterKeys = [parameterID, time, parameterTime, parameterValue]
    static let curveKeys = [parameterID, time, parameterTime, controlPoints]
    static let controlPointKeys = [time, parameterTime, parameterValue]

    /// Names Apple's prose documentation uses for keys that are spelled differently in files.
    static let documentedMisnomers = ["Duration": eventDuration, "Value": parameterValue]
}
