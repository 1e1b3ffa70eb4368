import Foundation

// What `NSObject` gives Apple's Core Haptics classes, given here without `NSObject` (whose
// `init()` cannot be overridden by `CHHapticEngine`'s throwing one): a description naming the
// instance, so `String(describing:)` tells two objects apart (bridges key players by it), and
// equality and hashing by identity, which subclasses may refine by overriding `isEqual(_:)`
// and `hash` as they would `NSObject`'s.

/// `<CHHapticPattern: 0x…>`, as `NSObject` describes an instance: its class and address.
func instanceDescription(_ object: AnyObject) -> String {
    "<\(type(of: object)): \(UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()))>"
}

extension CHHapticEngine: Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// Whether two engines are equal: by identity, as `NSObject` compares (see ``isEqual(_:)``).
    public static func == (lhs: CHHapticEngine, rhs: CHHapticEngine) -> Bool { lhs.isEqual(rhs) }
    /// Hashes ``hash``, so subclasses that override ``isEqual(_:)`` and ``hash`` stay consistent.
    public func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}

extension CHHapticPattern: Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// Whether two patterns are equal: by identity, as `NSObject` compares (see ``isEqual(_:)``).
    public static func == (lhs: CHHapticPattern, rhs: CHHapticPattern) -> Bool { lhs.isEqual(rhs) }
    /// Hashes ``hash``, so subclasses that override ``isEqual(_:)`` and ``hash`` stay consistent.
    public func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}

extension CHHapticEvent: Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// Whether two events are equal: by identity, as `NSObject` compares (see ``isEqual(_:)``).
    public static func == (lhs: CHHapticEvent, rhs: CHHapticEvent) -> Bool { lhs.isEqual(rhs) }
    /// Hashes ``hash``, so subclasses that override ``isEqual(_:)`` and ``hash`` stay consistent.
    public func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}

extension CHHapticEventParameter: Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// Whether two parameters are equal: by identity, as `NSObject` compares (see ``isEqual(_:)``).
    public static func == (lhs: CHHapticEventParameter, rhs: CHHapticEventParameter) -> Bool { lhs.isEqual(rhs) }
    /// Hashes ``hash``, so subclasses that override ``isEqual(_:)`` and ``hash`` stay consistent.
    public func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}

extension CHHapticDynamicParameter: Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// Whether two parameters are equal: by identity, as `NSObject` compares (see ``isEqual(_:)``).
    public static func == (lhs: CHHapticDynamicParameter, rhs: CHHapticDynamicParameter) -> Bool { lhs.isEqual(rhs) }
    /// Hashes ``hash``, so subclasses that override ``isEqual(_:)`` and ``hash`` stay consistent.
    public func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}

extension CHHapticParameterCurve: Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// Whether two curves are equal: by identity, as `NSObject` compares (see ``isEqual(_:)``).
    public static func == (lhs: CHHapticParameterCurve, rhs: CHHapticParameterCurve) -> Bool { lhs.isEqual(rhs) }
    /// Hashes ``hash``, so subclasses that override ``isEqual(_:)`` and ``hash`` stay consistent.
    public func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}

extension CHHapticParameterCurve.ControlPoint: Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// Whether two points are equal: by identity, as `NSObject` compares (see ``isEqual(_:)``).
    public static func == (lhs: CHHapticParameterCurve.ControlPoint, rhs: CHHapticParameterCurve.ControlPoint) -> Bool {
        lhs.isEqual(rhs)
    }
    /// Hashes ``hash``, so subclasses that override ``isEqual(_:)`` and ``hash`` stay consistent.
    public func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}

extension NativePatternPlayer: Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    static func == (lhs: NativePatternPlayer, rhs: NativePatternPlayer) -> Bool { lhs === rhs }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    var description: String { instanceDescription(self) }
    var debugDescription: String { description }
}
