import LazyInject
import _LazyInjectShims

/// What an entry of the fast path's table holds (see `FastPath`).
enum FastPathEntry: Equatable, Sendable {
  case keptHandle
  case build
}

/// Lets the tests see the path each first read took, and the fast path's table: what the
/// runtime records in debug builds (`FirstReadPath`), read through its shims.
enum FirstReadPaths {
  /// Whether this build records paths: debug builds do.
  static var isRecording: Bool {
    #if DEBUG
      true
    #else
      false
    #endif
  }

  /// The path of the calling thread's last first read since `reset()`, if it made one.
  static var lastPath: FirstReadPath? {
    FirstReadPath(rawValue: _lazyinject_first_read_last_path())
  }

  /// Forgets the calling thread's last path.
  static func reset() { _lazyinject_first_read_path_record(-1) }

  /// What the fast path's table holds for `property` in containers of class `containerClass`.
  static func fastPathEntry(for property: Any.Type, in containerClass: AnyClass) -> FastPathEntry? {
    // Read under a slot lock, as first reads read it (any stripe will do).
    let anyObject = UnsafeRawPointer(bitPattern: 0x1000)!
    _lazyinject_stripe_lock(_lazyinject_stripe_for(anyObject))
    defer { _lazyinject_stripe_unlock(_lazyinject_stripe_for(anyObject)) }
    let address = { (type: Any.Type) in
      UnsafeRawPointer(bitPattern: UInt(bitPattern: Int(bitPattern: ObjectIdentifier(type))))!
    }
    guard let entry = _lazyinject_fast_find(address(property), address(containerClass)) else {
      return nil
    }
    return Int(entry.pointee.kind) == LAZYINJECT_FAST_KEPT_HANDLE ? .keptHandle : .build
  }
}
