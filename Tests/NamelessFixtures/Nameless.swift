import LazyInject

// Classes of a module built without reflection names (-disable-reflection-names, as Xcode's
// SWIFT_REFLECTION_METADATA_LEVEL = without-names builds it): their field records keep each
// property's type and offset, and an empty name.

/// Built with `init()`: resolves with no rule.
public final class NamelessAudit: DefaultInitializable {
  /// Makes one.
  public init() {}
}

/// A dependency that tests register, or leave unregistered.
public final class NamelessDebug {
  /// Makes one.
  public init() {}
}

/// A screen whose two `@Lazy` properties have no names in its module's metadata.
public final class NamelessScreen: InjectionObserving {
  /// Resolves with `init()`.
  @Lazy public var audit: NamelessAudit
  /// Needs a rule.
  @Lazy public var debug: NamelessDebug
  /// The names `didInject` was told, in order.
  public private(set) var injectedNames: [String] = []

  /// Makes one.
  public init() {}

  /// Records `name`.
  public func didInject(_ value: Any, intoPropertyNamed name: String) {
    injectedNames.append(name)
  }
}
