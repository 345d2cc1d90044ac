extension String {
    /// Names with numbers in numeric order: `iio:device2` before `iio:device10`, `card0-eDP-1` before `card1-DSI-1`.
    package func localizedStandardLess(_ other: String) -> Bool {
        let a = self.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        let b = other.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        let prefixA = self.prefix { !$0.isNumber }
        let prefixB = other.prefix { !$0.isNumber }
        if prefixA != prefixB { return prefixA < prefixB }
        return a.lexicographicallyPrecedes(b)
    }
}
