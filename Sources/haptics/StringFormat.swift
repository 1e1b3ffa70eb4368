import Glibc

extension String {
    /// printf-style formatting (`%.3f`, `%10.3f`, `%d`), as Foundation's `String(format:)`
    /// does for these numbers. The tool uses only FoundationEssentials, which has none:
    /// anything from Foundation proper links all of it into the binary, milliseconds of
    /// start-up and megabytes of memory. `%d` takes Swift's 64-bit `Int`.
    init(cFormat format: String, _ arguments: CVarArg...) {
        // `%d` becomes `%ld`, by a scan of the bytes: `replacing(_:with:)`'s generic
        // machinery cost the first call of a process 0.2 ms.
        var converted: [CChar] = []
        converted.reserveCapacity(format.utf8.count + 4)
        var previous: UInt8 = 0
        for byte in format.utf8 {
            if byte == UInt8(ascii: "d") && previous == UInt8(ascii: "%") { converted.append(CChar(UInt8(ascii: "l"))) }
            converted.append(CChar(bitPattern: byte))
            previous = byte
        }
        converted.append(0)
        let format = converted
        self = withVaList(arguments) { list in
            var buffer = [CChar](repeating: 0, count: 256)
            // vsnprintf returns the length it needed, whether or not it fitted.
            let needed = Int(vsnprintf(&buffer, buffer.count, format, list))
            guard needed >= buffer.count else { return Self(bytes: buffer, count: needed) }
            return withVaList(arguments) { again in
                buffer = [CChar](repeating: 0, count: needed + 1)
                _ = vsnprintf(&buffer, buffer.count, format, again)
                return Self(bytes: buffer, count: needed)
            }
        }
    }

    private init(bytes: [CChar], count: Int) {
        self = String(decoding: bytes.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
