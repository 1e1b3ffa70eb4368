import Haptics

// A pattern in code: two taps, then a vibration that fades out.
let pattern = HapticPattern(events: [
    .transient(at: 0, intensity: 0.6, sharpness: 0.5),
    .transient(at: 0.13, intensity: 1, sharpness: 0.8),
    .continuous(at: 0.3, duration: 0.4, intensity: 0.7, sharpness: 0.2, release: 0.3),
], curves: [
    HapticParameterCurve(.hapticIntensityControl, at: 0.3, points: [(0, 1), (0.4, 0.2)]),
])

// Play it: the engine owns the device and a clock; players take commands stamped on it.
let engine = HapticEngine(device: "default", profile: .wideband)
try engine.start()
let player = try engine.makeAdvancedPlayer(with: pattern)
player.completionHandler = { _ in print("done") }
try player.start(atTime: engine.currentTime + 0.05)
try player.sendParameters([HapticDynamicParameter(.hapticIntensityControl, 0.5)],
                          atTime: engine.currentTime + 0.2)

// Named feedback, as in SwiftUI, on a shared engine:
try Haptics.play(.success)
try Haptics.play(.impact(weight: .heavy, intensity: 0.7))

// Files, rendering, rumble:
let document = try AHAPDecoder().decode(contentsOf: URL(fileURLWithPath: "boing.ahap"))
let signal = HapticRenderer.render(document.pattern, profile: .lra)      // samples, stats
let mixed = HapticRenderer.render(document.pattern, profile: .dualsense, includingAudio: true)
let motors = RumbleRenderer.timeline(document.pattern)                  // [time_ms, strong, weak]
let rumble = HapticEngine(rumble: { try RumbleDevices.open(nil) })      // same players, on a gamepad
