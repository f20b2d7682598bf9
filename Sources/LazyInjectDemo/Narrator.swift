import Foundation

/// Prints the demo's account, and keeps it so that tests can check what each scene says.
///
/// `nonisolated`: background work narrates too.
nonisolated final class Narrator: Sendable {
  static let shared = Narrator()

  private let lock = NSLock()
  // Guarded by `lock`.
  nonisolated(unsafe) private var recorded: [String] = []
  nonisolated(unsafe) private var echoes = true
  nonisolated(unsafe) private var serials: [String: Int] = [:]

  /// Everything said since the last `reset`.
  var lines: [String] { lock.withLock { recorded } }

  /// Forgets what was said and restarts the serial numbers; `echo: false` stops printing.
  func reset(echo: Bool) {
    lock.withLock {
      recorded = []
      serials = [:]
      echoes = echo
    }
  }

  func say(_ line: String) {
    let echo = lock.withLock {
      recorded.append(line)
      return echoes
    }
    if echo {
      print(line)
    }
  }

  /// `"ResourceLoader #1"`, `"ResourceLoader #2"`...: names that do not depend on addresses.
  func nextName(for kind: String) -> String {
    lock.withLock {
      serials[kind, default: 0] += 1
      return "\(kind) #\(serials[kind]!)"
    }
  }
}

/// Shorthand for `Narrator.shared.say`.
nonisolated func say(_ line: String) {
  Narrator.shared.say(line)
}
