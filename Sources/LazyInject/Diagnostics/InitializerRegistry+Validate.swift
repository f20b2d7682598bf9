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
  /// count, and so do rules for one property (registered with a key path), which validating
  /// applies to the object, so that diagnostics name their properties from then on. Only the
  /// properties themselves are checked, not the values their initializers need.
  ///
  /// - Throws: One ``ResolutionError`` of kind ``ResolutionError/Kind/unresolvableProperties``
  ///   listing every property that cannot be resolved, with the search for each (and a property
  ///   rule whose key path leads to another object); the same kind when the class's stored
  ///   properties cannot be listed because its reflection metadata was left out.
  public func validate(_ container: AnyObject) throws {
    let containerClass: AnyClass = type(of: container)
    guard let fields = LazyField.fields(of: containerClass) else {
      throw ResolutionError(
        .unresolvableProperties,
        """
        LazyInject cannot list the stored properties of \(typeName(containerClass)): its \
        reflection metadata is missing, so no property of it was checked.
        Fix: build the module that declares it with reflection metadata (the default; not with \
        -disable-reflection-metadata or SWIFT_REFLECTION_METADATA_LEVEL = none).
        """)
    }
    let object = UnsafeRawPointer(Unmanaged.passUnretained(container).toOpaque())
    var problems: [String] = []
    for field in fields where !field.isResolved(in: container) {
      let path = "\(typeName(containerClass)).\(field.name): \(typeName(field.valueType))"
      do {
        if try canResolve(field.valueType, in: container, slot: object + field.offset) {
          continue
        }
      } catch {
        problems.append("  - \(path); \(error)")
        continue
      }
      let others = searchedRegistries.flatMap { registry in
        registry.withState {
          registry.table.propertyRules(for: field.valueType, in: containerClass)
        }
      }
      let served =
        others.isEmpty
        ? ""
        : "; its type's property rules here serve only "
          + others.map(\.rule).map { $0.property(of: $0.containerTypeName ?? "?") }
          .joined(separator: ", ")
      problems.append(
        "  - \(path); searched "
          + RuleTable.ancestry(of: containerClass).map(typeName).joined(separator: ", ")
          + ", then the root default\(served)")
    }
    guard !problems.isEmpty else { return }
    let count = problems.count == 1 ? "1 property" : "\(problems.count) properties"
    let lines =
      ["LazyInject cannot resolve \(count) of \(typeName(containerClass)):"] + problems + [
        "Fix: register an initializer for each, or make the type DefaultInitializable."
      ]
    throw ResolutionError(.unresolvableProperties, lines.joined(separator: "\n"))
  }

  /// Whether some layer has a rule for the `property` at `slot` in `container` (a property rule,
  /// or a rule of its type), or it has `init()`.
  ///
  /// - Throws: The error of a property rule whose key path leads to another object.
  private func canResolve(_ property: Any.Type, in container: AnyObject, slot: UnsafeRawPointer)
    throws -> Bool
  {
    for registry in searchedRegistries {
      let found = registry.withState {
        registry.table.search(property, in: type(of: container)).found
      }
      if try found != nil || registry.propertyRule(for: property, in: container, slot: slot) != nil
      {
        return true
      }
    }
    // An optional property with no rule is nil, which is not a failure.
    return property is any DefaultInitializable.Type || property is any _OptionalDependency.Type
  }
}
