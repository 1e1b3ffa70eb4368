import Synchronization

/// A fixed-capacity single-producer, single-consumer ring of values.
///
/// The real-time side (consumer of commands, producer of events) never waits and never
/// allocates: positions are atomics, slots are preallocated. Several threads may produce only
/// if they serialise among themselves (``HapticEngine/send(_:)`` does that with the engine's
/// producer lock, which the real-time thread never touches).
///
/// Slots are initialised when pushed and moved out when popped, never all at creation: a
/// command is a few hundred bytes, and filling 4,096 of them with `nil` cost a millisecond and
/// over a MiB of resident memory at every engine start, pages a short play never touches.
final class SPSCQueue<Element>: @unchecked Sendable {
    /// Initialised only between `head` and `tail`.
    private let slots: UnsafeMutablePointer<Element>
    /// How many values the ring holds: a power of two, so a position becomes a slot with a
    /// mask instead of a division.
    let capacity: Int
    /// `capacity - 1`: the low bits of a position, which are its slot.
    private let mask: Int
    /// Next slot to read / to write, counting forever (wrapped with `& mask`).
    private let head = Atomic<Int>(0)
    private let tail = Atomic<Int>(0)

    /// Creates a ring holding at least `capacity` values (at least one), rounded up to the
    /// next power of two.
    init(capacity: Int) {
        let wanted = max(capacity, 1)
        precondition(wanted <= 1 << 30, "SPSCQueue capacity \(capacity) is too large")
        self.capacity = wanted == 1 ? 1 : 1 << (Int.bitWidth - (wanted - 1).leadingZeroBitCount)
        mask = self.capacity - 1
        slots = .allocate(capacity: self.capacity)
    }

    deinit {
        for position in head.load(ordering: .acquiring)..<tail.load(ordering: .acquiring) {
            (slots + (position & mask)).deinitialize(count: 1)
        }
        slots.deallocate()
    }

    /// Adds a value; false when full.
    func push(_ value: Element) -> Bool {
        let t = tail.load(ordering: .relaxed)
        guard t - head.load(ordering: .acquiring) < capacity else { return false }
        (slots + (t & mask)).initialize(to: value)
        tail.store(t + 1, ordering: .releasing)
        return true
    }

    /// The oldest value, left in place (consumer only).
    func peek() -> Element? {
        let h = head.load(ordering: .relaxed)
        guard h < tail.load(ordering: .acquiring) else { return nil }
        return slots[h & mask]
    }

    /// Takes the oldest value, if any.
    func pop() -> Element? {
        let h = head.load(ordering: .relaxed)
        guard h < tail.load(ordering: .acquiring) else { return nil }
        let value = (slots + (h & mask)).move()
        head.store(h + 1, ordering: .releasing)
        return value
    }
}
