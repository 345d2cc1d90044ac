/// Maps a stretch of values onto a stretch of pixels (either way round: a y axis grows upwards).
struct LinearScale {
    let domain: (start: Double, end: Double)
    let pixels: (start: Double, end: Double)

    /// A domain of zero length (one sample, a constant series) is widened so that it still maps somewhere.
    init(domain: (Double, Double), pixels: (Double, Double)) {
        let (start, end) = domain
        self.domain = end > start ? (start, end) : (start, start + 1)
        self.pixels = pixels
    }

    func callAsFunction(_ value: Double) -> Double {
        pixels.start + (value - domain.start) / (domain.end - domain.start) * (pixels.end - pixels.start)
    }
}
