import FoundationEssentials

/// `--loop [N]` and `--rumble [DEVICE]` take an optional value, where the parser's options
/// always take one. Before parsing, a bare `--loop` becomes `--loop=0` (forever) and a bare
/// `--rumble` becomes `--rumble=auto` (the first capable device). A following token counts
/// as the value only if it unmistakably is one (a count for --loop; a path under /dev/ or an
/// `eventN` name for --rumble), so `haptics play --rumble success` still reads `success` as
/// the pattern. `--rumble=NAME` always passes a value (e.g. part of a controller's name).
enum OptionalValues {
    static let forever = 0
    static let automatic = "auto"

    static func normalize(_ arguments: [String]) -> [String] {
        // Only `play` has these optional-value options (`render --rumble` is a flag).
        guard arguments.first == "play" else { return arguments }
        var result: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            let next = index + 1 < arguments.count ? arguments[index + 1] : nil
            switch argument {
            case "--loop":
                if let next, Int(next) != nil {
                    result += ["--loop=\(next)"]
                    index += 1
                } else {
                    result.append("--loop=\(forever)")
                }
            case "--rumble":
                if let next, next.hasPrefix("/dev/") || isEventName(next) {
                    result += ["--rumble=\(next)"]
                    index += 1
                } else {
                    result.append("--rumble=\(automatic)")
                }
            case "--":
                result += arguments[index...]
                return result
            default:
                result.append(argument)
            }
            index += 1
        }
        return result
    }
}

/// `event17`: what `^event[0-9]+$` matched (Foundation's regular expressions are not linked).
private func isEventName(_ word: String) -> Bool {
    let digits = word.dropFirst("event".count)
    return word.hasPrefix("event") && !digits.isEmpty && digits.allSatisfy { ("0"..."9").contains($0) }
}
