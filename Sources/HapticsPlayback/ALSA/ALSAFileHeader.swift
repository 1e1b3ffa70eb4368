import Glibc

/// Corrects the WAV header alsa-lib's `file` plugin writes.
///
/// With the `wav` format the plugin writes format tag 1 (integer PCM) whatever the sample
/// format, so the 32-bit float samples this package prefers would read back as integers.
/// After the device is closed (when the plugin has written its final sizes), the tag of a
/// 32-bit file played as Float32 is set to 3 (IEEE float). Nothing else changes: the sizes,
/// the channel count and the samples are the plugin's.
enum ALSAFileHeader {
    /// The file a `file:` PCM name writes to: `file:'/tmp/out.wav',wav`, `file:"/tmp/out.wav"`,
    /// `file:/tmp/out.wav` or `file:FILE=/tmp/out.wav,FORMAT=wav`; `nil` for other names and
    /// for file names with alsa-lib's `%` substitutions, which only the plugin can expand.
    static func path(fromDevice device: String) -> String? {
        guard device.hasPrefix("file:") else { return nil }
        var arguments: [String] = []
        var current = ""
        var quote: Character?
        for character in device.dropFirst("file:".count) {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "," {
                arguments.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        arguments.append(current)
        var file: String?
        for (index, argument) in arguments.enumerated() {
            if argument.uppercased().hasPrefix("FILE=") {
                file = String(argument.dropFirst("FILE=".count))
            } else if index == 0, !argument.contains("=") {
                file = argument
            }
        }
        guard let file, !file.isEmpty, !file.contains("%") else { return nil }
        return file
    }

    /// After closing a `file:` device that played 32-bit floats: marks its WAV header as IEEE
    /// float. Does nothing for other devices, raw files, or headers that are not 32-bit PCM.
    static func correctAfterClose(device: String, format: ALSASampleFormat) {
        guard format == .float32, let path = path(fromDevice: device) else { return }
        markFloat(path: path)
    }

    /// Sets the `fmt ` chunk's tag to 3 in a WAV file whose header says 32-bit integer PCM.
    static func markFloat(path: String) {
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: 512)
        let count = header.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count >= 36, tag(header, 0) == "RIFF", tag(header, 8) == "WAVE" else { return }
        var offset = 12
        while offset + 8 + 16 <= count {
            let size = Int(u32(header, offset + 4))
            if tag(header, offset) == "fmt " {
                let formatTag = u16(header, offset + 8)
                let bits = u16(header, offset + 22)
                guard formatTag == 1, bits == 32 else { return }
                let float: [UInt8] = [3, 0]
                _ = float.withUnsafeBytes { pwrite(fd, $0.baseAddress, 2, off_t(offset + 8)) }
                return
            }
            offset += 8 + size + (size & 1)
        }
    }

    private static func tag(_ bytes: [UInt8], _ offset: Int) -> String {
        String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
    }

    private static func u16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    private static func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }
}
