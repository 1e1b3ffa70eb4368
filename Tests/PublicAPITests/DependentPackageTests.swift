import Foundation
import HapticsTestSupport
import Testing

/// Another package depends on this one with the README's lines: every library the README
/// teaches is a product, and the `package:` argument is the identity SwiftPM takes from the
/// dependency's path, as the README says. `swift package show-dependencies` loads the whole
/// package graph (a product not found, or an unknown package, fails it) without building.
@Suite("A package in another folder depends on this one")
struct DependentPackageTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The README's manifest fragment, with its commented-out product lines enabled.
    static func readmeFragment() throws -> String {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "```swift\n// Package.swift"))
        let end = try #require(readme[start.upperBound...].range(of: "\n```\n"))
        return readme[start.upperBound..<end.lowerBound].split(separator: "\n").dropFirst()
            .map { line in
                let code = line.trimmingCharacters(in: .whitespaces)
                return code.hasPrefix("// .product(") ? String(code.dropFirst(3)) : String(line)
            }
            .joined(separator: "\n")
    }

    /// The modules the README's Swift examples import or name (`import Haptics`, "(module
    /// `HapticsFormats`)").
    static func modulesTheReadmeTeaches() throws -> Set<String> {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        var modules = Set<String>()
        // The system's modules (`import Glibc` for `exit`) are no products of this package.
        let system: Set = ["Glibc", "Foundation", "Dispatch"]
        for line in readme.split(separator: "\n") where line.hasPrefix("import ") {
            let module = String(line.dropFirst("import ".count).prefix { $0.isLetter })
            if !system.contains(module) { modules.insert(module) }
        }
        var rest = readme[...]
        while let range = rest.range(of: "(module `") {
            rest = rest[range.upperBound...]
            modules.insert(String(rest.prefix { $0 != "`" }))
        }
        return modules
    }

    /// Writes a package `MyTool` beside a link named `folderName` to this checkout, whose manifest
    /// is the README's fragment with `package: "haptics"` replaced by `identity`, and loads its graph.
    func resolve(folderName: String, identity: String) throws -> (status: Int32, output: String, fragment: String) {
        let folder = try TemporaryFolder(prefix: "haptics-dependent")
        defer { withExtendedLifetime(folder) {} }
        try FileManager.default.createSymbolicLink(
            at: folder.file(folderName), withDestinationURL: Self.packageRoot)
        let fragment = try Self.readmeFragment()
            .replacing(#"path: "../haptics""#, with: #"path: "../\#(folderName)""#)
            .replacing(#"package: "haptics""#, with: #"package: "\#(identity)""#)
        let manifest = """
            // swift-tools-version:6.0
            import PackageDescription

            let package = Package(
                name: "MyTool",
            \(fragment)
            )

            """
        try FileManager.default.createDirectory(at: folder.file("MyTool/Sources/MyTool"), withIntermediateDirectories: true)
        _ = try folder.write("MyTool/Package.swift", manifest)
        _ = try folder.write("MyTool/Sources/MyTool/main.swift", "import Haptics\n")
        let run = try shell("cd '\(folder.path("MyTool"))' && swift package show-dependencies 2>&1")
        return (run.status, run.output, fragment)
    }

    @Test("every module the README imports or names is a library product its manifest lines can depend on")
    func readmeLibrariesAreProducts() throws {
        let fragment = try Self.readmeFragment()
        let taught = try Self.modulesTheReadmeTeaches()
        #expect(taught.isSuperset(of: ["Haptics", "CoreHaptics", "HapticsFormats"]), "\(taught)")
        for module in taught {
            #expect(fragment.contains(#".product(name: "\#(module)", package: "haptics")"#), "the README's manifest lines do not depend on \(module)")
        }
        let run = try resolve(folderName: "haptics", identity: "haptics")
        #expect(run.status == 0, "\(run.output)\n\(run.fragment)")
        #expect(!run.output.contains("not found"), "\(run.output)")
    }

    @Test("a checkout in a folder of another name is named by that folder, as the README says")
    func identityIsTheFolderName() throws {
        let readme = try String(contentsOf: Self.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
            .replacing("\n", with: " ")
        #expect(readme.contains(#"for `.package(path: "../haptics-main")` write `package: "haptics-main"`"#))
        let wrong = try resolve(folderName: "haptics-main", identity: "haptics")
        #expect(wrong.status != 0)
        #expect(wrong.output.contains("unknown package 'haptics' in dependencies of target 'MyTool'"), "\(wrong.output)")
        let right = try resolve(folderName: "haptics-main", identity: "haptics-main")
        #expect(right.status == 0, "\(right.output)")
    }
}
