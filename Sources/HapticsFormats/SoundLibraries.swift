import CKissFFT
import CSndFile
import FoundationEssentials
import Glibc

/// libsndfile and kissfft, loaded the first time a sound is analysed instead of linked: the
/// `haptics` binary then starts on machines that have neither (play, render, convert need
/// them not), and `analyze` says which package to install where they are missing. Only the
/// headers come from the `CSndFile` and `CKissFFT` modules; the functions are looked up here.
enum SoundLibraries {
    /// The functions of libsndfile that reading a sound needs.
    struct SndFile: @unchecked Sendable {
        let open: @convention(c) (UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<SF_INFO>?) -> OpaquePointer?
        let readFloatFrames: @convention(c) (OpaquePointer?, UnsafeMutablePointer<Float>?, sf_count_t) -> sf_count_t
        let close: @convention(c) (OpaquePointer?) -> Int32
        let error: @convention(c) (OpaquePointer?) -> Int32
        let describeError: @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
    }

    /// The real FFT of kissfft (single precision).
    struct KissFFT: @unchecked Sendable {
        let allocate: @convention(c) (Int32, Int32, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int>?) -> OpaquePointer?
        let transform: @convention(c) (OpaquePointer?, UnsafePointer<Float>?, UnsafeMutablePointer<kiss_fft_cpx>?) -> Void
    }

    static let sndFile: Result<SndFile, FormatError> = {
        guard let library = open(["libsndfile.so.1", "libsndfile.so"], package: "libsndfile1") else {
            return .failure(missing("libsndfile", package: "libsndfile1"))
        }
        guard let open = symbol(library, "sf_open", as: (@convention(c) (UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<SF_INFO>?) -> OpaquePointer?).self),
            let read = symbol(library, "sf_readf_float", as: (@convention(c) (OpaquePointer?, UnsafeMutablePointer<Float>?, sf_count_t) -> sf_count_t).self),
            let close = symbol(library, "sf_close", as: (@convention(c) (OpaquePointer?) -> Int32).self),
            let error = symbol(library, "sf_error", as: (@convention(c) (OpaquePointer?) -> Int32).self),
            let describe = symbol(library, "sf_strerror", as: (@convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?).self)
        else {
            return .failure(FormatError("libsndfile lacks a function analyze needs (sf_open, sf_readf_float, …); install libsndfile1 1.1 or later"))
        }
        return .success(SndFile(open: open, readFloatFrames: read, close: close, error: error, describeError: describe))
    }()

    static let kissFFT: Result<KissFFT, FormatError> = {
        guard let library = open(["libkissfft-float.so.131", "libkissfft-float.so"], package: "libkissfft-float131") else {
            return .failure(missing("kissfft", package: "libkissfft-float131"))
        }
        guard
            let allocate = symbol(
                library, "kiss_fftr_alloc", as: (@convention(c) (Int32, Int32, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int>?) -> OpaquePointer?).self),
            let transform = symbol(
                library, "kiss_fftr", as: (@convention(c) (OpaquePointer?, UnsafePointer<Float>?, UnsafeMutablePointer<kiss_fft_cpx>?) -> Void).self)
        else {
            return .failure(FormatError("kissfft lacks kiss_fftr; install libkissfft-float131"))
        }
        return .success(KissFFT(allocate: allocate, transform: transform))
    }()

    private static func open(_ names: [String], package: String) -> UnsafeMutableRawPointer? {
        names.lazy.compactMap { dlopen($0, RTLD_NOW | RTLD_LOCAL) }.first
    }

    private static func symbol<T>(_ library: UnsafeMutableRawPointer, _ name: String, as type: T.Type) -> T? {
        dlsym(library, name).map { unsafeBitCast($0, to: type) }
    }

    private static func missing(_ library: String, package: String) -> FormatError {
        FormatError("analysing sounds needs \(library), which is not installed (Debian/Ubuntu: apt-get install \(package))")
    }
}
