import COptionalLibraries
import FoundationEssentials
import Glibc

/// Draws an SVG into a PNG with librsvg and cairo, the renderer GNOME and most Linux desktops
/// use for SVG. Loaded the first time a PNG is asked for (`COptionalLibraries`), not linked: the copied binary starts
/// without them, and `plot -o x.png` names the package to install where they are missing.
enum SVGRasterizer {
    /// Cairo's `cairo_write_func_t`: receives the PNG a chunk at a time.
    typealias WriteFunction = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt8>?, UInt32) -> Int32

    /// GLib's `GError**`: a `GError` is `{ guint32 domain; gint code; gchar *message; }`.
    typealias ErrorOut = UnsafeMutablePointer<UnsafeMutableRawPointer?>

    struct Library: @unchecked Sendable {
        let newHandle: @convention(c) (UnsafePointer<UInt8>?, Int, ErrorOut?) -> OpaquePointer?
        let renderDocument: @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeRawPointer?, ErrorOut?) -> Int32
        let unref: @convention(c) (OpaquePointer?) -> Void
        let freeError: @convention(c) (UnsafeMutableRawPointer?) -> Void
        let createSurface: @convention(c) (Int32, Int32, Int32) -> OpaquePointer?
        let surfaceStatus: @convention(c) (OpaquePointer?) -> Int32
        let destroySurface: @convention(c) (OpaquePointer?) -> Void
        let create: @convention(c) (OpaquePointer?) -> OpaquePointer?
        let destroy: @convention(c) (OpaquePointer?) -> Void
        let setSourceRGB: @convention(c) (OpaquePointer?, Double, Double, Double) -> Void
        let paint: @convention(c) (OpaquePointer?) -> Void
        let writePNG: @convention(c) (OpaquePointer?, WriteFunction?, UnsafeMutableRawPointer?) -> Int32
    }

    static let missing = "writing PNG needs librsvg and cairo (Debian: apt-get install librsvg2-2); write .svg instead"

    static let library: Library? = {
        guard let t = haptics_rsvg()?.pointee else { return nil }
        return Library(
            newHandle: t.rsvg_handle_new_from_data, renderDocument: t.rsvg_handle_render_document, unref: t.g_object_unref,
            freeError: t.g_error_free, createSurface: t.cairo_image_surface_create, surfaceStatus: t.cairo_surface_status,
            destroySurface: t.cairo_surface_destroy, create: t.cairo_create, destroy: t.cairo_destroy,
            setSourceRGB: t.cairo_set_source_rgb, paint: t.cairo_paint, writePNG: t.cairo_surface_write_to_png_stream)
    }()

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The PNG of an SVG document drawn at `width`×`height` pixels on white.
    static func png(_ svg: Data, width: Int, height: Int) throws(Failure) -> Data {
        guard let lib = library else { throw Failure(description: missing) }
        var error: UnsafeMutableRawPointer?
        let handle = svg.withUnsafeBytes { lib.newHandle($0.bindMemory(to: UInt8.self).baseAddress, $0.count, &error) }
        guard let handle else { throw Failure(description: "the SVG could not be read: \(message(of: error, lib))") }
        defer { lib.unref(handle) }
        // CAIRO_FORMAT_RGB24 (1): opaque, as the plot is.
        let surface = lib.createSurface(1, Int32(width), Int32(height))
        defer { lib.destroySurface(surface) }
        guard lib.surfaceStatus(surface) == 0 else { throw Failure(description: "cairo cannot make a \(width)×\(height) picture") }
        let context = lib.create(surface)
        defer { lib.destroy(context) }
        lib.setSourceRGB(context, 1, 1, 1)
        lib.paint(context)
        // librsvg's `RsvgRectangle`: x, y, width, height as doubles.
        let viewport: [Double] = [0, 0, Double(width), Double(height)]
        guard viewport.withUnsafeBytes({ lib.renderDocument(handle, context, $0.baseAddress, &error) }) != 0 else {
            throw Failure(description: "the SVG could not be drawn: \(message(of: error, lib))")
        }
        let output = PNGBytes()
        let status = lib.writePNG(
            surface,
            { closure, bytes, length in
                guard let closure, let bytes else { return 11 }  // CAIRO_STATUS_WRITE_ERROR
                Unmanaged<PNGBytes>.fromOpaque(closure).takeUnretainedValue().data.append(bytes, count: Int(length))
                return 0
            }, Unmanaged.passUnretained(output).toOpaque())
        guard status == 0 else { throw Failure(description: "cairo could not encode the PNG (status \(status))") }
        return output.data
    }

    private final class PNGBytes {
        var data = Data()
    }

    private static func message(of error: UnsafeMutableRawPointer?, _ lib: Library) -> String {
        guard let error else { return "unknown error" }
        defer { lib.freeError(error) }
        let message = error.load(fromByteOffset: MemoryLayout<UInt64>.size, as: UnsafePointer<CChar>?.self)
        return message.map { String(cString: $0) } ?? "unknown error"
    }
}
