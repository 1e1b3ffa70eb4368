/// The values `play`'s optional-value options stand for when given bare: `--loop` plays
/// forever, `--rumble` takes the first capable device (see ``ArgumentSpec/OptionalValue``).
enum OptionalValues {
    static let forever = 0
    static let automatic = "auto"

    /// A count after `--loop`; anything else is the next argument.
    static let loopCount = ArgumentSpec.OptionalValue(bare: String(forever)) { Int($0) != nil }

    /// A path under /dev/ or an `eventN` name after `--rumble`, so `haptics play --rumble
    /// success` still reads `success` as the pattern; `--rumble=NAME` passes any name (part of
    /// a controller's).
    static let rumbleDevice = ArgumentSpec.OptionalValue(bare: automatic) { $0.hasPrefix("/dev/") || isEventName($0) }
}

/// `event17`: what `^event[0-9]+$` matched (Foundation's regular expressions are not linked).
private func isEventName(_ word: String) -> Bool {
    let digits = word.dropFirst("event".count)
    return word.hasPrefix("event") && !digits.isEmpty && digits.allSatisfy { ("0"..."9").contains($0) }
}
