import COptionalLibraries
import FoundationEssentials

/// libsndfile and kissfft, loaded the first time a sound is analysed instead of linked: the
/// `haptics` binary then starts on machines that have neither (play, render, convert need
/// them not), and `analyze` says which package to install where they are missing. The tables
/// are `COptionalLibraries`' (libsndfile's is the one the renderer decodes sound files with).
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
        guard let library = haptics_sndfile()?.pointee else { return .failure(missing("libsndfile", package: "libsndfile1")) }
        return .success(
            SndFile(
                open: library.sf_open, readFloatFrames: library.sf_readf_float, close: library.sf_close, error: library.sf_error,
                describeError: library.sf_strerror))
    }()

    static let kissFFT: Result<KissFFT, FormatError> = {
        guard let library = haptics_kissfft()?.pointee else { return .failure(missing("kissfft", package: "libkissfft-float131")) }
        return .success(KissFFT(allocate: library.kiss_fftr_alloc, transform: library.kiss_fftr))
    }()

    private static func missing(_ library: String, package: String) -> FormatError {
        FormatError("analysing sounds needs \(library), which is not installed (Debian/Ubuntu: apt-get install \(package))")
    }
}
