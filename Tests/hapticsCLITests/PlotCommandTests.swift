import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif
import HapticsTestSupport
import Testing

/// `haptics plot`: a well-formed SVG whose lanes show what the pattern holds.
@Suite("plot command")
struct PlotCommandTests {
    /// Element names and attributes of an SVG, or the parser's error.
    final class Elements: NSObject, XMLParserDelegate {
        var names: [String] = []
        var attributes: [[String: String]] = []
        var texts: [String] = []
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            names.append(name)
            self.attributes.append(attributes)
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) { texts.append(string) }
    }

    func parse(_ data: Data) throws -> Elements {
        let parser = XMLParser(data: data)
        let elements = Elements()
        parser.delegate = elements
        #expect(parser.parse(), "not well-formed XML: \(String(describing: parser.parserError))")
        return elements
    }

    @Test("plot writes a well-formed SVG with a stem per transient, a bar per continuous event and a lane per control")
    func svgLanes() async throws {
        let folder = try TemporaryFolder()
        try folder.write("sample.ahap", samplePattern)
        let result = try await HapticsProcess.run(["plot", "sample.ahap", "-o", "sample.svg"], in: folder.url, timeout: .seconds(60))
        #expect(result.status == 0, "\(result.errorOutput)")
        let svg = try parse(Data(contentsOf: folder.url.appendingPathComponent("sample.svg")))
        #expect(svg.names.first == "svg")
        #expect(svg.names.filter { $0 == "circle" }.count == 1, "one transient, one stem head")
        // One continuous event: one bar besides the lane backgrounds (which have a #fafafa fill).
        let bars = svg.attributes.enumerated().filter { svg.names[$0.offset] == "rect" && $0.element["fill-opacity"] == "0.6" }
        #expect(bars.count == 1)
        // The intensity and sharpness controls each get a lane, labelled.
        let labels = Set(svg.texts)
        #expect(labels.contains("intensity ctl") && labels.contains("sharpness ctl"), "\(labels)")
        #expect(labels.contains("drive signal"))
        // The drive signal is drawn: a path with many vertical strokes.
        let drive = try #require(svg.attributes.first { $0["stroke"] == "#1b7f3b" }?["d"])
        #expect(drive.filter { $0 == "V" }.count > 50)
    }

    @Test("an output that is neither .svg nor .png is a usage error naming the formats")
    func unknownExtension() async throws {
        let result = try await HapticsProcess.run(["plot", "success", "-o", "x.pdf"], timeout: .seconds(60))
        #expect(result.status == 2)
        #expect(result.errorLines == ["haptics: -o must end in .svg or .png (or be - for SVG on standard output), not 'x.pdf' (see 'haptics plot --help')"])
    }

    @Test("-o - writes the SVG to standard output")
    func standardOutput() async throws {
        let result = try await HapticsProcess.run(["plot", "success", "-o", "-"], timeout: .seconds(60))
        #expect(result.status == 0)
        let svg = try parse(result.stdout)
        #expect(svg.names.filter { $0 == "circle" }.count == 2, "success is two taps")
    }
}
