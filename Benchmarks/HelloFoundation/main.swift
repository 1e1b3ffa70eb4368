// The start-up anchor for commands that only read and print: the smallest Foundation program,
// built with the same flags as `haptics` (release, --static-swift-stdlib).
import Foundation

print("hello")
