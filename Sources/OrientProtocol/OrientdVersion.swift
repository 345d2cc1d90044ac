/// orientd's version, which `orientd --version`, `orientctl --version`, the daemon's `status` and the Debian
/// package (scripts/build-deb.sh) all report.
package enum OrientdVersion {
    package static let string = "0.1.0"
}
