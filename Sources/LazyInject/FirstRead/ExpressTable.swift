import _LazyInjectShims

/// The shared registry's express plans, which the first read of a `@Lazy` property finds
/// without the registry's lock (see `Lazy._read`).
///
/// An entry names a kept object or a `.unique` registration without retaining it. That is sound
/// because the shared registry keeps what an entry names (the object in its state's
/// `InstanceStore`, the registration in its `RuleTable`) and empties this table before it lets
/// either go, in `withStateChange`: on every change to its rules, every dropped instance, and a
/// new tracer. Readers look with a slot lock held and retain what they use before unlocking;
/// emptying returns only after taking every slot lock once, so no reader still holds an old entry.
@usableFromInline internal enum ExpressTable {
  /// Records `plan` for `property` in `containerClass`: call with the shared registry's lock
  /// held, and only for a plan it would make again until it empties the table.
  static func insert(
    _ plan: InitializerRegistry.ExpressPlan, property: Any.Type, in containerClass: AnyClass
  ) {
    let entry:
      (payload: UnsafeMutableRawPointer, kind: Int, flags: InitializerRegistry.ExpressFlags)
    switch plan {
    case .keptObject(let object, let flags):
      entry = (object.toOpaque(), LAZYINJECT_EXPRESS_KEPT_OBJECT, flags)
    case .build(let registration, let flags):
      entry = (registration.toOpaque(), LAZYINJECT_EXPRESS_BUILD, flags)
    case .general:
      return
    }
    _lazyinject_express_insert(
      address(of: property), address(of: containerClass), entry.payload, UInt32(entry.kind),
      entry.flags.rawValue)
  }

  /// Empties the table; call before letting go of anything an entry may name.
  static func clear() {
    _lazyinject_express_clear()
  }

  /// The plan recorded for `property` in `containerClass`, its payload retained once; nil where
  /// none is, or in a process that made an override layer (the table is then never read).
  ///
  /// Call with a slot lock held: what the entry names is alive until it is unlocked.
  @inlinable @inline(__always) static func plan(for property: Any.Type, in containerClass: AnyClass)
    -> InitializerRegistry.ExpressPlan?
  {
    guard _lazyinject_overrides_used() == 0,
      let entry = _lazyinject_express_find(address(of: property), address(of: containerClass))
    else { return nil }
    let flags = InitializerRegistry.ExpressFlags(rawValue: entry.pointee.flags)
    let payload = entry.pointee.payload
    if Int(entry.pointee.kind) == LAZYINJECT_EXPRESS_KEPT_OBJECT {
      return .keptObject(Unmanaged<AnyObject>.fromOpaque(payload).retain(), flags)
    }
    return .build(Unmanaged<AnyRegistration>.fromOpaque(payload).retain(), flags)
  }

  /// The address of `type`'s metadata: the key of its entries.
  @inlinable static func address(of type: Any.Type) -> UnsafeRawPointer {
    UnsafeRawPointer(bitPattern: UInt(bitPattern: Int(bitPattern: ObjectIdentifier(type))))
      .unsafelyUnwrapped
  }
}
