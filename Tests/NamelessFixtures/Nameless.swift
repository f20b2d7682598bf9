import LazyInject

// Classes of a module built without reflection names (-disable-reflection-names, as Xcode's
// SWIFT_REFLECTION_METADATA_LEVEL = without-names builds it): their field records keep each
// property's type and offset, and an empty name.

public final class NamelessAudit: DefaultInitializable {
  public init() {}
}

public final class NamelessDebug {
  public init() {}
}

public final class NamelessScreen: InjectionObserving {
  @Lazy public var audit: NamelessAudit
  @Lazy public var debug: NamelessDebug
  public private(set) var injectedNames: [String] = []

  public init() {}

  public func didInject(_ value: Any, intoPropertyNamed name: String) {
    injectedNames.append(name)
  }
}
