import _LazyInjectShims

/// The shared registry's express plans, which the first read of a `@Lazy` property finds
/// without the registry's lock (see `Lazy._read`).
///
/// An entry names a kept object or a `.unique` registration without retaining it. That is sound
/// because the shared registry keeps what an entry names (the object in its registration's
/// `singletonObject`, the registration in its table) and clears this table before it lets either
/// go: on every change to its rules (`RuleTable`), every dropped instance, and a new tracer.
/// Readers look with a slot lock held and retain what they use before unlocking; clearing
/// returns only after taking every slot lock once, so no reader still holds an old entry.
@usableFromInline
internal enum ExpressTable {
  /// Records `plan` for `property` in `containerClass`: call with the shared registry's lock
  /// held, and only for a plan it would make again until it clears the table.
  static func insert(
    _ plan: InitializerRegistry.ExpressPlan, property: Any.Type, in containerClass: AnyClass
  ) {
    let entry: (payload: UnsafeMutableRawPointer, kind: Int, isObserved: Bool)
    switch plan {
    case .keptObject(let object, let isObserved):
      entry = (object.toOpaque(), LAZYINJECT_EXPRESS_KEPT_OBJECT, isObserved)
    case .build(let registration, let isObserved):
      entry = (registration.toOpaque(), LAZYINJECT_EXPRESS_BUILD, isObserved)
    case .general:
      return
    }
    _lazyinject_express_insert(
      address(of: property), address(of: containerClass), entry.payload, UInt32(entry.kind),
      entry.isObserved ? 1 : 0)
  }

  /// Empties the table; call before letting go of anything an entry may name.
  static func clear() {
    _lazyinject_express_clear()
  }

  /// The address of `type`'s metadata: the key of its entries.
  @inlinable
  static func address(of type: Any.Type) -> UnsafeRawPointer {
    UnsafeRawPointer(bitPattern: UInt(bitPattern: Int(bitPattern: ObjectIdentifier(type))))
      .unsafelyUnwrapped
  }
}
