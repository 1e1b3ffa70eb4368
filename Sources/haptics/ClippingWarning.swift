import FoundationEssentials

/// The one-line warning `render` and `play` print on standard error when the signal clipped,
/// so that it is seen without `--stats`:
/// `haptics: warning: the signal clipped: 1234 of 48000 samples (2.57%) exceeded ±1 and were cut; lower --gain or the pattern's intensities`.
func clippingWarning(clippedSamples: Int, of totalSamples: Int) -> String? {
    guard clippedSamples > 0 else { return nil }
    let total = max(totalSamples, clippedSamples)
    let percent = 100 * Double(clippedSamples) / Double(total)
    return
        "haptics: warning: the signal clipped: \(clippedSamples) of \(total) samples (\(percent.fixed(2))%) exceeded ±1 and were cut; lower --gain or the pattern's intensities"
}
