import Haptics

let pattern = HapticPattern(feedback: .impact(weight: .heavy, intensity: 0.7))  // user settings applied
let same = HapticFeedback(name: "impact(weight: heavy, intensity: 0.7)")
let presets = PresetLibrary.all    // [PresetInfo]: name, category, meaning, aliases, description
