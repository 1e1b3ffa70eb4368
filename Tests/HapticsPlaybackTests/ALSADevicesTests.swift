import Foundation
import Testing
@testable import HapticsPlayback

@Suite("Listing ALSA playback devices")
struct ALSADevicesTests {
    @Test("The listing includes ALSA's null device with its description, once")
    func listsNull() throws {
        let devices = ALSADevices.playbackDevices()
        let null = try #require(devices.first { $0.name == "null" })
        #expect(null.description.contains("Discard all samples"))
        #expect(null.card == nil)
        #expect(Set(devices.map(\.name)).count == devices.count)
    }

    @Test("Every listed device's description is one line")
    func oneLineDescriptions() {
        #expect(ALSADevices.playbackDevices().allSatisfy { !$0.description.contains("\n") })
    }

    @Test("Only hw: devices are probed, and a probed device reports sane limits")
    func probing() {
        for device in ALSADevices.playbackDevices() {
            if !device.name.hasPrefix("hw:") {
                #expect(device.channels == nil && device.sampleRates == nil && device.formats == nil, "\(device.name) was probed")
            }
            if let channels = device.channels {
                #expect(channels.min >= 1 && channels.min <= channels.max)
            }
            if let rates = device.sampleRates {
                #expect(rates.min >= 1 && rates.min <= rates.max)
            }
        }
    }

    @Test("The null device reports its shortest period and buffer, in frames and milliseconds at its rate")
    func latencyLimits() throws {
        let null = try #require(ALSADevices.playbackDevices().first { $0.name == "null" })
        let latency = try #require(null.latency, "the null device always opens")
        #expect(latency.sampleRate == 48_000)
        #expect(latency.minimumPeriodFrames >= 1)
        #expect(latency.minimumBufferFrames >= latency.minimumPeriodFrames)
        #expect(abs(latency.minimumBufferMilliseconds - Double(latency.minimumBufferFrames) / 48) < 0.001)
    }

    @Test("Latency limits encode with their own keys and convert frames to milliseconds")
    func latencyLimitsJSON() throws {
        let limits = ALSALatencyLimits(sampleRate: 48_000, minimumPeriodFrames: 120, minimumBufferFrames: 360)
        #expect(limits.minimumPeriodMilliseconds == 2.5)
        #expect(limits.minimumBufferMilliseconds == 7.5)
        #expect(limits.description == "period ≥ 2.5 ms, buffer ≥ 7.5 ms")
        let object = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(limits)) as? [String: Any])
        #expect(Set(object.keys) == ["sampleRate", "minimumPeriodFrames", "minimumBufferFrames", "minimumPeriodMilliseconds", "minimumBufferMilliseconds"])
    }

    @Test(
        "Sound-card devices are the ones ALSA names with CARD=",
        arguments: [
            ("hw:CARD=PCH,DEV=0", "PCH"), ("plughw:CARD=Controller,DEV=0", "Controller"),
            ("sysdefault:CARD=Generic", "Generic"), ("null", nil), ("pulse", nil),
        ])
    func cardOfName(name: String, card: String?) {
        #expect(ALSADevices.cardName(in: name) == card)
    }

    @Test("Sound cards have distinct indexes; with no card, no hw: device is listed")
    func soundCards() {
        let cards = ALSADevices.soundCards()
        #expect(Set(cards.map(\.index)).count == cards.count)
        if cards.isEmpty {
            #expect(ALSADevices.playbackDevices().allSatisfy { !$0.name.hasPrefix("hw:") })
        }
    }

    @Test("A device encodes to JSON with stable keys, leaving out what is unknown")
    func jsonKeys() throws {
        let device = ALSADevice(name: "hw:CARD=X,DEV=0", description: "X", card: "X", channels: ALSARange(min: 4, max: 4))
        let object = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(device)) as? [String: Any])
        #expect(Set(object.keys) == ["name", "description", "card", "channels", "busy"])
        #expect((object["channels"] as? [String: Int]) == ["min": 4, "max": 4])
        #expect(try JSONDecoder().decode(ALSADevice.self, from: JSONEncoder().encode(device)) == device)
    }
}
