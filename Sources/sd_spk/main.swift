// sd_spk: a speech-dispatcher output module speaking with the spk synth plugins.
// speech-dispatcher starts it as `sd_spk CONFIGFILE` and talks to it on stdin/stdout.
import Glibc
import SpeechDispatcherModule

signal(SIGPIPE, SIG_IGN)
let arguments = CommandLine.arguments
exit(ModuleServer(configPath: arguments.count > 1 && !arguments[1].isEmpty ? arguments[1] : nil).run())
