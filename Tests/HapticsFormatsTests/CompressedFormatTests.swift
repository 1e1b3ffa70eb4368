import COptionalLibraries
import Foundation
import HapticsFormats
import HapticsTestSupport
import Testing

/// FLAC, Ogg Vorbis and MP3 read through libsndfile, written here by libsndfile itself.
@Suite("Compressed sound files")
struct CompressedFormatTests {
    /// Where the files are written, for the whole run (a static is never released).
    static let scratch = try! TemporaryFolder(prefix: "haptics-formats")

    /// Writes mono samples in a libsndfile major format; nil when this libsndfile cannot write it.
    static func write(_ samples: [Float], rate: Int32, format: Int32, name: String) -> String? {
        let path = scratch.path(name)
        var info = SF_INFO()
        info.samplerate = rate
        info.channels = 1
        info.format = format
        guard sf_format_check(&info) != 0, let file = sf_open(path, Int32(SFM_WRITE), &info) else { return nil }
        _ = samples.withUnsafeBufferPointer { sf_writef_float(file, $0.baseAddress, sf_count_t($0.count)) }
        sf_close(file)
        return path
    }

    @Test(
        "FLAC, Ogg Vorbis and MP3 decode to the sound written",
        arguments: [
            ("flac", Int32(SF_FORMAT_FLAC) | Int32(SF_FORMAT_PCM_16)),
            ("ogg", Int32(SF_FORMAT_OGG) | Int32(SF_FORMAT_VORBIS)),
            ("mp3", Int32(SF_FORMAT_MPEG) | Int32(SF_FORMAT_MPEG_LAYER_III)),
        ])
    func decode(name: String, format: Int32) throws {
        let sweep = SyntheticSounds.sweep(from: 200, to: 4000, duration: 2, sampleRate: 44_100)
        guard let path = Self.write(sweep, rate: 44_100, format: format, name: "sweep.\(name)") else {
            try Test.cancel("this libsndfile cannot write \(name) (reading is what the toolkit needs)")
        }
        let audio = try AudioFile(contentsOf: path)
        #expect(abs(audio.duration - 2) < 0.1, "\(name): \(audio.duration) s")
        let result = try AudioAnalyzer().analyze(audio)
        let early = HapticLayers.value(of: result.layers.sharpness, at: 0.3)
        let late = HapticLayers.value(of: result.layers.sharpness, at: 1.7)
        #expect(late > early + 0.3, "\(name): sharpness \(early) → \(late)")
    }
}
