import _LazyInjectShims

/// The shared registry's express plans, which the first read of a `@Lazy` property finds
/// without the registry's lock (see `Lazy._read` and `ExpressPlan.inTable`).
///
/// An entry names a kept object or a `.unique` registration without retaining it. That is sound
/// because the shared registry keeps what an entry names (the object in its state's
/// `InstanceStore`, the registration in its `RuleTable`) and empties this table before it lets
/// either go, in `withStateChange`: on every change to its rules, every dropped instance, and a
/// new tracer. Readers look with a slot lock held and retain what they use before unlocking;
/// emptying returns only after taking every slot lock once, so no reader still holds an old entry.
internal enum ExpressTable {
  /// Records `plan` for `property` in `containerClass`: call with the shared registry's lock
  /// held, and only for a plan it would make again until it empties the table.
  static func insert(
    _ plan: InitializerRegistry.ExpressPlan, property: Any.Type, in containerClass: AnyClass
  ) {
    let entry: (payload: UnsafeMutableRawPointer, kind: Int, flags: UInt32)
    switch plan {
    case .keptObject(let object, let flags):
      entry = (object.toOpaque(), LAZYINJECT_EXPRESS_KEPT_OBJECT, flags)
    case .build(let registration, let flags):
      entry = (registration.toOpaque(), LAZYINJECT_EXPRESS_BUILD, flags)
    case .general:
      return
    }
    let address = InitializerRegistry.ExpressPlan.address(of:)
    _lazyinject_express_insert(
      address(property), address(containerClass), entry.payload, UInt32(entry.kind), entry.flags)
  }

  // Emptied by `_lazyinject_express_clear()`, only in `withStateChange`: before the shared
  // registry lets go of anything an entry may name.
}
