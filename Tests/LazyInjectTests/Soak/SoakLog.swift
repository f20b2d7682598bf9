import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the soak test did: the last operations of each track (a thread or a task), kept in
/// memory and written to standard error when the process stops or a promise breaks, so that the
/// test's failure shows what ran at once.
///
/// A record is three integers, written by its own track only: no lock, no allocation, no text
/// until it is written out. Writing out formats by hand into a buffer made beforehand and calls
/// `write(2)` alone, so that it can run in a signal handler, after a stop's message.
///
/// `@unchecked Sendable`: each track's records and count are written by one thread or task;
/// they are read once every track has ended, or by the signal handler of a process that stops.
final class SoakLog: @unchecked Sendable {
  /// What a record says a track did.
  enum Operation: Int, CaseIterable {
    case firstRead, hotReads, weakRead, replaceObject, reset, resetAllScopes
    case layer, layerRead, load, prepare, startRecording, stopRecording, brokenPromise

    /// Its name, as the log writes it: static text, which a signal handler may read.
    var name: StaticString {
      switch self {
      case .firstRead: "first read"
      case .hotReads: "hot reads"
      case .weakRead: "weak read"
      case .replaceObject: "replace object"
      case .reset: "reset scope"
      case .resetAllScopes: "resetAllScopes"
      case .layer: "withOverrides layer"
      case .layerRead: "read in layer"
      case .load: "load()"
      case .prepare: "prepare()"
      case .startRecording: "startRecording"
      case .stopRecording: "stopRecording"
      case .brokenPromise: "BROKEN PROMISE"
      }
    }
  }

  /// One operation: what it was, on which object or scope, and the serial of the value it saw.
  private struct Record {
    var operation: Int
    var subject: Int
    var serial: Int
  }

  /// The records each track keeps, the newest overwriting the oldest.
  private static let recordsPerTrack = 64

  let trackNames: [StaticString]
  private let records: UnsafeMutablePointer<Record>
  private let counts: UnsafeMutablePointer<Int>
  /// Where the text is formatted when written out.
  private let text: UnsafeMutablePointer<UInt8>
  private let textCapacity = 256

  init(trackNames: [StaticString]) {
    self.trackNames = trackNames
    records = .allocate(capacity: trackNames.count * Self.recordsPerTrack)
    records.initialize(
      repeating: Record(operation: -1, subject: 0, serial: 0),
      count: trackNames.count * Self.recordsPerTrack)
    counts = .allocate(capacity: trackNames.count)
    counts.initialize(repeating: 0, count: trackNames.count)
    text = .allocate(capacity: textCapacity)
  }

  /// Notes that `track` starts `operation` on `subject` (an object's index, a scope, a layer).
  ///
  /// Noted before it runs, so that a stop shows what each track was doing.
  func note(_ track: Int, _ operation: Operation, subject: Int = 0) {
    let count = counts[track]
    records[track * Self.recordsPerTrack + count % Self.recordsPerTrack] = Record(
      operation: operation.rawValue, subject: subject, serial: 0)
    counts[track] = count + 1
  }

  /// Notes that the operation `track` noted last saw the value numbered `serial`.
  func noteValue(_ track: Int, serial: Int) {
    let last = counts[track] - 1
    records[track * Self.recordsPerTrack + last % Self.recordsPerTrack].serial = serial
  }

  /// How many operations `track` did.
  func count(of track: Int) -> Int { counts[track] }

  /// Writes every track's last operations, oldest first, to standard error.
  ///
  /// Safe in a signal handler: it reads memory made beforehand and calls `write(2)` alone.
  func writeOut() {
    for track in trackNames.indices {
      clear()
      append("-- ")
      append(trackNames[track])
      append(", operations: ")
      append(number: counts[track])
      append("\n")
      flush()
      let count = counts[track]
      for index in max(0, count - Self.recordsPerTrack)..<count {
        let record = records[track * Self.recordsPerTrack + index % Self.recordsPerTrack]
        guard let operation = Operation(rawValue: record.operation) else { continue }
        clear()
        append("   #")
        append(number: index)
        append(" ")
        append(operation.name)
        append(" subject ")
        append(number: record.subject)
        append(" value #")
        append(number: record.serial)
        append("\n")
        flush()
      }
    }
  }

  // The text being formatted: its length.
  private var length = 0

  private func clear() { length = 0 }

  private func append(_ string: StaticString) {
    let bytes = UnsafeBufferPointer(start: string.utf8Start, count: string.utf8CodeUnitCount)
    for byte in bytes where length < textCapacity {
      text[length] = byte
      length += 1
    }
  }

  private func append(number: Int) {
    var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
      (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var remaining = number.magnitude
    var count = 0
    withUnsafeMutableBytes(of: &digits) { buffer in
      repeat {
        buffer[count] = UInt8(truncatingIfNeeded: remaining % 10) + 48  // "0"
        remaining /= 10
        count += 1
      } while remaining > 0 && count < buffer.count
      if number < 0, length < textCapacity {
        text[length] = 45  // "-"
        length += 1
      }
      for index in (0..<count).reversed() where length < textCapacity {
        text[length] = buffer[index]
        length += 1
      }
    }
  }

  private func flush() {
    _ = write(2, text, length)
  }
}

/// The log that the signal handler writes out: set once, before the tracks start.
///
/// `nonisolated(unsafe)`: written before any thread of the soak starts, and only read after.
nonisolated(unsafe) private var logOfThisProcess: SoakLog?

/// Makes a stop of the process (a `fatalError`, a trap, a crash) write `log` out, after the
/// stop's own message, then end the process as the signal would have.
func writeOutOnStop(_ log: SoakLog) {
  logOfThisProcess = log
  for signal in [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS] {
    var action = sigaction()
    #if canImport(Darwin)
      action.__sigaction_u.__sa_handler = writeOutAndStop
    #else
      action.__sigaction_handler.sa_handler = writeOutAndStop
    #endif
    // The signal's own action once this one has run (0x80000000 on Linux: its bits, as an Int32).
    action.sa_flags = Int32(truncatingIfNeeded: SA_RESETHAND)
    sigaction(signal, &action, nil)
  }
}

/// The handler of a stop's signal: the log, then the signal again, with its own action.
private func writeOutAndStop(_ signal: Int32) {
  logOfThisProcess?.writeOut()
  raise(signal)
}
