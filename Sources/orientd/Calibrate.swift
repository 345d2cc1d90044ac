import ArgumentParser
import Logging
import OrientPosix
import OrientTools
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

extension Orientd {
    /// `orientd calibrate`: measures the mount matrices in a few poses and writes the hwdb quirk.
    struct Calibrate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Measure the accelerometers' mount matrices in a few poses and write them as a hwdb quirk.",
            discussion: """
                A guided session. A tablet: pose 1, upright in the natural orientation; pose 2, a quarter turn onto \
                the right edge, left edge up; pose 3, another quarter turn, upside down; pose 4, lying flat with the \
                screen up. A convertible: pose 1, opened to about 90-130 degrees on a table; pose 2, still open, stood \
                on its right side; pose 3, folded into a tablet, screen up. Each pose is taken once the \
                readings have been still for about a second and a quarter turn (60 to 120 degrees) from the previous \
                one, or at once by Enter when standard input is a terminal; without one, poses are taken by stillness \
                alone, for scripts. Where the device lies when calibrate starts is not a pose: pose 1 is taken by \
                stillness only once the device has turned 30 degrees away from there (Enter takes it regardless). A \
                pose while still in the previous one, motion, or readings far from 1 g are refused with what to do. \
                From two poses each sensor's matrix follows (device axis i = row i . sensor vector, z = x cross y), \
                taken as the nearest axis-aligned rotation when within 10 degrees of one; the other poses check it \
                within 20 degrees, chosen so that a pose taken one step early fails a check instead of giving a matrix \
                a quarter turn off. A convertible's base sensor is measured in the frame the posture code uses (the \
                display's when opened flat, x along the hinge); its display, which leans back by an unknown angle \
                when it stands open, is measured from poses 2 and 3 and checked by pose 1. \
                The result is the hwdb block (match line sensor:modalias:<parent modalias>:dmi:*svn<vendor>:*pn<product>:* \
                and ACCEL_MOUNT_MATRIX, with ACCEL_LOCATION=base for the base), written to the hwdb file unless \
                --no-write or the matrices in use are already right. Only calibrate's own earlier block for the same \
                match is replaced, atomically; for the default file, systemd-hwdb update and udevadm trigger follow. \
                Ctrl-C, or a sensor going away, before the end leaves every file as it was. Stop the orientd service \
                first if the sensor cannot be shared. Exit status: 0 when done, 65 when a check pose disagrees, 66 \
                when there is no sensor, 69 when a sensor goes away or no match line can be built, 73 or 74 when the \
                file cannot be written or read, 130 when interrupted.
                """
        )

        @Option(help: "The display accelerometer: a driver name, an id such as iio:device0, or a sysfs path.")
        var device: String?

        @Option(help: "The keyboard-base accelerometer of a convertible (default: the one whose location is base).")
        var baseDevice: String?

        @Option(help: "The hwdb file to write (default: \(CalibrateRequest.defaultHwdbFile)).")
        var hwdbFile: String?

        @Flag(help: "Measure and print only: write no file.")
        var noWrite = false

        @Flag(help: "Print a JSON document instead.")
        var json = false

        func run() async throws {
            LoggingSystem.bootstrap { JournalLogHandler(label: $0, level: .critical) }
            let request = CalibrateRequest(device: device, baseDevice: baseDevice, hwdbFile: hwdbFile, writes: !noWrite)
            let environment = CalibrateEnvironment(
                readFile: { path in
                    switch readTextFile(path) {
                    case .success(let text): return text
                    case .failure(.noSuchFileOrDirectory): return nil
                    case .failure(let error): throw error
                    }
                },
                writeFile: { text, path in try AtomicFile.write(text, to: path) },
                say: printError, signals: ProcessSignals.stream(), readsEnter: isatty(0) == 1,
                logger: Logger(label: "orientd calibrate"))
            let report: CalibrationReport
            do {
                report = try await CalibrationSession.run(request, environment)
            } catch {
                printError("orientd: \(error)")
                throw ExitCode(error.status)
            }
            print(json ? try report.json() : report.text)
        }
    }
}
