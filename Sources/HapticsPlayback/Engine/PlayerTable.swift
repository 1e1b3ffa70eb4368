/// The engine's record of its players: the slot each holds on the audio thread, the synth
/// each slot plays, the runs started and not finished, and the players held until they end.
///
/// A value guarded by the engine's lock: each method is one consistent step of a player's
/// life, so the rules live here rather than spread over the engine's call sites. Generic over
/// the synth and player classes so it can be tested without an engine.
struct PlayerTable<Synth: AnyObject, Player: AnyObject> {
    typealias CompletionHandler = @Sendable (Error?) -> Void

    /// A run that ended: its player's completion handler and the engine's hold on the player,
    /// both to be let go of outside the lock.
    struct Finished {
        var completionHandler: CompletionHandler?
        var player: Player?
    }

    /// Popped from the end, so the lowest slot is claimed first.
    private var freeSlots: [Int]
    private var synths: [Int: Synth] = [:]
    /// Synths of released players, kept until the audio thread confirms their detach, in the
    /// order the detaches were sent. Their slots are free at once: the queue is in order, so
    /// the audio thread detaches the old synth before it attaches a new one.
    private var retiring: [(slot: Int, synth: Synth)] = []
    /// The latest run started per slot; a finish of an older run is stale.
    private var latestRun: [Int: Int] = [:]
    private var activeSlots: Set<Int> = []
    private var completionHandlers: [Int: CompletionHandler] = [:]
    /// Started players, held until they finish, as Core Haptics does: a player kept only in
    /// a local variable plays to its end.
    private var playing: [Int: Player] = [:]
    private var nextRun = 1

    init(slotCount: Int) {
        freeSlots = Array((0..<slotCount).reversed())
    }

    /// Whether no started run is unfinished.
    var isIdle: Bool { activeSlots.isEmpty }

    /// Claims a free slot for a synth; nil when every slot is taken.
    mutating func claim(for synth: Synth) -> Int? {
        guard let slot = freeSlots.popLast() else { return nil }
        synths[slot] = synth
        return slot
    }

    /// Gives back a slot whose synth never reached the audio thread.
    mutating func unclaim(_ slot: Int) {
        synths[slot] = nil
        freeSlots.append(slot)
    }

    /// A player let go of its slot: its run, handler and hold end, and its synth waits for the
    /// audio thread's confirmation (``detached(_:)``). The slot is not free until ``free(_:)``.
    mutating func retire(_ slot: Int) {
        activeSlots.remove(slot)
        completionHandlers[slot] = nil
        latestRun[slot] = nil
        if let synth = synths.removeValue(forKey: slot) { retiring.append((slot, synth)) }
    }

    /// The detach of a retired slot is queued: the slot may be claimed again.
    mutating func free(_ slot: Int) {
        freeSlots.append(slot)
    }

    /// The audio thread confirmed the oldest detach of `slot`: the synth to release, outside
    /// the lock.
    mutating func detached(_ slot: Int) -> Synth? {
        guard let index = retiring.firstIndex(where: { $0.slot == slot }) else { return nil }
        return retiring.remove(at: index).synth
    }

    mutating func setCompletionHandler(_ handler: CompletionHandler?, for slot: Int) {
        completionHandlers[slot] = handler
    }

    /// A player starts: returns the new run's number, and holds the player until it ends.
    mutating func begin(_ slot: Int, player: Player) -> Int {
        let run = nextRun
        nextRun += 1
        latestRun[slot] = run
        activeSlots.insert(slot)
        playing[slot] = player
        return run
    }

    /// A start that never reached the audio thread: undone if no later start replaced it.
    /// Returns the player to let go of.
    mutating func cancel(_ slot: Int, run: Int) -> Player? {
        guard latestRun[slot] == run else { return nil }
        activeSlots.remove(slot)
        return playing.removeValue(forKey: slot)
    }

    /// The audio thread finished a run. Nil when the run is stale (restarted since, finished
    /// already, or the player released): nothing ends then.
    mutating func finish(_ slot: Int, run: Int) -> Finished? {
        guard latestRun[slot] == run else { return nil }
        latestRun[slot] = nil
        activeSlots.remove(slot)
        return Finished(completionHandler: completionHandlers[slot], player: playing.removeValue(forKey: slot))
    }
}
