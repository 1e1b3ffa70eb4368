import FoundationEssentials
import Glibc
import Haptics

struct ShowCommand: Command {
    static let name = "show"
    static let spec = CommandSpec(
        name: name,
        abstract: "Describe a pattern: duration, counts and a readable timeline.",
        discussion: """
            Loads PATTERN (a preset, an AHAP file or - for standard input) in lenient mode and \
            prints its duration (as Core Haptics computes it: the latest event end, including a \
            continuous event's release, parameter time or curve end), how many elements of each \
            kind it has, and a timeline with one line per element, sorted by time: events with \
            their intensity, sharpness and duration, parameters with their value, curves with \
            their points. Audio events (AudioContinuous tones, AudioCustom sound files) play with \
            `play`, on the audio channels beside the haptics, and `render` mixes them in with \
            --audio; a note says so when there are any. Warnings go to standard error.

            With --json, standard output is one JSON object (the README's JSON style: keys \
            sorted after hapticsVersion, numbers rounded to 6 decimals):

              {"hapticsVersion": "0.4.0", "source": "Boing.ahap", "ahapVersion": 1, "duration": 0.27,
               "metadata": {"Project": "...", ...},
               "counts": {"events": 2, "transients": 1, "continuous": 1,
                          "audioContinuous": 0, "audioCustom": 0,
                          "parameters": 0, "curves": 2},
               "events": [{"time": 0, "type": "HapticTransient", "duration": 0, "end": 0,
                           "haptic": true, "intensity": 0.8, "sharpness": 0.4,
                           "parameters": [{"id": "HapticIntensity", "value": 0.8}, ...],
                           "waveformPath": null}, ...],
               "parameters": [{"time": 0.5, "id": "HapticIntensityControl",
                               "value": 0.4}, ...],
               "curves": [{"time": 0.015, "id": "HapticIntensityControl", "end": 0.265,
                           "controlPoints": [{"time": 0, "value": 1}, ...]}, ...]}

            Times are in seconds from the pattern's start; each array is sorted by time (equal \
            times keep the pattern's order). "intensity" and "sharpness" are the values the event \
            plays with (written or default, clamped), null for audio events; "parameters" are the \
            event parameters as written; "end" is when the element stops contributing.

            Exit status: 0 on success, 1 when the pattern is invalid.

            Examples:
              haptics show Boing.ahap
              haptics show success --json | jq .duration
            """,
        arguments: PatternInput.arguments,
        [
            .flag("json", help: "Print one JSON object instead of text.")
        ]
    )

    var input: PatternInput
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        input = try PatternInput(arguments)
        json = arguments.flag("json")
    }

    func run() throws {
        let loaded = try input.load()
        reportWarnings(loaded.diagnostics)
        let summary = PatternSummary(source: loaded.name, pattern: loaded.pattern)
        if json {
            try JSONDocument.print(summary)
        } else {
            let timeline = PatternTimeline(pattern: loaded.pattern, name: loaded.name)
            writeStandardOutput(timeline.text)
            if let note = timeline.audioNote { writeStandardError(note) }
            // A picture only for people: scripts reading the text get the table alone.
            if isatty(STDOUT_FILENO) == 1 {
                writeStandardOutput("\n" + Sparkline.timeline(of: loaded.pattern))
            }
        }
    }
}
