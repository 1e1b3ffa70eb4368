import Foundation
import HapticsTestSupport
import Testing

/// `haptics plot -o x.png`: the SVG drawn by librsvg into a PNG of the same size.
@Suite("plot command, PNG output")
struct PlotPNGTests {
    @Test("a .png output is a PNG as large as the SVG, with the plot drawn in it")
    func pngMatchesTheSVG() async throws {
        let folder = try TemporaryFolder()
        let svgRun = try await HapticsProcess.run(["plot", "success", "-o", "s.svg"], in: folder.url, timeout: .seconds(60))
        let pngRun = try await HapticsProcess.run(["plot", "success", "-o", "s.png"], in: folder.url, timeout: .seconds(60))
        #expect(svgRun.status == 0 && pngRun.status == 0, "\(svgRun.errorOutput)\(pngRun.errorOutput)")
        let svg = try String(contentsOf: folder.url.appendingPathComponent("s.svg"), encoding: .utf8)
        let png = try [UInt8](Data(contentsOf: folder.url.appendingPathComponent("s.png")))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "PNG signature")
        try #require(png.count > 33)
        #expect(Array(png[12..<16]) == Array("IHDR".utf8))
        func bigEndian(_ at: Int) -> Int { png[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        let width = try #require(svg.firstMatch(of: /<svg[^>]* width="(\d+)" height="(\d+)"/))
        #expect(bigEndian(16) == Int(width.1) && bigEndian(20) == Int(width.2), "PNG \(bigEndian(16))×\(bigEndian(20)), SVG \(width.1)×\(width.2)")
        // A blank white picture of this size compresses to a few hundred bytes; lines, text and
        // the drive signal take tens of kilobytes.
        #expect(png.count > 10_000, "\(png.count) bytes: nothing drawn?")
    }
}
