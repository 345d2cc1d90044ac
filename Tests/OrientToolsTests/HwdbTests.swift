import OrientCore
import OrientTools
import Testing

/// The hwdb match line and block `orientd calibrate` writes, and how it edits a local hwdb file.
@Suite("hwdb blocks")
struct HwdbTests {
    /// A real machine's /sys/class/dmi/id/modalias (a Lenovo Yoga), spaces already stripped by the kernel.
    static let dmi =
        "dmi:bvnLENOVO:bvrDJCN23WW:bd09/17/2018:br1.23:efr1.23:svnLENOVO:pn81CT:pvrLenovoYOGA730-13IKB:"
        + "rvnLENOVO:rnLNVNB161216:rvrSDK0J40709WIN:cvnLENOVO:ct31:cvrLenovoYOGA730-13IKB:\n"

    static let matrix = try! MountMatrix(parsing: "0, -1, 0; -1, 0, 0; 0, 0, 1")

    @Test(
        "The match line: the parent modalias whole, the system vendor and product name from the DMI modalias",
        arguments: [
            ("acpi:BOSC0200:", "sensor:modalias:acpi:BOSC0200::dmi:*svnLENOVO:*pn81CT:*"),
            ("platform:HID-SENSOR-200073\n", "sensor:modalias:platform:HID-SENSOR-200073:dmi:*svnLENOVO:*pn81CT:*"),
            // Glob characters match themselves only as `?`: hwdb has no escapes.
            ("of:NaccelT(null)Cst,lis3[x]*", "sensor:modalias:of:NaccelT(null)Cst,lis3?x??:dmi:*svnLENOVO:*pn81CT:*"),
        ])
    func matchLine(parent: String, line: String) throws {
        #expect(try HwdbMatch(parentModalias: parent, dmiModalias: Self.dmi).line == line)
    }

    @Test("Each way a match cannot be built is named")
    func matchErrors() {
        #expect(throws: HwdbMatchError(description: "the sensor's parent device has no modalias")) {
            try HwdbMatch(parentModalias: " \n", dmiModalias: Self.dmi)
        }
        #expect(throws: HwdbMatchError(description: "the DMI modalias has no pn field (product name)")) {
            try HwdbMatch(parentModalias: "acpi:BOSC0200:", dmiModalias: "dmi:svnLENOVO:pvrX:")
        }
        #expect(throws: HwdbMatchError(description: "the DMI modalias has no svn field (system vendor)")) {
            try HwdbMatch(parentModalias: "acpi:BOSC0200:", dmiModalias: "dmi:svn:pn81CT:")
        }
        #expect(throws: HwdbMatchError(description: "the DMI modalias \"pci:v1\" does not start with dmi:")) {
            try HwdbMatch(parentModalias: "acpi:BOSC0200:", dmiModalias: "pci:v1")
        }
    }

    @Test("A display block and a base block, as hwdb reads them: comment, match, indented properties")
    func blocks() throws {
        let match = try HwdbMatch(parentModalias: "acpi:BOSC0200:", dmiModalias: Self.dmi)
        let display = HwdbBlock(match: match, mountMatrix: Self.matrix, isBase: false, sensorName: "accel_3d")
        #expect(
            display.text == """
                # orientd calibrate: display accelerometer accel_3d
                sensor:modalias:acpi:BOSC0200::dmi:*svnLENOVO:*pn81CT:*
                 ACCEL_MOUNT_MATRIX=0, -1, 0; -1, 0, 0; 0, 0, 1

                """)
        let base = HwdbBlock(match: match, mountMatrix: .identity, isBase: true, sensorName: "bmc150")
        #expect(
            base.record == """
                sensor:modalias:acpi:BOSC0200::dmi:*svnLENOVO:*pn81CT:*
                 ACCEL_MOUNT_MATRIX=1, 0, 0; 0, 1, 0; 0, 0, 1
                 ACCEL_LOCATION=base
                """)
    }

    static func block(_ parent: String, _ matrix: MountMatrix, base: Bool = false) -> HwdbBlock {
        HwdbBlock(
            match: try! HwdbMatch(parentModalias: parent, dmiModalias: dmi), mountMatrix: matrix, isBase: base,
            sensorName: "accel_3d")
    }

    @Test("A new file starts with a header that says which blocks calibrate owns")
    func newFile() {
        let text = HwdbFileEdit.applying([Self.block("acpi:BOSC0200:", Self.matrix)], to: nil)
        #expect(text.hasPrefix(HwdbFileEdit.header + "\n\n# orientd calibrate: display accelerometer accel_3d\n"))
        #expect(text.hasSuffix(" ACCEL_MOUNT_MATRIX=0, -1, 0; -1, 0, 0; 0, 0, 1\n"))
    }

    @Test("Only calibrate's own block for the same match is replaced, in place; a person's block with that match stays")
    func replacesOwnBlockOnly() {
        let existing = """
            # my own quirk for this very sensor, written by hand
            sensor:modalias:acpi:BOSC0200::dmi:*svnLENOVO:*pn81CT:*
             ACCEL_MOUNT_MATRIX=1, 0, 0; 0, 1, 0; 0, 0, 1

            # orientd calibrate: display accelerometer accel_3d
            sensor:modalias:acpi:BOSC0200::dmi:*svnLENOVO:*pn81CT:*
             ACCEL_MOUNT_MATRIX=0, 1, 0; 1, 0, 0; 0, 0, -1

            # orientd calibrate: base accelerometer accel_3d
            sensor:modalias:acpi:KIOX010A::dmi:*svnLENOVO:*pn81CT:*
             ACCEL_MOUNT_MATRIX=1, 0, 0; 0, 1, 0; 0, 0, 1
             ACCEL_LOCATION=base
            # a trailing comment

            """
        let edited = HwdbFileEdit.applying([Self.block("acpi:BOSC0200:", Self.matrix)], to: existing)
        #expect(
            edited
                == existing.replacingOccurrences(
                    of: " ACCEL_MOUNT_MATRIX=0, 1, 0; 1, 0, 0; 0, 0, -1",
                    with: " ACCEL_MOUNT_MATRIX=0, -1, 0; -1, 0, 0; 0, 0, 1"))
        // Once more with the same block: nothing changes.
        #expect(HwdbFileEdit.applying([Self.block("acpi:BOSC0200:", Self.matrix)], to: edited) == edited)
    }

    @Test("A block for a new match is appended after an empty line; a file without a final newline gets one")
    func appends() {
        let existing =
            "sensor:modalias:acpi:SMO8500*:dmi:*svnFoo:*pnBar:*\n ACCEL_MOUNT_MATRIX=1, 0, 0; 0, 1, 0; 0, 0, 1"
        let edited = HwdbFileEdit.applying(
            [Self.block("acpi:BOSC0200:", Self.matrix), Self.block("acpi:KIOX010A:", .identity, base: true)],
            to: existing)
        #expect(
            edited == existing + """


                # orientd calibrate: display accelerometer accel_3d
                sensor:modalias:acpi:BOSC0200::dmi:*svnLENOVO:*pn81CT:*
                 ACCEL_MOUNT_MATRIX=0, -1, 0; -1, 0, 0; 0, 0, 1

                # orientd calibrate: base accelerometer accel_3d
                sensor:modalias:acpi:KIOX010A::dmi:*svnLENOVO:*pn81CT:*
                 ACCEL_MOUNT_MATRIX=1, 0, 0; 0, 1, 0; 0, 0, 1
                 ACCEL_LOCATION=base

                """)
    }
}

extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
