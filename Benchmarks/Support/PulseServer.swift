import Foundation

/// A private PulseAudio server with one mono Float32 null sink, its socket in a directory of its
/// own, so the benchmark never meets a user's server. `PULSE_SERVER` is set for this process and
/// every program it starts (the ALSA `pulse` device, the CLI, paplay, aplay, parec).
package final class PulseServer {
    package let sinkName = "bench"
    package let sampleRate: Int
    private let daemon: Child
    private let directory: URL

    package init?(sampleRate: Int) {
        guard let pulseaudio = executable("pulseaudio"), let directory = try? makePrivateFolder(prefix: "haptics-latency") else { return nil }
        self.directory = directory
        self.sampleRate = sampleRate
        try? FileManager.default.createDirectory(at: directory.appendingPathComponent("state"), withIntermediateDirectories: true)
        let socket = directory.appendingPathComponent("native").path
        setenv("PULSE_RUNTIME_PATH", directory.path, 1)
        setenv("PULSE_STATE_PATH", directory.appendingPathComponent("state").path, 1)
        setenv("PULSE_SERVER", "unix:\(socket)", 1)
        let arguments = [
            pulseaudio, "--daemonize=no", "-n", "--use-pid-file=no", "--exit-idle-time=-1", "--disallow-exit",
            // As a desktop's server runs: real-time, so the figures are the clients'.
            "--realtime=yes", "--high-priority=yes",
            "--load=module-null-sink sink_name=\(sinkName) rate=\(sampleRate) channels=1 format=float32le norewinds=1",
            "--load=module-native-protocol-unix socket=\(socket) auth-anonymous=1",
        ]
        // setpriv's parent-death signal: a benchmark that dies leaves no server behind.
        let setpriv = executable("setpriv")
        daemon = Child(setpriv.map { [$0, "--pdeathsig", "TERM", "--"] + arguments } ?? arguments)
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: socket) {
            guard Date() < deadline, kill(daemon.pid, 0) == 0 else {
                stop()
                return nil
            }
            usleep(20_000)
        }
        usleep(300_000)
        // The main thread, which receives the streams, real-time as well when permitted (see
        // the tests' PulseAudioServer): a busy machine then delays the clients measured, not
        // the server.
        var parameters = sched_param()
        parameters.sched_priority = 5
        _ = sched_setscheduler(daemon.pid, SCHED_FIFO, &parameters)
    }

    package func stop() {
        daemon.terminate()
        try? FileManager.default.removeItem(at: directory)
    }
}
