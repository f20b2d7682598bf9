// What the exit tests of both test targets share.
import Foundation

/// Starts a watchdog for an exit test: if the test's process is still running after `seconds`,
/// it says so on standard error and exits with status 2, so that a hang fails the test instead
/// of hanging the run.
package func startWatchdog(seconds: Int = 60) {
  Thread.detachNewThread {
    let never = DispatchSemaphore(value: 0)
    _ = never.wait(timeout: .now() + .seconds(seconds))
    FileHandle.standardError.write(Data("watchdog: still running after \(seconds) s\n".utf8))
    exit(2)
  }
}

/// Ends an exit test's process with `message` on standard error and a failure status.
package func failExitTest(_ message: String) -> Never {
  FileHandle.standardError.write(Data("\(message)\n".utf8))
  exit(1)
}

/// Ends an exit test's process with `message` on standard error and a failure status, unless
/// `condition` holds.
package func require(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition {
    failExitTest(message())
  }
}

/// The line an exit test's process writes last when its body ran to its end (see
/// `endReportingCompletion()`).
package let exitTestCompletion = "exit test: ran to its end"

/// Ends an exit test's process whose body ran to its end: writes `exitTestCompletion` to standard
/// error and exits with a failure status.
///
/// For a test that must see what the process wrote whether it ran to its end or stopped: Swift
/// Testing returns the output only for the status it was told to expect. So the test expects
/// `.failure`, which a stop (a signal) and this exit both give, and tells them apart by this line.
package func endReportingCompletion() -> Never {
  FileHandle.standardError.write(Data("\(exitTestCompletion)\n".utf8))
  exit(EXIT_FAILURE)
}
