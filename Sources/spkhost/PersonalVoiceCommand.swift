import ArgumentParser
import Foundation
import LV2Host
import PersonalVoice
import SpkAudio

struct PersonalVoiceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "personal-voice",
        abstract: "A voice of your own: record phrases, build the voice, and choose which apps may use it.",
        discussion: """
        Everything stays in $XDG_DATA_HOME/spk/personal/ (owner-only). Phrases you recorded are \
        played back whenever a sentence matches one; everything else is spoken by a synthetic voice \
        matched to your pitch and pace. Apps see the voice only once you authorize them.
        """,
        subcommands: [Record.self, Create.self, List.self, Delete.self, Authorize.self, Revoke.self, Status.self])

    struct Record: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Record the phrase script from a JACK input (or take WAV files with .txt transcripts).")
        @Option(help: "The voice's name.") var name: String
        @Option(help: "A directory of NAME.wav + NAME.txt takes to use instead of recording.") var from: String?
        @Option(help: "The JACK port to record from (default: the first system capture port).") var port: String?
        @Option(help: "JACK server name.") var server: String?

        func run() throws {
            try failing {
                let store = PersonalStore()
                let slug = PersonalStore.slug(name)
                guard !slug.isEmpty else { throw HostError("the name '\(name)' has no letters or digits") }
                let recordings = store.directory(slug) + "/recordings"
                try store.makePrivateDirectory(recordings)
                let kept: Int
                if let from {
                    kept = try importTakes(from: from, into: recordings, store: store)
                } else {
                    kept = try JACKTakeRecorder(server: server, port: port).recordScript(into: recordings, store: store)
                }
                print("\(kept) take\(kept == 1 ? "" : "s") kept in \(recordings); next: spkhost personal-voice create --name \"\(name)\"")
            }
        }

        /// Checks each take and copies the good ones in; says why each other one was left out.
        private func importTakes(from directory: String, into recordings: String, store: PersonalStore) throws -> Int {
            var kept = 0
            for take in try PersonalVoiceBuilder.takes(in: directory) {
                guard let path = take.audioPath, let text = take.text else {
                    print("left out \(take.name): \(take.audioPath == nil ? "missing recording" : "missing transcript")")
                    continue
                }
                let audio: MonoAudio
                do { audio = try AudioFileReader.readMono(path: path) } catch {
                    print("left out \(take.name): unreadable (\(error))")
                    continue
                }
                if let problem = TakeCheck.problem(in: audio.samples, sampleRate: audio.sampleRate) {
                    print("left out \(take.name): \(problem)")
                    continue
                }
                try TakeFiles.save(audio, text: text, name: take.name, in: recordings, store: store)
                kept += 1
            }
            return kept
        }
    }

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Build the voice from its recordings.")
        @Option(help: "The voice's name.") var name: String
        @Option(help: "Build from this directory of takes instead of the recorded ones.") var from: String?

        func run() throws {
            try failing {
                let store = PersonalStore()
                store.removeUnfinishedVoices()
                let directory = from ?? store.directory(PersonalStore.slug(name)) + "/recordings"
                let takes = try PersonalVoiceBuilder.takes(in: directory)
                let matcher = VoiceMatcher(world: LV2World())
                let (profile, rejected) = try PersonalVoiceBuilder(store: store).build(
                    name: name, takes: takes, progress: { print($0); fflush(stdout) }, match: matcher.match)
                for r in rejected { print("left out \(r.take): \(r.reason)") }
                let a = profile.analysis, s = profile.synthetic
                print(String(format: "created %@: %d phrases banked; pitch %.0f Hz (%.0f to %.0f), %.0f words a minute; synthetic voice %@ at pitch x%.2f, rate x%.2f",
                             profile.identifier, profile.bank.count, a.meanPitch, a.pitchLow, a.pitchHigh, a.wordsPerMinute, s.base, s.pitch, s.rate))
                print("apps see it once you allow them: spkhost personal-voice authorize APP")
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Your personal voices.")
        @Flag(help: "Print JSON.") var json = false
        func run() throws {
            try failing {
                let profiles = PersonalStore().voices()
                if json { return try printJSON(profiles) }
                printTable(["IDENTIFIER", "NAME", "PHRASES", "PITCH", "SYNTHETIC"], profiles.map {
                    [$0.identifier, $0.name, "\($0.bank.count)", "\(Int($0.analysis.meanPitch)) Hz", $0.synthetic.base]
                })
            }
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a personal voice and every file of it.")
        @Argument(help: "The voice's name.") var name: String
        func run() throws {
            try failing {
                try PersonalStore().delete(name: name)
                print("deleted \(name)")
            }
        }
    }

    struct Authorize: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Let an app use your personal voices.")
        @Argument(help: "The app (its program name, or the SPK_CLIENT it sets).") var client: String
        func run() throws {
            try failing {
                try Authorization().set(.authorized, for: client)
                print("\(client): authorized")
            }
        }
    }

    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop an app from using your personal voices.")
        @Argument(help: "The app.") var client: String
        func run() throws {
            try failing {
                try Authorization().set(.denied, for: client)
                print("\(client): denied")
            }
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Which apps may use your personal voices.")
        @Argument(help: "One app, or every app you answered for.") var client: String?
        func run() throws {
            try failing {
                let authorization = Authorization()
                if let client { return print("\(client): \(authorization.status(of: client).rawValue)") }
                let all = try authorization.all()
                if all.isEmpty { print("no app has asked yet") }
                for (client, status) in all.sorted(by: { $0.key < $1.key }) { print("\(client): \(status.rawValue)") }
            }
        }
    }
}

/// Takes as the store keeps them: `NNN.wav` (the audio as recorded) and `NNN.txt`, owner-only.
enum TakeFiles {
    static func save(_ audio: MonoAudio, text: String, name: String, in directory: String, store: PersonalStore) throws {
        let wav = "\(directory)/\(name).wav"
        let writer = try AudioFileWriter(path: wav, sampleRate: audio.sampleRate)
        try writer.write(audio.samples)
        try writer.commit()
        chmod(wav, 0o600)
        try store.writePrivate(Data((text + "\n").utf8), to: "\(directory)/\(name).txt")
    }
}
