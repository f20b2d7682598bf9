import _LazyInjectShims

extension InitializerRegistry {
  /// How a resolution goes when a single look settles it: under the registry's lock
  /// (`expressPlan(for:in:)`), or in the `ExpressTable` without it.
  ///
  /// Only for a registration that is its pair's pin (see `RulePin`): the value then needs no
  /// record of its rule besides the pin. The resolution pipeline consumes a plan in one place,
  /// `resolve(_:for:slot:plan:generally:outcome:)`.
  @usableFromInline
  internal enum ExpressPlan {
    /// Return this object, kept by a `.singleton` or custom-scope registration of a class type.
    /// Retained once: the receiver owns that +1 (a slot takes it as its own).
    case keptObject(Unmanaged<AnyObject>, isObserved: Bool)
    /// Build with this `.unique` registration, after unlocking. Retained once: the receiver
    /// releases it after the build.
    case build(Unmanaged<AnyRegistration>, isObserved: Bool)
    /// Take the general path.
    case general

    /// The plan, its payload retained once.
    fileprivate func retained() -> ExpressPlan {
      switch self {
      case .keptObject(let object, _): _ = object.retain()
      case .build(let registration, _): _ = registration.retain()
      case .general: break
      }
      return self
    }
  }

  /// The express plan, when the fast path is on (no override layer was ever made, no tracer is
  /// set, the automatic modules are installed), no property rule applies to the pair, and the
  /// pair's registration is its pin and is `.unique` or keeps an object; else `.general`.
  ///
  /// One lock, no task-local read, no copies of the tracer or the layers. The shared registry
  /// also records the plan in the `ExpressTable`, where later first reads of the pair find it
  /// without this lock. Not generic: an optional of the property type would cost a lookup of
  /// its metadata on every call.
  @usableFromInline
  internal func expressPlan(for propertyType: Any.Type, in container: AnyObject) -> ExpressPlan {
    guard _lazyinject_overrides_used() == 0 else { return .general }
    // `withState` would wrap the plan in an optional; the general path installs the automatic
    // modules if they are not yet.
    return lock.withLock {
      guard case .installed = automaticModules, tracerStorage == nil else { return .general }
      let match = table.probe(for: propertyType, in: type(of: container))
      guard match.isExpress, let found = match.registration else { return .general }
      // Other kept instances (structs, weak ones) take the general path, which casts them.
      let plan: ExpressPlan = found._withUnsafeGuaranteedRef { registration in
        if let object = registration.singletonObject {
          return .keptObject(.passUnretained(object), isObserved: match.isObserved)
        }
        if registration.policy == .none {
          return .build(found, isObserved: match.isObserved)
        }
        return .general
      }
      if self === Self.shared {  // The registry `@Lazy` reads.
        ExpressTable.insert(plan, property: propertyType, in: type(of: container))
      }
      return plan.retained()
    }
  }
}
