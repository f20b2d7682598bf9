import _LazyInjectShims

/// The fast path of a first read: the shared registry's plan for the pair, when its rule serves
/// every property of the pair unboxed (`Plan.fastRule`) and is `.unique`, or keeps an object.
///
/// The shared registry records each such plan in a table (`FastPathTable.c`) that a first read
/// reads under the slot lock it holds anyway, without the registry's lock (`Lazy._read`); a miss
/// takes the general path, and records the plan for the reads after it
/// (`recordFastPath(for:in:storesObject:)`). The table names a registration or a handle without
/// retaining it. That is sound because the shared registry keeps what an entry names, empties
/// the table before it lets either go (only in `withStateChange`: every change to its rules,
/// every dropped or reset instance, a new tracer), emptying returns only after taking every slot
/// lock once, and readers retain what they use before unlocking.
@usableFromInline internal enum FastPath {
  /// A flag: the container class conforms to `InjectionObserving`.
  @inlinable static var observed: UInt32 { 1 }
  /// A flag: the rule is a main-actor one, so the plan serves only on the main actor.
  @inlinable static var mainActor: UInt32 { 2 }

  /// Whether the calling code runs on the main actor: asked by inlined code only for a
  /// main-actor rule's plan.
  @usableFromInline static func onMainActor() -> Bool { isOnMainActor() }

  /// The address of `type`'s metadata: the key of the table's entries.
  @inlinable static func address(of type: Any.Type) -> UnsafeRawPointer {
    unsafeBitCast(type, to: UnsafeRawPointer.self)
  }
}

extension InitializerRegistry {
  /// Records the fast path of `propertyType` in `container`'s class in the table, where later
  /// first reads of the pair find it without this registry's lock, if there is one.
  ///
  /// When the fast path is on (no override layer was ever made, nothing records, no tracer is
  /// set, the automatic modules are installed) and the pair's plan has a `fastRule` that is
  /// `.unique`, or keeps an object that the property stores unboxed (`storesObject`). One lock,
  /// no task-local read. Not generic: an optional of the property type would cost a lookup of
  /// its metadata on every call.
  internal func recordFastPath(
    for propertyType: Any.Type, in container: AnyObject, storesObject: Bool
  ) {
    guard _lazyinject_overrides_used() == 0, self === Self.shared else { return }
    let containerClass: AnyClass = type(of: container)
    // Not `withState`, which would wrap the plan in an optional: the general path installs the
    // automatic modules if they are not yet.
    state.withLock { state in
      guard case .installed = state.modules, state.tracer == nil else { return }
      let plan = state.rules.plan(for: propertyType, in: containerClass)
      guard let rule = plan.fastRule else { return }
      let flags =
        (plan.isObserved ? FastPath.observed : 0)
        | (rule.source.isMainActor ? FastPath.mainActor : 0)
      var (payload, kind) = (Unmanaged.passUnretained(rule).toOpaque(), LAZYINJECT_FAST_BUILD)
      var kept: UnsafeMutableRawPointer?
      if rule.isShared {
        // Other kept instances (values, weak ones) take the general path, which casts them.
        guard storesObject, let object = state.instances.object(of: rule) else { return }
        let key = InstanceStore.HandleKey(
          property: ObjectIdentifier(propertyType), rule: ObjectIdentifier(rule.source))
        let handle =
          state.instances.handle(of: rule, as: key)
          ?? _LazyObjectBox(object, origin: .registration(rule.source), uses: LayersUsed())
        state.instances.share(handle, of: rule, as: key, isKept: true)
        (payload, kind) = (Unmanaged.passUnretained(handle).toOpaque(), LAZYINJECT_FAST_KEPT_HANDLE)
        kept = Unmanaged.passUnretained(object).toOpaque()
      }
      _lazyinject_fast_insert(
        FastPath.address(of: propertyType), FastPath.address(of: containerClass), payload, kept,
        UInt32(kind), flags)
    }
  }
}
