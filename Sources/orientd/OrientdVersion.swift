enum OrientdVersion {
    static let string = "0.1.0"
}
