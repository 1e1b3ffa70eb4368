import Foundation
import HapticsCore
import HapticsOutputs
import HapticsPresets
import HapticsTestSupport
import Synchronization
import Testing

@Suite("Hot-plug: devices connected and removed while engines run")
struct HapticOutputWatcherTests {
    @Test("the watcher reports event nodes created and removed in its folder, and nothing else")
    func reportsNodes() throws {
        let machine = try Machines.nothing()
        let changes = Mutex<[HapticOutputWatcher.Change]>([])
        let watcher = try #require(HapticOutputWatcher(directory: machine.roots.inputDirectory) { change in changes.withLock { $0.append(change) } })
        let node = try machine.addInputDevice(4, name: "Microsoft X-Box 360 pad", ff: Bitmap.memlessRumble)
        _ = FileManager.default.createFile(atPath: machine.roots.inputDirectory + "/mice", contents: Data())
        try Wait.require("the node's arrival is reported", timeout: .seconds(5)) { changes.withLock { $0.contains(.added(node)) } }
        try machine.removeInputDevice(4)
        try Wait.require("the node's removal is reported", timeout: .seconds(5)) { changes.withLock { $0.contains(.removed(node)) } }
        watcher.stop()
        #expect(changes.withLock { $0 }.allSatisfy { $0 == .added(node) || $0 == .removed(node) }, "mice is not an event node")
    }

    @Test("stopping the watcher from its own callback (an engine released there) returns instead of waiting for itself")
    func stopFromCallback() throws {
        let machine = try Machines.nothing()
        let box = Mutex<HapticOutputWatcher?>(nil)
        let returned = Mutex(false)
        let watcher = try #require(
            HapticOutputWatcher(directory: machine.roots.inputDirectory) { _ in
                box.withLock { $0 }?.stop()
                returned.withLock { $0 = true }
            })
        box.withLock { $0 = watcher }
        try machine.addInputDevice(1, name: "gpio-vibrator", ff: Bitmap.memlessRumble)
        try Wait.require("the callback's stop returned", timeout: .seconds(5)) { returned.withLock { $0 } }
        box.withLock { $0 = nil }
    }

    @Test("a folder that cannot be watched gives no watcher")
    func missingFolder() {
        #expect(HapticOutputWatcher(directory: "/nonexistent/haptics/input") { _ in } == nil)
    }

    @Test("unplugging the gamepad an engine plays on stops it with deviceLost at once; the next start opens the pad plugged in since")
    func unplugStopsTheEngine() throws {
        let machine = try Machines.gamepad()
        let selection = HapticOutputSelection.resolve(environment: [:], settings: HapticSettings(), discovery: machine.discovery)
        let engine = HapticOutputDiscovery.$override.withValue(machine.discovery) { selection.makeEngine() }
        let reasons = Mutex<[HapticEngineStoppedReason]>([])
        engine.stoppedHandler = { reason in reasons.withLock { $0.append(reason) } }
        try engine.start()
        let long = HapticPattern(events: [.continuous(at: 0, duration: 30, intensity: 1, sharpness: 0.5)])
        let player = try engine.makePlayer(with: long)
        try player.start(atTime: 0)
        try machine.removeInputDevice(7)
        try Wait.require("the engine stopped with deviceLost", timeout: .seconds(5)) { reasons.withLock { $0 } == [.deviceLost] }
        #expect(!engine.isRunning)
        try machine.addInputDevice(9, name: "8BitDo Pro 2", ff: Bitmap.memlessRumble, driver: "xpad")
        try engine.start()
        engine.stop()
        #expect(machine.openedDevices.last?.path == machine.roots.inputDirectory + "/event9")
    }
}
