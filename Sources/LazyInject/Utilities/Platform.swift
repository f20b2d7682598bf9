import Dispatch
import _LazyInjectShims

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#endif

/// Whether the calling code runs on the main actor: on the main thread, or in a job of the main
/// queue, which serves the main actor (on Linux, a worker thread may drain it, as under Swift
/// Testing, where the runtime's own check says no).
package func isOnMainActor() -> Bool {
  _lazyinject_is_main_thread() != 0 || DispatchQueue.getSpecific(key: mainQueueKey) != nil
}

/// A key that only the main queue has, to tell its jobs from others.
private let mainQueueKey: DispatchSpecificKey<Bool> = {
  let key = DispatchSpecificKey<Bool>()
  DispatchQueue.main.setSpecific(key: key, value: true)
  return key
}()

/// The main-actor `function` as one callable from anywhere, for callers that checked
/// `isOnMainActor()` first.
///
/// A synchronous `@MainActor` function has the representation of a nonisolated one (pointer
/// authentication ignores isolation: `GenPointerAuth.cpp`); calling it on the main thread is what
/// `MainActor.assumeIsolated` does too. That function would do, but it requires a `Sendable`
/// result, which the values of main-actor initializers often are not (a test's spy), and it
/// traps in a main-queue job that a worker thread drains (Linux).
internal func onMainActorAnywhere<Argument, Result>(
  _ function: @escaping @MainActor (Argument) throws -> Result
) -> @Sendable (Argument) throws -> Result {
  unsafeBitCast(function, to: (@Sendable (Argument) throws -> Result).self)
}

/// Writes `text` to standard error, where warnings belong (standard output is the program's).
internal func writeToStandardError(_ text: String) {
  var bytes = Array(text.utf8)[...]
  while !bytes.isEmpty {
    let written = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    guard written > 0 else { return }
    bytes = bytes.dropFirst(written)
  }
}

/// The value of the environment variable `name`, if it is set.
internal func environmentValue(_ name: String) -> String? {
  getenv(name).map { String(cString: $0) }
}
