import Haptics

// A WAV from code: a pattern, a renderer for an actuator, a file.
let pattern = HapticPattern(events: [.transient(at: 0, intensity: 1, sharpness: 0.7)])
let renderer = HapticRenderer(pattern: pattern, profile: .lra)
try renderer.writeWAV(to: URL(fileURLWithPath: "tap.wav"), format: .s16)
