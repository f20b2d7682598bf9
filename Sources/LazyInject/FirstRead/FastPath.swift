import _LazyInjectShims

/// How a first read goes when one look settles it: the shared registry's plan for the pair, when
/// its rule serves every property of the pair unboxed (`Plan.fastRule`) and is `.unique`, or
/// keeps an object.
///
/// The shared registry records each such plan in a table (`FastPathTable.c`) that a first read
/// reads under the slot lock it holds anyway, without the registry's lock (`inTable`); a miss
/// asks the registry (`fastPath(for:in:storesObject:)`), which records it. The table names a
/// registration or a handle without retaining it. That is sound because the shared registry
/// keeps what an entry names, empties the table before it lets either go (only in
/// `withStateChange`: every change to its rules, every dropped or reset instance, a new tracer),
/// emptying returns only after taking every slot lock once, and readers retain what they use
/// before unlocking.
@usableFromInline internal enum FastPath {
  /// Return the object of this handle, which every slot holding the instance a `.singleton` or
  /// custom-scope rule keeps shares. Retained once: the receiver owns that +1.
  case keptHandle(Unmanaged<_LazyObjectBox>, flags: UInt32)
  /// Build with this `.unique` registration, after unlocking. Retained once: the receiver
  /// releases it after the build.
  case build(Unmanaged<AnyRegistration>, flags: UInt32)
  /// Take the general path.
  case general

  /// A flag: the container class conforms to `InjectionObserving`.
  @inlinable static var observed: UInt32 { 1 }
  /// A flag: the rule is a main-actor one, so the plan serves only on the main actor.
  @inlinable static var mainActor: UInt32 { 2 }

  /// The plan, if it serves the calling code: a main-actor rule's serves only on the main
  /// actor; elsewhere, its payload is released and the general path says why it cannot serve.
  @inlinable @inline(__always) internal var servingHere: FastPath {
    switch self {
    case .keptHandle(let handle, let flags)
    where flags & Self.mainActor != 0 && !Self.onMainActor():
      handle.release()
      return .general
    case .build(let registration, let flags)
    where flags & Self.mainActor != 0 && !Self.onMainActor():
      registration.release()
      return .general
    default:
      return self
    }
  }

  /// Whether the calling code runs on the main actor: asked by inlined code only for a
  /// main-actor rule's plan.
  @usableFromInline static func onMainActor() -> Bool { isOnMainActor() }

  /// The address of `type`'s metadata: the key of the table's entries.
  @inlinable static func address(of type: Any.Type) -> UnsafeRawPointer {
    UnsafeRawPointer(bitPattern: UInt(bitPattern: Int(bitPattern: ObjectIdentifier(type))))
      .unsafelyUnwrapped
  }
}

extension InitializerRegistry {
  /// The fast path of `propertyType` in `container`'s class, retained; or `.general`.
  ///
  /// When the fast path is on (no override layer was ever made, no tracer is set, the automatic
  /// modules are installed) and the pair's plan has a `fastRule` that is `.unique`. One that keeps an
  /// object (`storesObject`: the caller can take one) is recorded for later reads, which read
  /// its handle under their slot lock; this read takes the general path.
  ///
  /// One lock, no task-local read. The shared registry records it in its table, where later first
  /// reads of the pair find it without this lock. Not generic: an optional of the property type
  /// would cost a lookup of its metadata on every call.
  @usableFromInline internal func fastPath(
    for propertyType: Any.Type, in container: AnyObject, storesObject: Bool
  ) -> FastPath {
    guard _lazyinject_overrides_used() == 0, overrideDepth == 0 else { return .general }
    let containerClass: AnyClass = type(of: container)
    // Not `withState`, which would wrap the plan in an optional: the general path installs the
    // automatic modules if they are not yet.
    return state.withLock { state in
      guard case .installed = state.modules, state.tracer == nil else { return .general }
      let plan = state.rules.plan(for: propertyType, in: containerClass)
      guard let rule = plan.fastRule else { return .general }
      let flags =
        (plan.isObserved ? FastPath.observed : 0)
        | (rule.source.isMainActor ? FastPath.mainActor : 0)
      var (payload, kind) = (Unmanaged.passUnretained(rule).toOpaque(), LAZYINJECT_FAST_BUILD)
      var kept: UnsafeMutableRawPointer?
      if rule.policy != .none {
        // Other kept instances (values, weak ones) take the general path, which casts them.
        guard storesObject, let object = state.instances.object(of: rule) else { return .general }
        let key = InstanceStore.HandleKey(
          property: ObjectIdentifier(propertyType), rule: ObjectIdentifier(rule.source))
        let handle =
          state.instances.handle(of: rule, as: key)
          ?? _LazyObjectBox(object, origin: .registration(rule.source), uses: LayersUsed())
        state.instances.share(handle, of: rule, as: key, isKept: true)
        (payload, kind) = (Unmanaged.passUnretained(handle).toOpaque(), LAZYINJECT_FAST_KEPT_HANDLE)
        kept = Unmanaged.passUnretained(object).toOpaque()
      }
      if self === Self.shared {  // The registry `@Lazy` reads.
        _lazyinject_fast_insert(
          FastPath.address(of: propertyType), FastPath.address(of: containerClass), payload, kept,
          UInt32(kind), flags)
      }
      guard kind == LAZYINJECT_FAST_BUILD else { return .general }
      _ = Unmanaged<AnyRegistration>.fromOpaque(payload).retain()  // For the caller.
      return .build(.fromOpaque(payload), flags: flags)
    }
  }
}
