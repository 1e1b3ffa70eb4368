import Foundation
extension Unmanaged {
    /// Releases the reference later, as Objective-C's autorelease does: plugins written for
    /// Apple's platforms (Unity's, for one) hand objects to their host with
    /// `Unmanaged.passRetained(object).autorelease().toOpaque()`.
    ///
    /// Linux has no autorelease pools; the release happens when the current thread's run loop
    /// next runs (the main thread of an app that runs one, as a pool would drain there). On a
    /// thread whose run loop never runs, the reference is kept, as an object autoreleased
    /// outside any pool is on Apple's platforms.
    @discardableResult
    public func autorelease() -> Unmanaged<Instance> {
        let reference = Unchecked(value: self)
        RunLoop.current.perform { reference.value.release() }
        return self
    }
}
