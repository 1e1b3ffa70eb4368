import Foundation
/// One haptic or audio event at a time relative to its pattern's start, as in Apple's SDK.
///
/// A pattern copies its events when it is created (``CHHapticPattern/init(events:parameters:)``):
/// changing an event afterwards does not change patterns already made from it.
open class CHHapticEvent {
    /// The kind of event.
    public let type: EventType
    /// The event's parameters, in the order given. Missing ones take their defaults.
    public let eventParameters: [CHHapticEventParameter]
    /// Seconds from the pattern's start.
    open var relativeTime: TimeInterval
    /// The event's length in seconds. A transient's duration only pads the pattern; a
    /// continuous event sounds for this long, then releases. 0 (unset) for a continuous
    /// event means no fixed end, as Apple's header says: in a pattern made from events it
    /// sounds until its player stops (a non-sustained one until its envelope has decayed),
    /// at most until the 3,600 s a pattern may last, which then is the pattern's duration.
    open var duration: TimeInterval
    /// The registered audio resource an ``EventType/audioCustom`` event plays.
    let audioResourceID: CHHapticAudioResourceID?

    /// Creates an event without a duration (for transients).
    public init(eventType type: EventType, parameters eventParams: [CHHapticEventParameter], relativeTime time: TimeInterval) {
        self.type = type
        eventParameters = eventParams
        relativeTime = time
        duration = 0
        audioResourceID = nil
    }

    /// Creates an event with a duration.
    public init(
        eventType type: EventType, parameters eventParams: [CHHapticEventParameter], relativeTime time: TimeInterval,
        duration: TimeInterval
    ) {
        self.type = type
        eventParameters = eventParams
        relativeTime = time
        self.duration = duration
        audioResourceID = nil
    }

    /// Creates an ``EventType/audioCustom`` event playing an audio resource registered with
    /// ``CHHapticEngine/registerAudioResource(_:options:)``.
    public init(
        audioResourceID resID: CHHapticAudioResourceID, parameters eventParams: [CHHapticEventParameter],
        relativeTime time: TimeInterval
    ) {
        type = .audioCustom
        eventParameters = eventParams
        relativeTime = time
        duration = 0
        audioResourceID = resID
    }

    /// Creates an ``EventType/audioCustom`` event playing a registered audio resource, cut
    /// or padded with silence to `duration` (0: the sound's own length).
    public init(
        audioResourceID resID: CHHapticAudioResourceID, parameters eventParams: [CHHapticEventParameter],
        relativeTime time: TimeInterval, duration: TimeInterval
    ) {
        type = .audioCustom
        eventParameters = eventParams
        relativeTime = time
        self.duration = duration
        audioResourceID = resID
    }

    // MARK: NSObject's identity

    /// The instance's class and address (`<CHHapticEvent: 0x…>`), as `NSObject` describes it.
    open var description: String { instanceDescription(self) }
    /// The same as ``description``.
    open var debugDescription: String { description }
    /// Whether `object` is this very instance (override to compare by value, with ``hash``).
    open func isEqual(_ object: Any?) -> Bool { object.map { $0 as AnyObject } === self }
    /// The instance's identity as a number (override with ``isEqual(_:)``).
    open var hash: Int { ObjectIdentifier(self).hashValue }
}
