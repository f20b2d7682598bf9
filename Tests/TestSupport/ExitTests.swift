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
