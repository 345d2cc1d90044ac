import OrientctlCommands

/// orientctl's entry point in a development build (the release's is orientd's binary, called as orientctl).
@main
enum OrientctlMain {
    static func main() async {
        await Orientctl.main()
    }
}
