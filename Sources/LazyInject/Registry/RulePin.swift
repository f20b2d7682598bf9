/// The type rule that the first resolution of a (property type, container class) pair matched:
/// values it builds are stored without a box, and `$property.rule` finds their rule here.
///
/// A pin is set by the first resolution of the pair from a registry's own rules (never an
/// override layer's) and never changes, whatever is registered or removed afterwards: values
/// built by another rule are boxed with it. A pin keeps the rule's description, not the
/// registration, so a removed registration's initializer and instance still go away.
internal enum RulePin {
  case registration(RuleSource)
  case defaultInitializer

  /// The pin a resolution by `registration`, or by `init()` if nil, may set; nil for a rule of an
  /// override layer, whose values are always boxed.
  init?(_ registration: AnyRegistration?, isDefaultInitializable: Bool) {
    if let registration {
      guard registration.overrideDepth == 0 else { return nil }
      self = .registration(registration.source)
    } else if isDefaultInitializable {
      self = .defaultInitializer
    } else {
      return nil
    }
  }

  /// Whether the pin is `other`: the same registration, or both `init()`.
  func isSame(as other: RulePin) -> Bool {
    switch (self, other) {
    case (.registration(let own), .registration(let other)): own === other
    case (.defaultInitializer, .defaultInitializer): true
    default: false
    }
  }

  func rule(of property: Any.Type) -> InitializerRegistry.Rule {
    switch self {
    case .registration(let source): source.rule
    case .defaultInitializer: .defaultInitializer(of: property)
    }
  }
}

extension InitializerRegistry {
  /// The pin of `property` in `containerClass`, if a resolution set one.
  internal func pin(for property: Any.Type, in containerClass: AnyClass) -> RulePin? {
    withState { table.pin(for: property, in: containerClass) }
  }
}
