import ArgumentParser
import Haptics

struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "devices", abstract: "Not yet available.")
    func run() throws { throw CLIError.invalidInput("'devices' is not implemented yet") }
}
