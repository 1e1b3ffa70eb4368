import Synchronization

/// A fixed-capacity single-producer, single-consumer ring of values.
///
/// The real-time side (consumer of commands, producer of events) never waits and never
/// allocates: positions are atomics, slots are preallocated. Several threads may produce only
/// if they serialise among themselves (``CommandQueue`` does that with a lock the real-time
/// thread never touches).
final class SPSCQueue<Element>: @unchecked Sendable {
    private let slots: UnsafeMutablePointer<Element?>
    private let capacity: Int
    /// Next slot to read / to write, counting forever (wrapped with `% capacity`).
    private let head = Atomic<Int>(0)
    private let tail = Atomic<Int>(0)

    init(capacity: Int) {
        self.capacity = capacity
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: nil, count: capacity)
    }

    deinit {
        slots.deinitialize(count: capacity)
        slots.deallocate()
    }

    /// Adds a value; false when full.
    func push(_ value: Element) -> Bool {
        let t = tail.load(ordering: .relaxed)
        guard t - head.load(ordering: .acquiring) < capacity else { return false }
        slots[t % capacity] = value
        tail.store(t + 1, ordering: .releasing)
        return true
    }

    /// The oldest value, left in place (consumer only).
    func peek() -> Element? {
        let h = head.load(ordering: .relaxed)
        guard h < tail.load(ordering: .acquiring) else { return nil }
        return slots[h % capacity]
    }

    /// Takes the oldest value, if any.
    func pop() -> Element? {
        let h = head.load(ordering: .relaxed)
        guard h < tail.load(ordering: .acquiring) else { return nil }
        let value = slots[h % capacity].take()
        head.store(h + 1, ordering: .releasing)
        return value
    }
}
