import Testing
@testable import HapticsPlayback

@Suite("The engine's single-producer, single-consumer ring")
struct SPSCQueueTests {
    @Test(
        "the capacity is rounded up to a power of two",
        arguments: [
            (0, 1), (1, 1), (2, 2), (3, 4), (5, 8), (1000, 1024), (4096, 4096), (4097, 8192),
        ])
    func capacityRoundsUp(requested: Int, rounded: Int) {
        #expect(SPSCQueue<Int>(capacity: requested).capacity == rounded)
    }

    @Test("a ring holds exactly its capacity, refuses more, and keeps order across many wraps")
    func fillsAndWraps() {
        let queue = SPSCQueue<Int>(capacity: 5)
        #expect(queue.capacity == 8)
        var next = 0
        var expected = 0
        for round in 0..<100 {
            let batch = round % 9
            for _ in 0..<batch where queue.push(next) { next += 1 }
            if batch == 8 { #expect(!queue.push(-1), "a full ring refuses a value") }
            #expect(queue.peek() == (expected < next ? expected : nil))
            for _ in 0..<(round % 7) {
                guard let value = queue.pop() else { break }
                #expect(value == expected)
                expected += 1
            }
        }
        while let value = queue.pop() {
            #expect(value == expected)
            expected += 1
        }
        #expect(expected == next)
        #expect(next > 8 * 10, "the positions wrapped many times")
    }
}
