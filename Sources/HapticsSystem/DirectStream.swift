internal import CSystem
import Synchronization
import Glibc

/// Writes a run of bytes into a file around the page cache (`O_DIRECT`), from one offset on,
/// for ``AtomicFile``'s large files on a disk.
///
/// Buffered writing copied every byte into the page cache, which cost a long render about a
/// quarter of its CPU. Here the bytes are gathered into block-aligned buffers that a thread of
/// its own (`haptics-write`) hands to the disk, so the producing thread never waits for the
/// disk while a buffer is free. The bytes before the first block boundary and after the last
/// one are written through the page cache at ``finish()`` (a direct write must cover whole
/// blocks); two streams sharing a block at their meeting point each write their part of it
/// that way. `fsync` afterwards makes it all durable, as for any write.
final class DirectStream: @unchecked Sendable {
    /// The alignment of offsets, lengths and memory: a page, a multiple of every logical block
    /// size a disk reports (512 or 4096 bytes).
    static let blockBytes = 4096
    /// Bytes handed to the disk at a time.
    static let bufferBytes = 512 << 10
    /// Buffers in the ring: one filling while the others are written.
    static let bufferCount = 3

    private let directFD: Int32
    private let bufferedFD: Int32
    private let path: String
    private let storage: UnsafeMutableRawPointer
    /// Per buffer: where it goes in the file and how many bytes; 0 bytes stops the thread.
    private let offsets: UnsafeMutablePointer<Int>
    private let lengths: UnsafeMutablePointer<Int>
    private let free = SystemSemaphore(value: DirectStream.bufferCount)
    private let filled = SystemSemaphore(value: 0)
    private let stopped = SystemSemaphore(value: 0)
    /// The first write error of the thread (an errno), 0 while none.
    private let failure = Atomic<Int32>(0)
    /// Set when the output is abandoned: the thread writes nothing more.
    private let cancelled = Atomic<Bool>(false)
    private let writeAt: @Sendable (Int32, UnsafeRawPointer, Int, Int) -> Int

    /// The buffer being filled, whether it is held (taken from `free`), and its bytes.
    private var current = 0
    private var holding = false
    private var count = 0
    /// The file offset of the next byte.
    private(set) var position: Int
    /// Bytes before the first block boundary, written through the page cache at the end.
    private var head: [UInt8] = []
    private let headOffset: Int
    private var finished = false

    /// A stream from `offset` on: `directFD` (opened with `O_DIRECT`, owned and closed here)
    /// takes the aligned blocks, `bufferedFD` (not owned) the edges; `writeAt` is `pwrite`.
    init(directFD: Int32, bufferedFD: Int32, path: String, offset: Int, writeAt: @escaping @Sendable (Int32, UnsafeRawPointer, Int, Int) -> Int) {
        self.directFD = directFD
        self.bufferedFD = bufferedFD
        self.path = path
        self.writeAt = writeAt
        position = offset
        headOffset = offset
        storage = .allocate(byteCount: Self.bufferBytes * Self.bufferCount, alignment: Self.blockBytes)
        offsets = .allocate(capacity: Self.bufferCount)
        offsets.initialize(repeating: 0, count: Self.bufferCount)
        lengths = .allocate(capacity: Self.bufferCount)
        lengths.initialize(repeating: 0, count: Self.bufferCount)
        let thread = SystemThread { [self] in writeBuffers() }
        thread.name = "haptics-write"
        thread.start()
    }

    deinit {
        cancel()
        storage.deallocate()
        offsets.deallocate()
        lengths.deallocate()
    }

    /// Appends `bytes` at ``position``. Throws the errno of a failed write.
    func append(_ bytes: UnsafeRawBufferPointer) throws(FileWriteError) {
        precondition(!finished, "appending to a finished stream")
        var index = 0
        while index < bytes.count {
            if !holding && position % Self.blockBytes != 0 {
                // Up to the first block boundary: kept for the page cache.
                let n = min(bytes.count - index, Self.blockBytes - position % Self.blockBytes)
                head += UnsafeRawBufferPointer(rebasing: bytes[index..<(index + n)])
                index += n
                position += n
                continue
            }
            if !holding {
                free.wait()
                let code = failure.load(ordering: .acquiring)
                if code != 0 {
                    free.signal()
                    throw FileWriteError(path: path, stage: .write, code: code)
                }
                holding = true
                count = 0
                offsets[current] = position
            }
            let n = min(bytes.count - index, Self.bufferBytes - count)
            (storage + current * Self.bufferBytes + count).copyMemory(from: bytes.baseAddress! + index, byteCount: n)
            count += n
            index += n
            position += n
            if count == Self.bufferBytes { submit(count) }
        }
    }

    /// Hands the held buffer's first `length` bytes to the thread.
    private func submit(_ length: Int) {
        lengths[current] = length
        filled.signal()
        current = (current + 1) % Self.bufferCount
        holding = false
        count = 0
    }

    /// Writes what is left (whole blocks directly, the edges through the page cache), waits for
    /// the thread and closes the direct descriptor. Throws the first error.
    func finish() throws(FileWriteError) {
        guard !finished else { return }
        var tail: [UInt8] = []
        var tailOffset = position
        if holding {
            let whole = count - count % Self.blockBytes
            tail = Array(UnsafeRawBufferPointer(start: storage + current * Self.bufferBytes + whole, count: count - whole))
            tailOffset = offsets[current] + whole
            if whole > 0 {
                submit(whole)
            } else {
                // Nothing whole to write: the buffer goes back unused.
                holding = false
                free.signal()
            }
        }
        stop()
        var code = failure.load(ordering: .acquiring)
        for (bytes, offset) in [(head, headOffset), (tail, tailOffset)] where code == 0 && !bytes.isEmpty {
            code = bytes.withUnsafeBytes { raw -> Int32 in
                do throws(Errno) {
                    try writeWhole(raw) { start, length, done in writeAt(bufferedFD, start, length, offset + done) }
                    return 0
                } catch {
                    return error.code
                }
            }
        }
        if code != 0 { throw FileWriteError(path: path, stage: .write, code: code) }
    }

    /// Stops the thread without writing what it has not written yet.
    func cancel() {
        cancelled.store(true, ordering: .relaxed)
        if holding {
            holding = false
            free.signal()
        }
        stop()
    }

    /// Sends the thread its stop, waits for its end and closes the direct descriptor.
    private func stop() {
        guard !finished else { return }
        finished = true
        free.wait()
        lengths[current] = 0
        filled.signal()
        stopped.wait()
        _ = Glibc.close(directFD)
    }

    private func writeBuffers() {
        var index = 0
        while true {
            filled.wait()
            let length = lengths[index]
            if length == 0 { break }
            if failure.load(ordering: .relaxed) == 0 && !cancelled.load(ordering: .relaxed) {
                let offset = offsets[index]
                let buffer = UnsafeRawBufferPointer(start: storage + index * Self.bufferBytes, count: length)
                do {
                    try writeWhole(buffer) { start, count, done in writeAt(directFD, start, count, offset + done) }
                } catch {
                    // A file system that opens with O_DIRECT but refuses the alignment: the page cache takes it.
                    var code = error.code
                    if code == EINVAL {
                        do {
                            try writeWhole(buffer) { start, count, done in writeAt(bufferedFD, start, count, offset + done) }
                            code = 0
                        } catch {
                            code = error.code
                        }
                    }
                    if code != 0 { failure.store(code, ordering: .releasing) }
                }
            }
            free.signal()
            index = (index + 1) % Self.bufferCount
        }
        stopped.signal()
    }
}
