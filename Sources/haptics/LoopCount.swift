import ArgumentParser

/// The value of `play --loop`: a count, or forever for a bare `--loop`.
///
/// A case of its own rather than a sentinel count, so that `--loop 0` is refused as a count
/// below 1 instead of meaning forever.
enum LoopCount: Equatable, ExpressibleByArgument {
    case times(Int)
    case forever

    init?(argument: String) {
        if argument == OptionalValues.forever {
            self = .forever
        } else if let count = Int(argument) {
            self = .times(count)
        } else {
            return nil
        }
    }
}
