import Haptics
import HapticsFormats

// snippet.convert
// One pattern, every platform: what a format cannot hold is noted, one note per kind.
let pattern = HapticPattern(feedback: .success)
var notes = ConversionNotes()
let clip = LofeltHaptic.encode(pattern, notes: &notes)                 // .haptic
let android = AndroidVibration(pattern, notes: &notes)                 // waveform, envelope, primitives
let kotlin = android.kotlin(name: "success")
let web = WebVibration(pattern, notes: &notes).javaScript(name: "success")
let back = try LofeltHaptic.pattern(from: clip, notes: &notes)         // Meta's rules
for note in notes.notes { print(note) }
// snippet.end

// snippet.analyze
// Audio to haptics: a sound file becomes a pattern of taps and a continuous layer.
let result = try AudioAnalyzer(options: AnalysisOptions()).analyze(contentsOf: "explosion.wav")
let felt = result.pattern()
let same = try AudioAnalyzer().analyze(AudioFile(contentsOf: "explosion.wav"))
// snippet.end
