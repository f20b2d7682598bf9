import _LazyInjectShims

extension InitializerRegistry {
  /// How a resolution goes when a single look settles it: under the registry's lock
  /// (`expressPlan(for:in:storesObject:)`), or in the `ExpressTable` without it.
  ///
  /// Only for a registration that is its pair's pin (see `RulePin`): the value then needs no
  /// record of its rule besides the pin. The resolution pipeline consumes a plan in one place,
  /// `resolve(_:for:slot:plan:generally:outcome:)`.
  @usableFromInline internal enum ExpressPlan {
    /// Return this object, kept by a `.singleton` or custom-scope registration of a class type.
    /// Retained once: the receiver owns that +1 (a slot takes it as its own).
    case keptObject(Unmanaged<AnyObject>, ExpressFlags)
    /// Build with this `.unique` registration, after unlocking. Retained once: the receiver
    /// releases it after the build.
    case build(Unmanaged<AnyRegistration>, ExpressFlags)
    /// Take the general path.
    case general

    /// The plan, if it serves the calling code: a main-actor rule's serves only on the main
    /// actor; elsewhere, its payload is released and the general path says why it cannot serve.
    @inlinable @inline(__always) internal var servingHere: ExpressPlan {
      switch self {
      case .keptObject(let object, let flags) where flags.contains(.mainActor) && !isOnMainActor():
        object.release()
        return .general
      case .build(let registration, let flags) where flags.contains(.mainActor) && !isOnMainActor():
        registration.release()
        return .general
      default:
        return self
      }
    }
  }

  /// What else an express plan tells.
  @usableFromInline internal struct ExpressFlags: OptionSet, Sendable {
    @usableFromInline let rawValue: UInt32
    @inlinable init(rawValue: UInt32) { self.rawValue = rawValue }
    /// The container class conforms to `InjectionObserving`.
    @inlinable static var observed: ExpressFlags { ExpressFlags(rawValue: 1) }
    /// The rule is a main-actor one: the plan serves only on the main actor.
    @inlinable static var mainActor: ExpressFlags { ExpressFlags(rawValue: 2) }
  }

  /// The express plan, when the fast path is on (no override layer was ever made, no tracer is
  /// set, the automatic modules are installed) and the decision for the pair with no property
  /// (`select`, the registry's own order) is a registration of the property type that is the
  /// pair's pin, no property rule of the type applies in the class, and the registration is
  /// `.unique` or keeps an object (`storesObject`: the caller can take one); else `.general`.
  ///
  /// One lock, no task-local read. The shared registry also records the plan in the
  /// `ExpressTable`, where later first reads of the pair find it without this lock. Not generic:
  /// an optional of the property type would cost a lookup of its metadata on every call.
  @usableFromInline internal func expressPlan(
    for propertyType: Any.Type, in container: AnyObject, storesObject: Bool
  ) -> ExpressPlan {
    guard _lazyinject_overrides_used() == 0, overrideDepth == 0 else { return .general }
    let containerClass: AnyClass = type(of: container)
    // Not `withState`, which would wrap the plan in an optional: the general path installs the
    // automatic modules if they are not yet.
    return state.withLock { state in
      guard case .installed = state.modules, state.tracer == nil else { return .general }
      // The decision of `select` for the pair with no property and no layer, cached.
      let express = state.rules.express(for: propertyType, in: containerClass)
      guard let found = express.registration else { return .general }
      let plan: ExpressPlan = found._withUnsafeGuaranteedRef { registration in
        var flags: ExpressFlags = express.isObserved ? .observed : []
        if registration.source.isMainActor { flags.insert(.mainActor) }
        if registration.policy == .none { return .build(found, flags) }
        // Other kept instances (structs, weak ones) take the general path, which casts them.
        guard storesObject, let object = state.instances.object(of: registration) else {
          return .general
        }
        return .keptObject(.passUnretained(object), flags)
      }
      if self === Self.shared {  // The registry `@Lazy` reads.
        ExpressTable.insert(plan, property: propertyType, in: containerClass)
      }
      switch plan {  // Retained once, for the caller.
      case .keptObject(let object, _): _ = object.retain()
      case .build(let registration, _): _ = registration.retain()
      case .general: break
      }
      return plan
    }
  }
}
