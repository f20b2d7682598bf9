import _LazyInjectShims

/// Which way the first read of a `@Lazy` property went.
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
}

/// What an express-table entry holds (see `ExpressTable`).
package enum ExpressEntry: Equatable, Sendable {
  case keptObject
  case build
}

/// Lets the package's tests see the path each first read took, and the express table's entries.
///
/// Debug builds record the path of every first read of a `@Lazy` property (the calling thread's
/// last one); release builds record nothing and pay nothing. Tests that need
/// the express path run in a fresh process (an exit test): the first override layer of a
/// process turns it off for good.
@usableFromInline package enum FirstReadProbe {
  /// Whether this build records paths: debug builds do.
  package static var isRecording: Bool {
    #if DEBUG
      true
    #else
      false
    #endif
  }

  /// The path of the calling thread's last first read since `reset()`, if it made one.
  package static var lastPath: FirstReadPath? {
    FirstReadPath(rawValue: _lazyinject_probe_last_path())
  }

  /// Forgets the calling thread's last path.
  package static func reset() {
    _lazyinject_probe_reset()
  }

  /// What the express table holds for `property` in containers of class `containerClass`.
  package static func expressEntry(for property: Any.Type, in containerClass: AnyClass)
    -> ExpressEntry?
  {
    // Read under a slot lock, as first reads read it (any stripe will do).
    let anyObject = UnsafeRawPointer(Unmanaged.passUnretained(_LazyMarker.object).toOpaque())
    SlotLock.lock(anyObject)
    defer { SlotLock.unlock(anyObject) }
    guard
      let entry = _lazyinject_express_find(
        ExpressTable.address(of: property), ExpressTable.address(of: containerClass))
    else { return nil }
    return Int(entry.pointee.kind) == LAZYINJECT_EXPRESS_KEPT_OBJECT ? .keptObject : .build
  }

  /// Records that a first read took `path`.
  @inlinable @inline(__always)
  internal static func record(_ path: FirstReadPath) {
    #if DEBUG
      _lazyinject_probe_record(path.rawValue)
    #endif
  }

  /// Records the path of a first read that resolves with `plan`, found in the express table or
  /// made under the registry's lock.
  @inlinable @inline(__always)
  internal static func record(_ plan: InitializerRegistry.ExpressPlan, foundInTable: Bool) {
    #if DEBUG
      switch plan {
      case .keptObject: record(foundInTable ? .expressTableKeptObject : .registryKeptObject)
      case .build: record(foundInTable ? .expressTableBuild : .registryBuild)
      case .general: record(.general)
      }
    #endif
  }
}
