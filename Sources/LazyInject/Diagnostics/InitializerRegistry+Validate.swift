extension InitializerRegistry {
  /// Checks, without building anything, that every unresolved `@Lazy` property of `container`
  /// can be resolved now.
  ///
  /// A one-line test per screen catches a missing registration before users do:
  ///
  /// ```swift
  /// @Test @MainActor func usersScreenCanResolveEverything() throws {
  ///   try InitializerRegistry.shared.validate(UsersViewController())
  /// }
  /// ```
  ///
  /// Properties that already hold a value are skipped. Override layers active on the calling task
  /// count. Only the properties themselves are checked, not the values their initializers need.
  /// Do not call it while other threads read the object's properties for the first time.
  ///
  /// - Throws: One ``ResolutionError`` of kind ``ResolutionError/Kind/unresolvableProperties``
  ///   listing every property that cannot be resolved, with the search for each.
  public func validate(_ container: AnyObject) throws {
    let containerClass: AnyClass = type(of: container)
    var problems: [String] = []
    var mirror: Mirror? = Mirror(reflecting: container)
    while let current = mirror {
      for child in current.children {
        guard let property = child.value as? any _LazyStorage, !property.isResolved else {
          continue
        }
        guard !canResolve(property.valueType, in: containerClass) else { continue }
        let name = child.label.map { String($0.dropFirst()) } ?? "?"
        problems.append(
          "  - \(typeName(containerClass)).\(name): \(typeName(property.valueType)); searched "
            + RuleTable.ancestry(of: containerClass).map(typeName).joined(separator: ", ")
            + ", then the root default")
      }
      mirror = current.superclassMirror
    }
    guard !problems.isEmpty else { return }
    let count = problems.count == 1 ? "1 property" : "\(problems.count) properties"
    let lines =
      ["LazyInject cannot resolve \(count) of \(typeName(containerClass)):"] + problems + [
        "Fix: register an initializer for each, or make the type DefaultInitializable."
      ]
    throw ResolutionError(.unresolvableProperties, lines.joined(separator: "\n"))
  }

  /// Whether some layer has a rule for `property` in `containerClass`, or it has `init()`.
  private func canResolve(_ property: Any.Type, in containerClass: AnyClass) -> Bool {
    for registry in searchedRegistries {
      let found = registry.withState {
        registry.table.search(property, in: containerClass).found
      }
      if found != nil { return true }
    }
    // An optional property with no rule is nil, which is not a failure.
    return property is any DefaultInitializable.Type || property is any _OptionalDependency.Type
  }
}

/// What `validate` reads of a `@Lazy` property it finds by reflection.
internal protocol _LazyStorage {
  var valueType: Any.Type { get }
  var isResolved: Bool { get }
}

extension Lazy: _LazyStorage {
  var valueType: Any.Type { Value.self }
  var isResolved: Bool {
    guard let content = _slot, content !== _LazyMarker.object else { return false }
    return (content as? _LazyObjectBox)?.stack == nil  // A capture is unresolved.
  }
}
