// A shared (`.singleton`, `.weak`, custom-scope) instance of a registry whose build used a rule
// of an override layer above it belongs to that layer: the layer "adopts" it, keeps it where
// only resolutions under the layer see it, and lets it go with the layer. A test's mock thus
// never reaches a production singleton. `SharedInstance.swift` decides when to adopt.

extension InitializerRegistry {
  /// The registries of the override layers in `layers` above this registry (the registry
  /// itself, or a layer's), over the same registry, outermost first; a layer's own rules before
  /// its in-force ones.
  internal func layersAbove(in layers: [OverrideLayer]) -> [InitializerRegistry] {
    layers.flatMap { layer in
      layer.base == root && layer.registry.overrideDepth > overrideDepth
        ? [layer.registry, layer.inForce] : []
    }
  }

  /// How many times this registry reset `scope`.
  ///
  /// Call with the lock of a registry below this one held, or none.
  internal func generation(of scope: Scope) -> Int {
    lock.withLock { scopeGenerations[scope, default: 0] }
  }

  /// The instance of another registry's `registration` that this override layer keeps.
  ///
  /// Call with the lock of the registration's registry held; takes this layer's lock (always
  /// after the lock of a registry below it).
  internal func adoptedInstance(of registration: AnyRegistration) -> Any? {
    lock.withLock {
      adoptedInstances[ObjectIdentifier(registration)].flatMap(registration.policy.instance)
    }
  }

  /// Keeps `value`, an instance of another registry's `registration` built with this layer's
  /// rules, in this layer.
  ///
  /// Call with the lock of the registration's registry held.
  internal func adopt<Property>(_ value: Property, of registration: Registration<Property>)
    throws
  {
    let adopted = try registration.policy.adopted(value, of: registration)
    lock.withLock { adoptedInstances[ObjectIdentifier(registration)] = adopted }
  }
}

/// A shared instance of a registry below an override layer, kept by the layer because its build
/// used the layer's rules.
internal struct AdoptedInstance {
  /// Keeps the registration, so that its identifier is not reused while this entry lives.
  let registration: AnyRegistration
  var value: Any?
  weak var object: AnyObject?

  init(registration: AnyRegistration, value: Any) {
    self.registration = registration
    self.value = value
  }

  init(registration: AnyRegistration, object: AnyObject?) {
    self.registration = registration
    self.object = object
  }
}
