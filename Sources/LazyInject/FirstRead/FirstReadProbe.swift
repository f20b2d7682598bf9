import _LazyInjectShims

/// Which way the first read of a `@Lazy` property went: what debug builds record, per thread, for
/// the package's tests (`Tests/LazyInjectTests/Support/FirstReadProbe.swift` reads it).
///
/// Release builds record nothing and pay nothing. The first override layer of a process turns
/// the express path off for good: tests of it run in a fresh process (an exit test).
@usableFromInline package enum FirstReadPath: Int32, Sendable {
  /// The express table held a kept object: it went into the slot under the slot lock.
  case expressTableKeptObject
  /// The express table held a `.unique` registration: it was built without the registry's lock.
  case expressTableBuild
  /// The express plan, made under the registry's lock, was a kept object.
  case registryKeptObject
  /// The express plan, made under the registry's lock, was a `.unique` registration.
  case registryBuild
  /// The general path: every layer's rules, scopes, `init()`, optionals, the tracer.
  case general

  /// Records that a first read took this path.
  @inlinable @inline(__always) func record() {
    #if DEBUG
      _lazyinject_probe_record(rawValue)
    #endif
  }

  /// Records the path of a first read that resolves with `plan`, found in the express table or
  /// made under the registry's lock.
  @inlinable @inline(__always)
  static func record(_ plan: InitializerRegistry.ExpressPlan, foundInTable: Bool) {
    switch plan {
    case .keptObject: (foundInTable ? expressTableKeptObject : registryKeptObject).record()
    case .build: (foundInTable ? expressTableBuild : registryBuild).record()
    case .general: general.record()
    }
  }
}
