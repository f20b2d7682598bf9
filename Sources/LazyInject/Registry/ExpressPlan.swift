import _LazyInjectShims

extension InitializerRegistry {
  /// How a resolution goes when a single look settles it: under the registry's lock
  /// (`expressPlan(for:in:storesObject:)`), or in the `ExpressTable` without it (`inTable`).
  ///
  /// Only for a registration that is its pair's pin (see `RulePin`): the value then needs no
  /// record of its rule besides the pin. The resolution pipeline consumes a plan in one place,
  /// `resolve(_:for:slot:plan:generally:outcome:)`.
  @usableFromInline internal enum ExpressPlan {
    /// Return this object, kept by a `.singleton` or custom-scope registration of a class type.
    /// Retained once: the receiver owns that +1 (a slot takes it as its own).
    case keptObject(Unmanaged<AnyObject>, flags: UInt32)
    /// Build with this `.unique` registration, after unlocking. Retained once: the receiver
    /// releases it after the build.
    case build(Unmanaged<AnyRegistration>, flags: UInt32)
    /// Take the general path.
    case general

    /// A flag of a plan: the container class conforms to `InjectionObserving`.
    @inlinable static var observed: UInt32 { 1 }
    /// A flag of a plan: the rule is a main-actor one, so the plan serves only on the main actor.
    @inlinable static var mainActor: UInt32 { 2 }

    /// The plan, if it serves the calling code: a main-actor rule's serves only on the main
    /// actor; elsewhere, its payload is released and the general path says why it cannot serve.
    @inlinable @inline(__always) internal var servingHere: ExpressPlan {
      switch self {
      case .keptObject(let object, let flags)
      where flags & Self.mainActor != 0 && !Self.onMainActor():
        object.release()
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

    /// The plan the `ExpressTable` holds for `property` in `containerClass`, its payload not
    /// retained (see `retained`); nil where none is, or in a process that made an override layer
    /// (the table is then never read).
    ///
    /// Call with a slot lock held: what the entry names is alive until it is unlocked.
    @inlinable @inline(__always)
    static func inTable(for property: Any.Type, in containerClass: AnyClass) -> ExpressPlan? {
      guard _lazyinject_overrides_used() == 0,
        let entry = _lazyinject_express_find(address(of: property), address(of: containerClass))
      else { return nil }
      let (flags, payload) = (entry.pointee.flags, entry.pointee.payload)
      if Int(entry.pointee.kind) == LAZYINJECT_EXPRESS_KEPT_OBJECT {
        return .keptObject(Unmanaged<AnyObject>.fromOpaque(payload), flags: flags)
      }
      return .build(Unmanaged<AnyRegistration>.fromOpaque(payload), flags: flags)
    }

    /// The plan with its payload retained once, as a plan handed on owns it.
    ///
    /// Call with the slot lock held. Not done by `inTable`, so that a kept object's two retains
    /// (the slot's, the caller's) are made together, in one call.
    @inlinable var retained: ExpressPlan {
      switch self {
      case .keptObject(let object, _): _ = object.retain()
      case .build(let registration, _): _ = registration.retain()
      case .general: break
      }
      return self
    }

    /// The address of `type`'s metadata: the key of the table's entries.
    @inlinable static func address(of type: Any.Type) -> UnsafeRawPointer {
      UnsafeRawPointer(bitPattern: UInt(bitPattern: Int(bitPattern: ObjectIdentifier(type))))
        .unsafelyUnwrapped
    }
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
        let flags =
          (express.isObserved ? ExpressPlan.observed : 0)
          | (registration.source.isMainActor ? ExpressPlan.mainActor : 0)
        if registration.policy == .none { return .build(found, flags: flags) }
        // Other kept instances (structs, weak ones) take the general path, which casts them.
        guard storesObject, let object = state.instances.object(of: registration) else {
          return .general
        }
        return .keptObject(.passUnretained(object), flags: flags)
      }
      if self === Self.shared {  // The registry `@Lazy` reads.
        ExpressTable.insert(plan, property: propertyType, in: containerClass)
      }
      return plan.retained  // For the caller.
    }
  }
}
