import CoreHaptics   // also brings Foundation, as on iOS

let supported = CHHapticEngine.capabilitiesForHardware().supportsHaptics   // is there an output?
let engine = try CHHapticEngine()
try engine.start()
let tap = CHHapticEvent(eventType: .hapticTransient, parameters: [
    CHHapticEventParameter(parameterID: .hapticIntensity, value: 0.8)], relativeTime: 0)
let player = try engine.makePlayer(with: try CHHapticPattern(events: [tap], parameters: []))
try player.start(atTime: CHHapticTimeImmediate)
