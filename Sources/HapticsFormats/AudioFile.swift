import COptionalLibraries
import FoundationEssentials
import Glibc
import HapticsSystem

/// A sound file read whole into memory as mono float samples, through libsndfile: WAV, AIFF,
/// FLAC, Ogg (Vorbis, Opus) and, with libsndfile 1.1 or later (Debian 12 has 1.2), MP3. Any
/// sample rate within `SoundReader.sampleRates`; channels (at most 64) are mixed to mono by
/// averaging; at most 3,600 s. ``AudioAnalyzer/analyze(contentsOf:progress:)`` reads a file
/// in bounded blocks instead, without holding it whole.
public struct AudioFile: Sendable {
    /// Mono samples, −1…1.
    public var samples: [Float]
    /// Frames per second.
    public var sampleRate: Int
    /// Channels in the file (before mixing).
    public var channelCount: Int

    public var duration: Double { Double(samples.count) / Double(sampleRate) }

    public init(samples: [Float], sampleRate: Int, channelCount: Int = 1) {
        self.samples = samples
        self.sampleRate = sampleRate
        self.channelCount = channelCount
    }

    /// Reads a file. `progress` gets 0…1 as blocks are read.
    public init(contentsOf path: String, progress: ((Double) -> Void)? = nil) throws(FormatError) {
        let reader = try SoundReader(path: path)
        sampleRate = reader.sampleRate
        channelCount = reader.channelCount
        var mono: [Float] = []
        while try reader.read(appendingTo: &mono, frames: SoundReader.blockFrames) > 0 {
            if let progress, let total = reader.declaredFrames { progress(min(1, Double(mono.count) / Double(total))) }
        }
        samples = mono
    }
}

extension AudioFile {
    /// Reads a sound file at a URL (see ``init(contentsOf:progress:)-(String,_)``).
    public init(contentsOf url: URL, progress: ((Double) -> Void)? = nil) throws(FormatError) {
        try self.init(contentsOf: url.path, progress: progress)
    }
}

/// A sound file opened through libsndfile and read in blocks, mixed to mono, under limits that
/// keep a hostile header from costing memory: a sample rate of 1,000 to 384,000 Hz, 1 to 64
/// channels, at most 3,600 s (whatever the header claims, reading stops there), and every
/// sample a number within ±1000 (a float file beyond that is damaged, not loud). Every problem
/// is one line naming the file; what the MP3 decoder prints on standard error is caught and
/// turned into that line.
final class SoundReader {
    /// The sample rates read.
    static let sampleRates = 1000...384_000
    /// The channel counts read.
    static let channelCounts = 1...64
    /// The longest sound read, in seconds: the longest pattern.
    static let maxSeconds = 3600
    /// The largest sample magnitude read: 60 dB above full scale.
    static let maxMagnitude: Float = 1000
    /// Frames read per block.
    static let blockFrames = 8192

    let path: String
    let sampleRate: Int
    let channelCount: Int
    /// The frame count the header states, when it states a plausible one.
    let declaredFrames: Int?
    /// Frames read so far.
    private(set) var framesRead = 0

    private let sndFile: SoundLibraries.SndFile
    private let file: OpaquePointer
    private var buffer: [Float]

    init(path: String) throws(FormatError) {
        self.path = path
        var status = stat()
        guard stat(path, &status) == 0 else {
            let code = errno
            throw FormatError("\(path): \(code == ENOENT || code == ENOTDIR ? "no such file" : "cannot read the file (\(Errno(code)))")")
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw FormatError("\(path): not a sound file but a directory")
        default: throw FormatError("\(path): not a regular file (a device, pipe or socket); give a sound file")
        }
        guard status.st_size > 0 else { throw FormatError("\(path): the file is empty; expected a sound (WAV, FLAC, Ogg or MP3)") }
        sndFile = try SoundLibraries.sndFile.get()
        var info = SF_INFO()
        let (opened, decoder) = StandardErrorCapture.during { [sndFile] in sndFile.open(path, Int32(SFM_READ), &info) }
        guard let opened else {
            if let decoder { throw FormatError("\(path): not a sound that can be read (the decoder reports: \(decoder))") }
            throw FormatError("\(path): not a sound that can be read (WAV, FLAC, Ogg or MP3 expected; the data is none of them)")
        }
        file = opened
        sampleRate = Int(info.samplerate)
        channelCount = Int(info.channels)
        guard Self.sampleRates.contains(sampleRate) else {
            _ = sndFile.close(opened)
            throw FormatError(
                "\(path): the header states a sample rate of \(info.samplerate) Hz; analyze reads \(Self.sampleRates.lowerBound) to \(Self.sampleRates.upperBound) Hz"
            )
        }
        guard Self.channelCounts.contains(channelCount) else {
            _ = sndFile.close(opened)
            throw FormatError(
                "\(path): the header states \(info.channels) channels; analyze reads \(Self.channelCounts.lowerBound) to \(Self.channelCounts.upperBound)")
        }
        let limit = Int64(Self.maxSeconds) * Int64(sampleRate)
        if info.frames > limit {
            _ = sndFile.close(opened)
            throw FormatError("\(path): the sound lasts \(info.frames / Int64(sampleRate)) s; analyze reads sounds of up to \(Self.maxSeconds) s")
        }
        declaredFrames = info.frames > 0 ? Int(info.frames) : nil
        buffer = [Float](repeating: 0, count: Self.blockFrames * channelCount)
    }

    deinit { _ = sndFile.close(file) }

    /// The most frames the file may hold.
    var frameLimit: Int { Self.maxSeconds * sampleRate }

    /// Reads up to `frames` frames (at most ``blockFrames``), mixed to mono, onto the end of
    /// `mono`; returns how many, 0 at the end of the sound.
    func read(appendingTo mono: inout [Float], frames: Int) throws(FormatError) -> Int {
        let wanted = min(frames, Self.blockFrames)
        let (count, decoder) = StandardErrorCapture.during { [sndFile, file] in
            buffer.withUnsafeMutableBufferPointer { sndFile.readFloatFrames(file, $0.baseAddress, sf_count_t(wanted)) }
        }
        if let decoder { throw FormatError("\(path): the sound is damaged (the decoder reports: \(decoder))") }
        if sndFile.error(file) != 0 {
            throw FormatError("\(path): reading the sound failed (\(sndFile.describeError(file).map { String(cString: $0) } ?? "unknown error"))")
        }
        guard count > 0 else { return 0 }
        let n = Int(count)
        guard framesRead + n <= frameLimit else {
            throw FormatError("\(path): the sound lasts more than \(Self.maxSeconds) s; analyze reads sounds of up to \(Self.maxSeconds) s")
        }
        // A damaged sample stops the read: NaN or infinity would silence the whole analysis.
        let samples = n * channelCount
        let limit = Self.maxMagnitude
        // Plain loops over pointers: these run for every sample, and a debug build's generic
        // ranges and `abs` made them slower than the analysis.
        let damaged = buffer.withUnsafeBufferPointer { buffer -> Int? in
            var index = 0
            while index < samples {
                if !(buffer[index].magnitude <= limit) { return index }
                index += 1
            }
            return nil
        }
        if let index = damaged {
            let value = buffer[index]
            let time = Double(framesRead + index / channelCount) / Double(sampleRate)
            let what = value.isNaN ? "not a number (NaN)" : value.isFinite ? "\(value), beyond ±\(Int(Self.maxMagnitude)) (full scale is ±1)" : "infinite"
            throw FormatError("\(path): the sample at \(Self.seconds(time)) s is \(what); the file is damaged")
        }
        if channelCount == 1 {
            mono.append(contentsOf: buffer[0..<n])
        } else {
            let scale = 1 / Float(channelCount)
            let channels = channelCount
            let start = mono.count
            mono.append(contentsOf: [Float](repeating: 0, count: n))
            mono.withUnsafeMutableBufferPointer { mono in
                buffer.withUnsafeBufferPointer { buffer in
                    var f = 0
                    var index = 0
                    while f < n {
                        var sum: Float = 0
                        let next = index + channels
                        while index < next {
                            sum += buffer[index]
                            index += 1
                        }
                        mono[start + f] = sum * scale
                        f += 1
                    }
                }
            }
        }
        framesRead += n
        return n
    }

    /// Seconds with three decimals.
    private static func seconds(_ value: Double) -> String {
        let millis = Int((value * 1000).rounded())
        let fraction = String(millis % 1000)
        return "\(millis / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}

/// Catches what a C library writes on standard error (libmpg123 prints its complaints there)
/// while a call runs, so a command prints one line of its own instead. The process's own lines
/// written meanwhile, from any thread (a progress bar, a signal's last line), still reach the
/// real standard error: ``StandardError`` sends them there.
enum StandardErrorCapture {
    /// Runs `body`; returns its result and the first line written meanwhile, if any, without
    /// the library's `[source file:function():line]` prefix.
    static func during<T>(_ body: () -> T) -> (T, String?) {
        // A pipe that never blocks the library: what does not fit in it is dropped.
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return (body(), nil) }
        defer { close(ends[0]) }
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        let (result, redirected) = StandardError.redirecting(to: ends[1], body)
        close(ends[1])
        guard redirected else { return (result, nil) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = read(ends[0], &bytes, bytes.count)
        guard count > 0 else { return (result, nil) }
        let text = String(decoding: bytes[0..<count], as: UTF8.self)
        // Standard error is the process's: another thread may write while the call runs (a
        // test runner beside the decoder), so only a line shaped as the decoder's counts.
        guard var line = text.split(whereSeparator: { $0.isNewline }).map(String.init).first(where: isDecoderLine) else {
            return (result, nil)
        }
        if line.hasPrefix("["), let end = line.firstIndex(of: "]") {
            line = String(line[line.index(after: end)...].drop { $0 == " " })
        }
        return (result, line.isEmpty ? nil : line)
    }

    /// libmpg123's complaints: `[source file:function():line] kind: text`, or its plain
    /// `Note:`, `Warning:` and `Error:` lines.
    static func isDecoderLine(_ line: String) -> Bool {
        if line.hasPrefix("["), let end = line.firstIndex(of: "]") { return line[..<end].contains("():") }
        return ["Note:", "Warning:", "Error:", "warning:", "error:"].contains { line.hasPrefix($0) }
    }
}
