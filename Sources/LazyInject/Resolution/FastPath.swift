import _LazyInjectShims

/// The fast path of a first read: the shared registry's plan for the pair, when its rule serves
/// every property of the pair unboxed (`Plan.fastRule`) and is `.unique`, or keeps an object.
///
/// A resolution whose decision was that plan alone records it (`Decision.fastPathVersion`): a
/// `.unique` rule when its pair is decided again (most pairs are read once, and an entry is an
/// allocation), before its build, so that the reads its initializer makes of the same pair take
/// the fast path; a kept object once it is found or built. The record goes in a table
/// (`FastPathTable.c`) that later first reads of the pair read under the slot lock they hold
/// anyway, without the registry's lock (`Lazy._read`). The table names a registration or a
/// handle without retaining it. That is sound because the shared registry keeps what an entry
/// names, empties the table before it lets either go (only in `withStateChange`: every change
/// to its rules, every dropped or reset instance, a new tracer), emptying returns only after
/// taking every slot lock once, a record decided before an emptying is not inserted after it
/// (the table's version), and readers retain what they use before unlocking (a credit). A
/// `.unique` build gives its credit back under the slot lock of its publication only if the
/// table's version is still the one it read (`Lazy._build`).
@usableFromInline internal enum FastPath {
  /// A flag: the container class conforms to `InjectionObserving`.
  @inlinable static var observed: UInt32 { 1 }
  /// A flag: the rule is a main-actor one, so the plan serves only on the main actor.
  @inlinable static var mainActor: UInt32 { 2 }

  /// Whether the calling code runs on the main actor: asked by inlined code only for a
  /// main-actor rule's plan.
  @usableFromInline static func onMainActor() -> Bool { isOnMainActor() }

  /// Records that first reads of `propertyType` in `containerClass` take the fast path, as
  /// decided at the table's `version`: the `.unique` `registration` builds there; or, with
  /// `handle`, they take the handle, which holds `object`, the instance the registry keeps for
  /// `registration`.
  ///
  /// Not generic: an optional of the property type would cost a lookup of its metadata on every
  /// call. The entry is not put in the table if the pair has one or the registry changed since
  /// `version`.
  static func record(
    _ registration: AnyRegistration, keptHandle handle: _LazyObjectBox? = nil,
    holding object: AnyObject? = nil, for propertyType: Any.Type, in containerClass: AnyClass,
    isObserved: Bool, version: UInt64
  ) {
    var flags: UInt32 = 0
    if isObserved {
      flags |= observed
    }
    if registration.source.isMainActor {
      flags |= mainActor
    }
    let payload: AnyObject = handle ?? registration
    let kind = handle == nil ? LAZYINJECT_FAST_BUILD : LAZYINJECT_FAST_KEPT_HANDLE
    _lazyinject_fast_insert(
      metadataAddress(of: propertyType), metadataAddress(of: containerClass),
      RawMemory.unretained(payload), object.map(RawMemory.unretained), UInt32(kind), flags, version)
  }
}
