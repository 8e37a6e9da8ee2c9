import ArgumentParser
import Foundation
import SpeechDispatcherModule

/// `spkhost speechd enable|disable`: offers spk's voices to every speech-dispatcher client.
struct SpeechdCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "speechd",
        abstract: "Register spk's speech-dispatcher module (sd_spk) for this user, or remove it.",
        subcommands: [Enable.self, Disable.self])

    struct Enable: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add sd_spk to ~/.config/speech-dispatcher/speechd.conf (the rest of the file stays as it is).",
            discussion: "Restart speech-dispatcher afterwards (it reads its configuration when it starts): killall -HUP speech-dispatcher, or log out and in.")

        @Flag(name: .customLong("default"), help: "Also make spk the default module (DefaultModule spk).") var makeDefault = false
        @Option(help: "The sd_spk program (default: beside spkhost, else where scripts/setup.sh installs it).") var module: String?
        @Option(help: "sd_spk's configuration file (default: spk.conf beside the module).") var config: String?
        @Option(help: "The speech-dispatcher configuration to change.") var userConfig: String?

        func run() throws {
            try failing {
                let executable = Bundle.main.executablePath
                guard let module = module.map(absolute) ?? ModuleInstallation.find(ModuleInstallation.programName, besideExecutable: executable) else {
                    throw ValidationError("sd_spk is not installed (looked in \(ModuleInstallation.directories(besideExecutable: executable).joined(separator: ", "))); run scripts/setup.sh")
                }
                let moduleDirectory = (module as NSString).deletingLastPathComponent
                let config = config.map(absolute) ?? moduleDirectory + "/" + ModuleInstallation.configName
                let file = SpeechdUserConfig(userPath: userConfig.map(absolute) ?? SpeechdUserConfig.defaultUserPath())
                print(try file.enable(module: module, config: config, makeDefault: makeDefault))
            }
        }
    }

    struct Disable: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove exactly what `enable` added.")
        @Option(help: "The speech-dispatcher configuration to change.") var userConfig: String?

        func run() throws {
            try failing {
                print(try SpeechdUserConfig(userPath: userConfig.map(absolute) ?? SpeechdUserConfig.defaultUserPath()).disable())
            }
        }
    }
}

private func absolute(_ path: String) -> String {
    path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
}
