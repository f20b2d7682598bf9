import _LazyInjectShims

/// Which way the first read of a `@Lazy` property went: what debug builds record, per thread, for
/// the package's tests (`Tests/LazyInjectTests/Support/FirstReadPaths.swift` reads it).
///
/// Release builds record nothing and pay nothing. The first override layer of a process turns
/// the fast path off for good: tests of it run in a fresh process (an exit test).
@usableFromInline package enum FirstReadPath: Int32, Sendable {
  /// The fast path's table held a kept instance's handle: it went into the slot under the slot
  /// lock.
  case fastTableKeptHandle
  /// The table held a `.unique` registration: it was built without the registry's lock.
  case fastTableBuild
  /// The general path: every layer's rules, scopes, `init()`, optionals, the tracer.
  case general

  /// Records that a first read took this path.
  @inlinable @inline(__always) func record() {
    #if DEBUG
      _lazyinject_first_read_path_record(rawValue)
    #endif
  }
}
