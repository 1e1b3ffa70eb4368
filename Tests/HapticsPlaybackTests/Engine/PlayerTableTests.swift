import Testing
@testable import HapticsPlayback

@Suite("The engine's player table")
struct PlayerTableTests {
    final class Synth {}
    final class Player {}
    typealias Table = PlayerTable<Synth, Player>

    @Test("slots are claimed lowest first until none is left")
    func claimsLowestFirst() {
        var table = Table(slotCount: 3)
        #expect(table.claim(for: Synth()) == 0)
        #expect(table.claim(for: Synth()) == 1)
        #expect(table.claim(for: Synth()) == 2)
        #expect(table.claim(for: Synth()) == nil)
    }

    @Test("an unclaimed slot can be claimed again")
    func unclaimGivesTheSlotBack() {
        var table = Table(slotCount: 1)
        let slot = table.claim(for: Synth())!
        table.unclaim(slot)
        #expect(table.claim(for: Synth()) == slot)
    }

    @Test("a retired slot is free only once its detach is queued, and its synth waits for the confirmation")
    func retiredSynthWaitsForTheAudioThread() {
        var table = Table(slotCount: 1)
        let synth = Synth()
        let slot = table.claim(for: synth)!
        table.retire(slot)
        #expect(table.claim(for: Synth()) == nil)
        table.free(slot)
        #expect(table.detached(slot) === synth)
        #expect(table.detached(slot) == nil)
    }

    @Test("a slot reused before its old synth is confirmed detached releases the old synth first")
    func reuseKeepsTheOrderOfDetaches() {
        var table = Table(slotCount: 1)
        let first = Synth()
        let second = Synth()
        let slot = table.claim(for: first)!
        table.retire(slot)
        table.free(slot)
        #expect(table.claim(for: second) == slot)
        table.retire(slot)
        table.free(slot)
        #expect(table.detached(slot) === first)
        #expect(table.detached(slot) === second)
    }

    @Test("a started player is held until its run finishes, and its completion handler is handed out once")
    func finishEndsTheHold() {
        var table = Table(slotCount: 2)
        let slot = table.claim(for: Synth())!
        var player: Player? = Player()
        weak let held = player
        nonisolated(unsafe) var calls = 0
        table.setCompletionHandler({ _ in calls += 1 }, for: slot)
        let run = table.begin(slot, player: player!)
        player = nil
        #expect(held != nil, "the table holds a started player")
        #expect(!table.isIdle)
        let finished = table.finish(slot, run: run)
        finished?.completionHandler?(nil)
        #expect(calls == 1)
        #expect(finished?.player === held)
        #expect(table.isIdle)
        #expect(table.finish(slot, run: run) == nil, "a run finishes once")
    }

    @Test("the finish of a run that was restarted since is stale and changes nothing")
    func staleFinishIsIgnored() {
        var table = Table(slotCount: 1)
        let slot = table.claim(for: Synth())!
        let player = Player()
        let first = table.begin(slot, player: player)
        let second = table.begin(slot, player: player)
        #expect(second != first)
        #expect(table.finish(slot, run: first) == nil)
        #expect(!table.isIdle)
        #expect(table.finish(slot, run: second)?.player === player)
    }

    @Test("a cancelled start lets the player go unless a later start replaced it")
    func cancelUndoesOnlyTheLatestStart() {
        var table = Table(slotCount: 1)
        let slot = table.claim(for: Synth())!
        let player = Player()
        let first = table.begin(slot, player: player)
        let second = table.begin(slot, player: player)
        #expect(table.cancel(slot, run: first) == nil)
        #expect(!table.isIdle)
        #expect(table.cancel(slot, run: second) === player)
        #expect(table.isIdle)
    }

    @Test("retiring a playing slot ends its run, handler and hold")
    func retireForgetsTheRun() {
        var table = Table(slotCount: 1)
        let slot = table.claim(for: Synth())!
        table.setCompletionHandler({ _ in }, for: slot)
        let run = table.begin(slot, player: Player())
        table.retire(slot)
        #expect(table.isIdle)
        #expect(table.finish(slot, run: run) == nil)
    }
}
