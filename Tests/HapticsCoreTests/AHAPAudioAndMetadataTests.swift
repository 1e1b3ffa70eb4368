import Foundation
import HapticsTestSupport
import Testing
import HapticsCore

@Suite("AudioCustom events and metadata")
struct AHAPAudioAndMetadataTests {
    private let audioEvent = document(
        """
        { "Event": { "Time": 0.2, "EventType": "AudioCustom", "EventWaveformPath": "sounds/pop.wav",
                     "EventWaveformUseVolumeEnvelope": false, "EventWaveformLoopEnabled": true,
                     "EventParameters": [ { "ParameterID": "AudioVolume", "ParameterValue": 0.5 } ] } }
        """)

    @Test("an AudioCustom event keeps its path as written and its flags")
    func audioResource() throws {
        let document = try decode(audioEvent)
        let event = try #require(document.pattern.events.first)
        #expect(event.kind == .audioCustom)
        #expect(event.audio == HapticEvent.AudioResource(path: "sounds/pop.wav", usesVolumeEnvelope: false, loopEnabled: true))
        #expect(event.parameters == [.init(.audioVolume, 0.5)])
    }

    @Test("a missing sound file is a warning; the event is kept")
    func missingSoundFile() throws {
        let folder = try TemporaryFolder()
        let document = try decode(audioEvent, baseDirectory: folder.url)
        #expect(document.pattern.events.count == 1)
        #expect(document.diagnostics.map(\.location) == ["Pattern[0].Event.EventWaveformPath"])
        #expect(document.diagnostics.first?.severity == .warning)
        #expect(document.diagnostics.first?.message.contains(folder.url.appendingPathComponent("sounds/pop.wav").path) == true)
    }

    @Test("the sound file is found relative to the AHAP file's folder")
    func soundFileNextToPattern() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("sounds/pop.wav", "RIFF")
        let file = try folder.write("pop.ahap", audioEvent)
        let document = try AHAPDecoder(mode: .strict).decode(contentsOf: file)
        #expect(document.diagnostics.isEmpty)
        #expect(document.pattern.events.first?.audio?.path == "sounds/pop.wav")
        // Players and renderers read it from there, wherever the process runs.
        #expect(document.pattern.events.first?.audio?.resolvedPath == folder.url.appendingPathComponent("sounds/pop.wav").path)
        #expect(HapticEvent.AudioResource(path: "/abs/pop.wav", directory: folder.url).resolvedPath == "/abs/pop.wav")
        #expect(HapticEvent.AudioResource(path: "pop.wav").resolvedPath == "pop.wav", "no folder: the current directory")
    }

    @Test("flags that are absent or null stay unset")
    func optionalFlags() throws {
        let document = try decode(
            document("{ \"Event\": { \"Time\": 0, \"EventType\": \"AudioCustom\", \"EventWaveformPath\": \"a.wav\", \"EventWaveformLoopEnabled\": null } }"))
        #expect(document.pattern.events.first?.audio == HapticEvent.AudioResource(path: "a.wav"))
    }

    @Test("metadata keeps Project, Created, Description and other string keys")
    func metadata() throws {
        let json =
            "{ \"Metadata\": { \"Project\": \"Pop\", \"Created\": \"today\", \"Description\": \"a tap\", \"Author\": \"me\" }, \"Pattern\": [ \(transient()) ] }"
        let document = try decode(json)
        #expect(document.pattern.metadata == HapticPattern.Metadata(project: "Pop", created: "today", description: "a tap", other: ["Author": "me"]))
        #expect(document.diagnostics.isEmpty)
    }

    @Test("non-string metadata values are kept as their JSON text, with a warning")
    func nonStringMetadata() throws {
        let json = "{ \"Metadata\": { \"Project\": 7, \"Tags\": [\"a\", 1.50], \"Draft\": null }, \"Pattern\": [ \(transient()) ] }"
        let document = try decode(json)
        #expect(document.pattern.metadata.project == "7")
        #expect(document.pattern.metadata.other == ["Tags": "[\"a\", 1.50]", "Draft": "null"])
        #expect(document.diagnostics.map(\.location) == ["Metadata.Project", "Metadata.Tags", "Metadata.Draft"])
        #expect(document.diagnostics.allSatisfy { $0.severity == .warning })
    }
}
